#!/bin/sh
# make bench-batch-memory: what grade --batch holds as the class grows.
# A class of the largest size is made by tests/bench/html-class.sh (the
# samples graded once, then copied, folder and report); each size is the
# first N of its students, each batch over them resumes every one
# ("unchanged"), so no student's grade runs and /usr/bin/time's maximum
# resident set is the batch's own. Printed per size: the batch's peak RSS,
# the peak RSS of `grade --similarity` over the same class alone (the
# batch compares the class's sources too: it is the batch's peak when it
# is the largest part), their difference (what the batch holds besides),
# the batch's CPU time (user + system); then the size of the similarity
# record (its JSON: at most 10,000 pairs and the regions of 100, it is
# most of what the analysis holds, and on this class of copies it grows
# until those caps), and the peak RSS of `grade --similarity` over a
# class of as many random programs (tests/similarity/random-program.awk,
# about 14 KB each, next to no pair: the record stays small, so this is
# the analysis's per-student part alone).
# The batch keeps no student's report (grader/cli/batch_rows.c), so its
# own part must not grow with the class; nothing is asserted here
# (tests/e2e/test_batch_memory.sh checks it).
#   sh tests/bench/bench-batch-memory.sh BUILD [SIZES="25 250 1000"] [SUITE=hidden-tests]
set -u
build=${1:-build}
sizes=${2:-"25 250 1000"}
suite=${3:-hidden-tests}
root=$(cd "$(dirname "$0")/../.." && pwd)
grade=$build/bin/grade
[ -x "$grade" ] || { echo "bench-batch-memory: no $grade (make first)"; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-batch-memory: no /usr/bin/time"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT INT TERM
max=0
for n in $sizes; do [ "$n" -gt "$max" ] && max=$n; done
sh "$root/tests/bench/html-class.sh" "$grade" "$suite" "$max" "$tmp/class" "$tmp/out"
[ $? -le 1 ] || { echo "bench-batch-memory: the class could not be graded"; exit 1; }
echo "bench-batch-memory: grade --batch, every student unchanged (resumed), suite $suite"
printf '  %8s %12s %12s %14s %9s %10s %12s\n' students "batch peak" "similarity" \
	"batch - sim." "CPU" "record" "sim. random"
for n in $sizes; do
	c=$tmp/c$n o=$tmp/o$n
	mkdir -p "$c" "$o/students"
	ls "$tmp/class" | head -n "$n" > "$tmp/names"
	while read -r s; do
		cp -r "$tmp/class/$s" "$c/"
		cp "$tmp/out/students/$s.json" "$o/students/"
	done < "$tmp/names"
	/usr/bin/time -f '%M %U %S' -o "$tmp/rss" "$grade" --batch "$suite" "$c" \
		--out "$o" -j 2 --quiet > /dev/null 2>&1
	[ $? -le 1 ] || { echo "bench-batch-memory: the batch of $n failed"; exit 1; }
	set -- $(tail -n 1 "$tmp/rss")
	kb=$1 cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%.2f", u + s }')
	/usr/bin/time -f '%M' -o "$tmp/sim" "$grade" --similarity "$c" -q \
		--json "$tmp/sim.json" > /dev/null 2>&1
	sim=$(tail -n 1 "$tmp/sim")
	rec=$(wc -c < "$tmp/sim.json")
	i=0
	while [ $i -lt "$n" ]; do
		s=$tmp/r$n/$(printf 's%04d' $i)
		mkdir -p "$s"
		awk -v seed=$((i + 1)) -v F=40 -v S=12 \
			-f "$root/tests/similarity/random-program.awk" > "$s/main.c"
		i=$((i + 1))
	done
	/usr/bin/time -f '%M' -o "$tmp/simr" "$grade" --similarity "$tmp/r$n" -q \
		> /dev/null 2>&1
	simr=$(tail -n 1 "$tmp/simr")
	grep -c ',unchanged,' "$o/gradebook.csv" > "$tmp/count"
	[ "$(cat "$tmp/count")" -eq "$n" ] || echo "  (only $(cat "$tmp/count") of $n unchanged)"
	awk -v n="$n" -v kb="$kb" -v cpu="$cpu" -v sim="$sim" -v rec="$rec" \
	    -v simr="$simr" 'BEGIN {
		printf "  %8d %8.1f MiB %8.1f MiB %10.1f MiB %7s s %6.1f MiB %8.1f MiB\n",
			n, kb / 1024, sim / 1024, (kb - sim) / 1024, cpu,
			rec / 1048576, simr / 1024 }'
	rm -rf "$c" "$o" "$tmp/r$n"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
