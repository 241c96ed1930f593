#!/bin/sh
# The second mutation set, tests/wrong-blind/: wrong solutions written from
# the contract alone by someone who never read tests/wrong/, its generator
# or the hidden suite (issue 18), against the hidden suite, as
# test_wrong_solutions.sh does for tests/wrong/:
#  1. every folder NAME has main.c (or other .c files) and a witness,
#     witness.in or witness.sh (which prints a witness too long to commit),
#     and is listed in tests/wrong-blind/INDEX (NAME<TAB>FAMILY<TAB>what)
#     with a family; INDEX lists no other;
#  2. each builds with `cc -std=c11 -O2 *.c -lm` (WG_JOBS at a time);
#  3. each disagrees with the reference on its witness (killmatrix -w);
#  4. each is killed by at least two hidden cases (killmatrix -k 2, under
#     the suite's limits, smallest input first).
# WG_WRONG_ALL=1 runs every pair and prints the whole matrix (`make
# blind-matrix`).
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
build=$WG_BUILD
km=$build/tests/killmatrix
cc=${CC:-cc}
jobs=${WG_JOBS:-2}
all=${WG_WRONG_ALL:-0}
set_dir=$root/tests/wrong-blind
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "no C compiler ($cc) to build the wrong solutions"
	exit 77
fi
for p in "$km" "$ref"; do
	[ -x "$p" ] || { echo "$p is not built"; exit 1; }
done
[ -f "$set_dir/INDEX" ] || { echo "no $set_dir/INDEX"; exit 1; }
status=0

# 1. the index and the files
n=0
for dir in "$set_dir"/*/; do
	name=$(basename "$dir")
	n=$((n + 1))
	family=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$set_dir/INDEX")
	[ -n "$family" ] || { echo "FAIL $name: no family in tests/wrong-blind/INDEX"; status=1; }
	ls "$dir"*.c > /dev/null 2>&1 || { echo "FAIL $name: no .c file"; status=1; }
	[ -s "$dir/witness.in" ] || [ -s "$dir/witness.sh" ] ||
		{ echo "FAIL $name: no witness.in or witness.sh"; status=1; }
done
[ $n -gt 0 ] || { echo "no wrong solutions under $set_dir"; exit 1; }
listed=$(grep -v '^#' "$set_dir/INDEX" | grep -c .)
[ "$listed" -eq $n ] || { echo "FAIL: INDEX lists $listed solutions, tests/wrong-blind has $n"; status=1; }

# 2. build them all once, with their witnesses
# shellcheck disable=SC2016 # expanded by the inner shell
printf '%s\n' "$set_dir"/*/ | CC=$cc OUT=$tmp xargs -P "$jobs" -n 1 sh -c '
	name=$(basename "$1")
	if ! "$CC" -std=c11 -O2 -w -o "$OUT/$name" "$1"*.c -lm 2>"$OUT/$name.log"; then
		echo "FAIL $name: does not build:"; head -n 5 "$OUT/$name.log"
		rm -f "$OUT/$name"
	elif [ -s "$1witness.in" ]; then
		cp "$1witness.in" "$OUT/$name.witness"
	elif ! (cd "$1" && sh ./witness.sh) > "$OUT/$name.witness" ||
	     [ ! -s "$OUT/$name.witness" ]; then
		echo "FAIL $name: witness.sh wrote no witness"
		rm -f "$OUT/$name"
	fi' sh || status=1
bins=$(for d in "$set_dir"/*/; do
	b=$tmp/$(basename "$d"); [ -x "$b" ] && echo "$b"; done)
[ "$(echo "$bins" | grep -c .)" -eq $n ] || status=1
[ -n "$bins" ] || exit 1

# 3. each differs from the reference on its witness
# shellcheck disable=SC2086
"$km" -w "$ref" -j "$jobs" $bins || status=1

# 4. each is killed by two hidden cases
if [ "$all" = 1 ]; then
	echo "blind wrong solutions per family:"
	awk -F'\t' '!/^#/ && NF { n[$2]++ } END { for (f in n) printf "  %-12s %3d\n", f, n[f] }' \
		"$set_dir/INDEX" | sort
	# shellcheck disable=SC2086
	"$km" -a -k 2 -j "$jobs" "$root/hidden-tests" $bins || status=1
else
	# shellcheck disable=SC2086
	"$km" -k 2 -j "$jobs" "$root/hidden-tests" $bins || status=1
fi
exit $status
