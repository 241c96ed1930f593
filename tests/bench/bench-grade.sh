#!/bin/sh
# make bench-grade: the grader's time per case against two baselines on the
# same program (the reference) and the same inputs (SUITE/*.in), in one run:
#   floor   fork + exec + wait, stdin from the file, stdout read to EOF
#           (tests/helpers/bench_spawn.c): what running cases costs at all;
#           and the same with vfork, which the grader's runner uses: the
#           stricter floor, that the grader's overhead is measured against
#   shell   a loop of `timeout` + `diff` per case, the usual quick script
#   grade   grade -j 1 and -j 2 (the program named ROUNDS times on its
#           command line, so one grade process runs ROUNDS x cases); and
#           grade -j 1 with the program named once, which splits -j 1's
#           time into a cost per case (the slope between the two) and a
#           cost per grade process (the sandbox's set-up: namespaces,
#           cgroups, and the kernel's first cgroup move, one RCU grace
#           period)
#   serve   the program ROUNDS times through one grade --serve
#           (tests/bench/serve-drive.py): a submission's cost beyond its
#           cases once the sandbox is set up (the batch's graders)
#   steps   the set-up of one grade process step by step (WG_STEP_TIMES=1,
#           tests/bench/setup-steps.awk), median of BENCH_STEP_REPS=20
#   layers  the kernel's work for the layers alone, without the grader
#           (tests/helpers/bench_layers.c, root only): the floor under
#           the set-up on this machine
# Usage: bench-grade.sh BUILD_DIR SUITE [ROUNDS]   (BENCH_REPS=5: best of)
set -eu
b=$1 suite=$2 rounds=${3:-10}
ref=$b/bin/reference grade=$b/bin/grade spawn=$b/helpers/bench_spawn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
ns() { date +%s%N; }
set -- "$suite"/*.in
ncases=$#
runs=$((ncases * rounds))

# Warm the page cache and the binaries once.
"$spawn" 1 "$ref" "$@" > /dev/null

# Other work on the machine makes single timings noisy: every figure is
# the best of REPS runs, and the runs of the three are interleaved.
reps=${BENCH_REPS:-5}
subs=""
r=0
while [ $r -lt "$rounds" ]; do subs="$subs $ref"; r=$((r + 1)); done
grade_run() {
	t0=$(ns)
	# shellcheck disable=SC2086
	"$grade" -q -j "$1" "$suite" ${2:-$subs} > /dev/null || {
		echo "bench-grade: grade -j $1 failed" >&2; exit 1; }
	echo $(($(ns) - t0))
}
min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }
floor="" vfloor="" j1="" j2="" one=""
k=0
while [ $k -lt "$reps" ]; do
	floor=$(min "$floor" "$("$spawn" "$rounds" "$ref" "$@" | awk '{ print $2 }')")
	vfloor=$(min "$vfloor" "$("$spawn" -v "$rounds" "$ref" "$@" | awk '{ print $2 }')")
	j1=$(min "$j1" "$(grade_run 1)")
	j2=$(min "$j2" "$(grade_run 2)")
	one=$(min "$one" "$(grade_run 1 "$ref")")
	k=$((k + 1))
done

# The shell loop is slow: one round per rep is enough, scaled.
shell=""
k=0
while [ $k -lt "$reps" ]; do
	t0=$(ns)
	for f in "$@"; do
		timeout 3 "$ref" < "$f" > "$tmp/out" || true
		diff -q "$tmp/out" "${f%.in}.out" > /dev/null || echo "differs: $f"
	done
	shell=$(min "$shell" $((($(ns) - t0) * rounds)))
	k=$((k + 1))
done

awk -v reps="$reps" -v n="$runs" -v c="$ncases" -v r="$rounds" -v fl="$floor" -v sh="$shell" -v vf="$vfloor" \
    -v j1="$j1" -v j2="$j2" -v one="$one" 'BEGIN {
	printf "bench-grade: %d cases x %d rounds = %d runs of the reference (best of %d)\n", c, r, n, reps
	printf "  %-34s %8.3f ms/case\n", "floor (fork+exec+wait, bench_spawn)", fl / n / 1e6
	printf "  %-34s %8.3f ms/case\n", "floor with vfork (bench_spawn -v)", vf / n / 1e6
	printf "  %-34s %8.3f ms/case  (%.2fx floor)\n", "shell loop (timeout + diff)", sh / n / 1e6, sh / fl
	printf "  %-34s %8.3f ms/case  (%+.0f%% over the fork floor, %+.0f%% over the vfork floor)\n", "grade -j 1", j1 / n / 1e6, (j1 / fl - 1) * 100, (j1 / vf - 1) * 100
	printf "  %-34s %8.3f ms/case  (%.2fx the speed of -j 1)\n", "grade -j 2", j2 / n / 1e6, j1 / j2
	if (r > 1) {
		slope = (j1 - one) / (n - c)
		printf "  %-34s %8.3f ms/case  (%.2fx the vfork floor)\n", "grade -j 1, each case", slope / 1e6, slope / (vf / n)
		printf "  %-34s %8.1f ms      (once per grade process)\n", "grade -j 1, set-up", (one - slope * c) / 1e6
	}
}'

# The same submission again and again through one grade --serve (the
# batch's graders, serve.h): what a submission costs beyond its cases
# when the sandbox is set up once, against the set-up above.
here=$(dirname "$0")
served=""
k=0
while [ $k -lt "$reps" ]; do
	served=$(min "$served" "$(python3 "$here/serve-drive.py" "$grade" "$suite" "$ref" "$rounds" | awk '{ print $2 }')")
	k=$((k + 1))
done
awk -v s="$served" -v r="$rounds" -v c="$ncases" -v j1="$j1" -v one="$one" -v n="$runs" 'BEGIN {
	slope = (j1 - one) / (n - c)
	printf "  %-34s %8.1f ms      (%d cases each, best of the runs)\n", "grade --serve, each submission", s / r / 1e6, c
	printf "  %-34s %8.1f ms      (beyond its cases at the per-case slope)\n", "grade --serve, set-up per submission", (s / r - slope * c) / 1e6
}'

# What starting grade costs at all: exec, the loader, exit, without
# work (no arguments: the usage message, then exit 2), against /bin/true.
start=$("$spawn" -v -a 50 "$grade" /dev/null 2> /dev/null | awk '{ print $2 / $1 / 1e6 }')
true_ms=$("$spawn" -v 50 /bin/true /dev/null | awk '{ print $2 / $1 / 1e6 }')
printf '  %-34s %8.3f ms      (/bin/true: %.3f ms)\n' "grade started and ended, no work" "$start" "$true_ms"

# The set-up, step by step: grade with the program named once, its marks
# (WG_STEP_TIMES=1, grader/lib/steptime.h) turned into medians per step.
# Each process alone, BENCH_STEP_GAP=0.2 s after the last: the kernel's
# first cgroup migration waits for an RCU grace period only after an idle
# spell (cgroup.c), which back-to-back processes would hide from each
# other; a grade started by hand, or one per container, pays it.
k=0
while [ $k -lt "${BENCH_STEP_REPS:-20}" ]; do
	sleep "${BENCH_STEP_GAP:-0.2}"
	WG_STEP_TIMES=1 "$grade" -q -j 1 "$suite" "$ref" 2>&1 > /dev/null |
		grep '^wg-step: ' | sort -k2 -n
	k=$((k + 1))
done > "$tmp/steps"
awk -v cases="$ncases" -f "$here/setup-steps.awk" "$tmp/steps"

# The floor under all that: the kernel's own work for the layers, without
# the grader (tests/helpers/bench_layers.c: a keeper forked, groups in the
# v1 memory and pids hierarchies or the v2 root, mount, network and IPC
# namespaces, a tmpfs root with two read-only binds and a private /tmp, a
# PID namespace whose init mounts /proc and runs /bin/true in the groups,
# then all of it ended), as many processes, as far apart. grade does more
# (the minimal root's libraries, seccomp, six hierarchies, the scratch
# tree, the suite), so its set-up can come near this, never under it.
if out=$("$b/helpers/bench_layers" "${BENCH_STEP_REPS:-20}" \
	"$(awk -v g="${BENCH_STEP_GAP:-0.2}" 'BEGIN { printf "%d", g * 1000 }')"); then
	set -- $out
	fast=$1 med=$2 p90=$3
	shift 4
	printf '  %-34s %8.3f ms      (fastest %.3f, 90th percentile %.3f; groups in %s)\n' \
		"the layers alone, no grader" "$med" "$fast" "$p90" "$*"
else
	echo "  the layers alone: not measured (${out:-bench_layers failed})"
fi
