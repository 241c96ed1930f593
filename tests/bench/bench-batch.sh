#!/bin/sh
# make bench-batch: what grade --batch costs per student, with each slot's
# students graded through one grader (grade --serve: the sandbox set up
# once a slot) against a grade process per student (--grade-per-student:
# the set-up, about 8 ms, paid by every student). A class of N students,
# each a copy of the samples' quick solutions (compiled like any student's
# folder), is graded from scratch (--force) in both ways, interleaved,
# best of REPS; printed per size and way: the batch's wall time per
# student, the CPU time per student (user + system of the batch and every
# grade, compiler and program under it, /usr/bin/time), and the
# difference per student between the two ways. (The batch's own memory:
# make bench-batch-memory.)
#   sh tests/bench/bench-batch.sh BUILD [SIZES="25 250"] [SUITE=hidden-tests] [JOBS=2]
#   (BENCH_REPS=3)
set -u
build=${1:-build}
sizes=${2:-"25 250"}
suite=${3:-hidden-tests}
jobs=${4:-2}
reps=${BENCH_REPS:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
grade=$build/bin/grade
[ -x "$grade" ] || { echo "bench-batch: no $grade (make first)"; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-batch: no /usr/bin/time"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT INT TERM
chmod 755 "$tmp"
samples="correct sector-bitmap float-rounding no-misalignment"
echo "bench-batch: grade --batch -j $jobs --force, suite $suite, best of $reps"
printf '  %8s  %-20s %12s %12s\n' students way "wall/student" "CPU/student"
for n in $sizes; do
	c=$tmp/c$n
	i=0
	while [ $i -lt "$n" ]; do
		for s in $samples; do
			[ $i -lt "$n" ] || break
			mkdir -p "$c/s$(printf %05d $i)"
			cp "$root/submissions/$s/"*.c "$c/s$(printf %05d $i)/"
			i=$((i + 1))
		done
	done
	for way in served per-student; do echo "9e99 9e99" > "$tmp/best-$way"; done
	k=0
	while [ $k -lt "$reps" ]; do
		for way in served per-student; do
			opt=
			[ $way = per-student ] && opt=--grade-per-student
			t0=$(date +%s%N)
			# shellcheck disable=SC2086
			/usr/bin/time -f '%U %S' -o "$tmp/time" "$grade" --batch "$suite" "$c" \
				--out "$tmp/o" -j "$jobs" --force --quiet $opt > /dev/null 2>&1
			rc=$?
			t1=$(date +%s%N)
			[ $rc -le 1 ] || { echo "bench-batch: the batch of $n ($way) failed ($rc)"; exit 1; }
			set -- $(tail -n 1 "$tmp/time")
			awk -v w=$(((t1 - t0) / 1000)) -v u="$1" -v s="$2" '{
				wall = w / 1e6; cpu = u + s
				if (wall < $1) $1 = wall; if (cpu < $2) $2 = cpu; print }' \
				"$tmp/best-$way" > "$tmp/next"
			mv "$tmp/next" "$tmp/best-$way"
			rm -rf "$tmp/o"
		done
		k=$((k + 1))
	done
	for way in served per-student; do
		awk -v n="$n" -v way="$way" '{ printf "  %8d  %-20s %9.1f ms %9.1f ms\n",
			n, way, $1 * 1000 / n, $2 * 1000 / n }' "$tmp/best-$way"
	done
	paste "$tmp/best-served" "$tmp/best-per-student" | awk -v n="$n" '{
		printf "  %8d  %-20s %9.1f ms %9.1f ms\n", n, "saved per student", ($3 - $1) * 1000 / n, ($4 - $2) * 1000 / n }'
	rm -rf "$c"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
