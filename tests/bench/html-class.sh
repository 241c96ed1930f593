#!/bin/sh
# html-class: a class of N students for the page's tests and benchmark,
# in seconds rather than hours. The samples of submissions/ are graded once
# (a batch of one student each, compile-error and infinite-loop left out
# unless WITH_SLOW=1); the other N - samples students are copies of them,
# folder and report alike (a copied folder hashes the same, so the next
# batch takes the copied report as its own, "unchanged"), and a second
# batch over the whole class writes OUT/report.html and the rest.
#   sh tests/bench/html-class.sh GRADE SUITE N CLASS_DIR OUT_DIR [JOBS=2]
# Exit status: the second batch's (1: some student lost points).
set -u
grade=$1 suite=$2 n=$3 class=$4 out=$5 jobs=${6:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
samples=
for d in "$root"/submissions/*/; do
	name=$(basename "$d")
	case "$name" in
	compile-error|infinite-loop) [ -n "${WITH_SLOW:-}" ] || continue ;;
	esac
	samples="$samples $name"
done
set -- $samples
ns=$#
mkdir -p "$class"
i=0
while [ $i -lt "$ns" ] && [ $i -lt "$n" ]; do
	k=$((i + 1))
	eval "s=\${$k}"
	mkdir -p "$class/student-$(printf %04d $i)"
	cp "$root/submissions/$s/"*.c "$class/student-$(printf %04d $i)/"
	i=$((i + 1))
done
"$grade" --batch "$suite" "$class" --out "$out" -j "$jobs" --quiet > /dev/null 2>&1
[ $? -le 1 ] || { echo "html-class: the samples' batch failed" >&2; exit 3; }
while [ $i -lt "$n" ]; do
	from=student-$(printf %04d $((i % ns))) to=student-$(printf %04d $i)
	mkdir -p "$class/$to"
	cp "$class/$from/"*.c "$class/$to/"
	cp "$out/students/$from.json" "$out/students/$to.json"
	i=$((i + 1))
done
"$grade" --batch "$suite" "$class" --out "$out" -j "$jobs" --quiet > /dev/null 2>&1
