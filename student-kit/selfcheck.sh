#!/bin/sh
# selfcheck: grade one program against the public tests, with whole diffs,
# then the one-line hint of every category that lost points.
# Usage: selfcheck.sh GRADE SUITE_DIR BIN SRC
#   exactly one of BIN (an executable) and SRC (a directory of C sources)
#   is non-empty; `make selfcheck BIN=./a.out` / `SRC=dir` call it so.
# Exit status: grade's (0 every case accepted, 1 not all, 2 bad path, 3 the
# grader's own failure).
set -u
grade=$1 suite=$2 bin=$3 src=$4

if [ -n "$bin" ] && [ -n "$src" ]; then
	echo "selfcheck: give BIN=PROGRAM or SRC=DIR, not both" >&2
	exit 2
fi
sub=${bin:-$src}
if [ -z "$sub" ]; then
	echo "usage: make selfcheck BIN=./a.out    (a compiled program)" >&2
	echo "   or: make selfcheck SRC=DIR        (a directory of .c files)" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/selfcheck.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

"$grade" --verbose --json "$tmp/report.json" "$suite" "$sub"
rc=$?

# The report lists a hint only for the categories that lost points; it is
# indented JSON with one key per line, "category" before "hint".
if [ -s "$tmp/report.json" ]; then
	awk '
	/^ *"category": "/ { c = $0; sub(/^ *"category": "/, "", c); sub(/",?$/, "", c) }
	/^ *"hint": "/ {
		h = $0; sub(/^ *"hint": "/, "", h); sub(/",?$/, "", h)
		gsub(/\\"/, "\"", h); gsub(/\\\\/, "\\", h)
		if (!n++) print "\nHints for the categories that lost points:"
		printf "  %-20s %s\n", c, h
	}' "$tmp/report.json"
fi
exit $rc
