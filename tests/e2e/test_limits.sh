#!/bin/sh
# Limits as judges mean them (DOMjudge's runguard, isolate), as tests of
# our own with our own helpers (docs/suites.md, "Limits"):
#  - a program's threads may use every CPU grade may, whatever -j: the
#    verdict of a two-thread program is the same at -j 1 and -j 2;
#  - pthread_create succeeds under "processes": 8 with the default stack;
#  - where a memory cgroup exists, memory is memory in use: 1 GiB touched
#    passes under 1 GiB + 10 MiB and is MLE under 1 GiB; 4 GiB reserved
#    and 16 MiB used pass under 256 MiB; the OOM killer's SIGKILL after
#    much CPU is MLE, never a CPU TLE;
#  - an ELF with a huge touched bss under a small limit is MLE; under an
#    address-space limit (no memory cgroup) a program whose libraries the
#    loader cannot map ("failed to map segment") is MLE;
#  - cpu_ms in a CPU TLE is never below the limit it names.
# The same script runs as root, without CAP_SYS_ADMIN, as a normal user and
# with WG_NO_NAMESPACES=1; what needs a memory cgroup is skipped, and said
# so, where the report's "sandbox" says there is none.
set -u
. "$(dirname "$0")/lib.sh"
b=$WG_BUILD
e2e_uid_base 2
[ -x "$grade" ] || e2e_skip "no $grade"
chmod 755 "$tmp"
for h in rn_threads rn_memhog rn_hugebss rn_bss rn_spin rn_cpuoom rn_reserve; do
	cp "$b/helpers/$h" "$tmp/$h" || exit 1
done

# suite NAME LIMITS CASE:INPUT:OUTPUT...
suite() {
	d=$tmp/$1 lim=$2
	shift 2
	mkdir -p "$d"
	cases=""
	for c in "$@"; do
		n=${c%%:*} rest=${c#*:}
		printf '%s\n' "${rest%%:*}" > "$d/$n.in"
		[ -n "${rest#*:}" ] && printf '%s\n' "${rest#*:}" > "$d/$n.out" || : > "$d/$n.out"
		cases="$cases${cases:+,}{\"name\": \"$n\", \"category\": \"x\", \"points\": 1}"
	done
	printf '{"name": "%s", "limits": %s, "cases": [%s]}\n' "$1" "$lim" "$cases" \
		> "$d/suite.json"
}

# run SUITE PROGRAM [GRADE OPTIONS]: the report in $tmp/r.json; prints
# "case verdict limit cpu_ms" a line each.
run() {
	s=$1 p=$2
	shift 2
	"$grade" "$@" --json "$tmp/r.json" "$tmp/$s" "$tmp/$p" > "$tmp/out" 2>&1
	python3 - "$tmp/r.json" <<'P' 2>/dev/null || echo "no report: $(head -c 400 "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["submissions"][0]["cases"]:
    print(c["name"], c["verdict"], c.get("limit"), c["cpu_ms"], c.get("detail"))
P
}
memory_kind() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["sandbox"]["memory_limit"].replace(" ", "-"))' \
		"$tmp/r.json" 2>/dev/null
}

# Threads: every CPU grade may use, at -j 1 and at -j 2 alike.
cpus=$(nproc)
suite threads '{"processes": 8, "cpu_seconds": 5, "wall_seconds": 20}' \
	"two:2 0.3:threads 2 cpus $cpus" "four:4 0.1:threads 4 cpus $cpus"
run threads rn_threads -j 1 > "$tmp/j1"
run threads rn_threads -j 2 > "$tmp/j2"
for j in j1 j2; do
	grep -q '^two AC' "$tmp/$j" && grep -q '^four AC' "$tmp/$j" ||
		bad "threads at -$j: $(cat "$tmp/$j")"
done
[ "$(cut -d' ' -f1-2 "$tmp/j1")" = "$(cut -d' ' -f1-2 "$tmp/j2")" ] ||
	bad "the verdicts depend on -j: $(cat "$tmp/j1") / $(cat "$tmp/j2")"

# cpu_ms in a CPU TLE: RLIMIT_CPU's SIGXCPU (one process), the tree's
# live count (three threads, processes 4).
suite spin '{"cpu_seconds": 1, "wall_seconds": 8}' "spin::"
run spin rn_spin > "$tmp/v"
grep -q '^spin TLE cpu' "$tmp/v" || bad "spin: $(cat "$tmp/v")"
suite tree '{"cpu_seconds": 1, "wall_seconds": 8, "processes": 4}' "tree:3 3:"
run tree rn_threads > "$tmp/v2"
grep -q '^tree TLE cpu' "$tmp/v2" || bad "tree: $(cat "$tmp/v2")"
cat "$tmp/v" "$tmp/v2" | awk '$2 == "TLE" && $4 < 1000 { print "FAIL: cpu_ms " $4 " under the limit of 1000: " $0 }' |
	grep . && fail=1

# A huge touched bss under 16 MiB: MLE, with or without a memory cgroup.
suite small '{"memory_mib": 16, "cpu_seconds": 5, "wall_seconds": 15}' "bss::"
for mode in "" WG_NO_CGROUP=1; do
	v=$(env $mode WG_UID_BASE="$WG_UID_BASE" "$grade" --json "$tmp/r.json" "$tmp/small" "$tmp/rn_hugebss" > /dev/null 2>&1;
	    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["submissions"][0]["cases"][0]["verdict"])' "$tmp/r.json")
	[ "$v" = MLE ] || bad "hugebss ${mode:-as it is}: $v"
done
# Under an address-space limit the loader cannot map libc beside a 14 MiB
# image (under 90% of 16 MiB): MLE, not RTE.
WG_NO_CGROUP=1 run small rn_bss > "$tmp/v"
grep -q '^bss MLE' "$tmp/v" || bad "bss under RLIMIT_AS: $(cat "$tmp/v")"
[ "$(memory_kind)" = address-space ] || bad "WG_NO_CGROUP=1: sandbox.memory_limit is $(memory_kind)"

# Memory in use, where a memory cgroup counts it.
suite mem1034 '{"memory_mib": 1034, "cpu_seconds": 10, "wall_seconds": 30}' "gib::got 1024 MiB"
suite mem1024 '{"memory_mib": 1024, "cpu_seconds": 10, "wall_seconds": 30}' "gib::got 1024 MiB"
run mem1034 rn_memhog > "$tmp/v"
if [ "$(memory_kind)" != cgroup ]; then
	echo "skipped: memory in use (no memory cgroup here: the limit is the address space; $(grep -o 'no memory cgroup[^"]*' "$tmp/r.json" | head -1))"
	grep -q "no memory cgroup" "$tmp/r.json" || bad "no memory cgroup, and the report's missing does not say so"
else
	grep -q '^gib AC' "$tmp/v" || bad "1 GiB under 1034 MiB: $(cat "$tmp/v")"
	run mem1024 rn_memhog > "$tmp/v"
	grep -q '^gib MLE' "$tmp/v" || bad "1 GiB under 1024 MiB: $(cat "$tmp/v")"
	# 2.3 s of CPU, past 3/4 of the 3 s limit (where a SIGKILL not
	# grade's was taken for RLIMIT_CPU's), then an OOM well before 3 s.
	suite cpuoom '{"memory_mib": 32, "cpu_seconds": 3, "wall_seconds": 12}' "oom:2.3:"
	run cpuoom rn_cpuoom > "$tmp/v"
	grep -q '^oom MLE' "$tmp/v" || bad "OOM after 2.3 s of CPU: $(cat "$tmp/v")"
	# Address space reserved but not used (Go, ASan, threads' stacks)
	# is not memory in use.
	suite reserve '{"memory_mib": 256, "cpu_seconds": 2}' "four::reserved"
	run reserve rn_reserve > "$tmp/v"
	grep -q '^four AC' "$tmp/v" || bad "4 GiB reserved, 16 MiB used, under 256 MiB: $(cat "$tmp/v")"
fi

[ $fail -eq 0 ] && echo "ok: limits"
exit $fail
