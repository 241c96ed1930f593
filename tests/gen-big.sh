#!/bin/sh
# gen-big.sh REFERENCE [--update]: the generated hidden cases (big-*:
# tests/gen_hard.py), written at build time rather than committed (80 MB of
# blanks, zeros and echoed names do not belong in the history; their
# generator and 1 KB of hashes do). Writes every big-NAME.in with
# tests/gen-cases.py --big and big-NAME.out with REFERENCE, then checks
# both against the committed hidden-tests/generated.sha256, so the files
# graded are byte for byte the ones reviewed: a generator or a reference
# that has changed fails here (the .out files are removed, so nothing
# stale is graded) until `make regen`, which runs this with --update and
# rewrites the hashes, for review like any .out diff.
# Run from the repository root. Exit 0, or 1 with the reason.
set -eu
ref=$1
update=${2:-}
dir=hidden-tests
manifest=$dir/generated.sha256
names=$(python3 tests/gen-cases.py --big-names)
python3 tests/gen-cases.py --big .
for n in $names; do
	if ! "$ref" < "$dir/$n.in" > "$dir/$n.out.tmp"; then
		rm -f "$dir/$n.out.tmp"
		echo "gen-big: the reference failed on $dir/$n.in" >&2
		exit 1
	fi
	mv "$dir/$n.out.tmp" "$dir/$n.out"
done
if [ "$update" = --update ]; then
	(cd "$dir" && for n in $names; do sha256sum "$n.in" "$n.out"; done) \
		> "$manifest.tmp"
	mv "$manifest.tmp" "$manifest"
	echo "gen-big: $manifest rewritten"
elif ! (cd "$dir" && sha256sum --check --quiet --strict generated.sha256); then
	for n in $names; do rm -f "$dir/$n.out"; done
	echo "gen-big: the generated cases differ from $manifest (run 'make regen'" \
	     "if the change is meant, and review the new hashes)" >&2
	exit 1
fi
