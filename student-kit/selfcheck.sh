#!/bin/sh
# selfcheck: grade one program against the public tests, with whole diffs
# and the one-line hint of every category that lost points.
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
# grade prints the hint of every category that lost points itself.
exec "$grade" --verbose "$suite" "$sub"
