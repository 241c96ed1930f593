#!/bin/sh
# make-zip.sh OUT: builds the Gradescope autograder zip from the repository
# root (the current directory). Gradescope wants setup.sh and run_autograder
# at the top of the zip; next to them, warpgrade/ holds what
# `make build/bin/grade` needs, with hidden-tests/ (the zip is the staff's,
# never the students').
set -eu
out=$1
case "$out" in /*) ;; *) out=$(pwd)/$out ;; esac
[ -f hidden-tests/suite.json ] || { echo "make-zip: no hidden-tests/suite.json" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/autograder.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/warpgrade/tests"
cp gradescope/setup.sh gradescope/run_autograder "$stage/"
chmod 755 "$stage/setup.sh" "$stage/run_autograder"
# The top Makefile includes reference/module.mk, tests/module.mk,
# tests/committed-suites.mk and
# every grader/*/*.mk; build outputs never go in.
for p in Makefile mk grader reference public-tests hidden-tests gradescope; do
	[ -e "$p" ] && cp -R "$p" "$stage/warpgrade/"
done
cp tests/module.mk tests/committed-suites.mk tests/deps.sh "$stage/warpgrade/tests/"
find "$stage/warpgrade" \( -name '*.o' -o -name '*.d' -o -name '*.tmp' \) -delete

mkdir -p "$(dirname "$out")"
rm -f "$out.tmp"
(cd "$stage" && zip -q -r -X "$out.tmp" setup.sh run_autograder warpgrade)
mv "$out.tmp" "$out"
echo "autograder: $out ($(cd "$stage" && find . -type f | wc -l) files)"
