#!/bin/sh
# What a run and a build can see (grader/run/sandbox.h, "mount ns"), against
# hostile submissions (tests/helpers/sb_root.c and C sources made here):
#   - the page cache: a case reads pages of a compiler file no program
#     needs (lto1), a later one reads which are cached (mincore): with the
#     minimal root the file is not there at all; a case drops pages of its
#     own file from the cache (fadvise), a later one reads which: the copy
#     in memory (tmpfs) never drops one (a regression check only: in the
#     old sandbox the host copy's pages were not dropped either, here);
#   - a program that tries to change its input file through its stdin
#     (which may be the file itself): the file is unchanged;
#   - a program that looks for any "reference" (an installed warpgrade, the
#     checkout's build) and executes it; a build that embeds the installed
#     reference (.incbin): nothing found, CE;
#   - a build that fills its scratch: CE with the reason, a classmate's
#     build beside it unaffected;
#   - #include "/dev/ptmx" and "/dev/tty": CE at once, not at the build's
#     wall limit.
# Each check counts only where the report says its layer is in force
# (minimal_root, build_view); elsewhere it says why it was skipped. As
# root a temporary PREFIX under /usr/local (visible to a deny-list) holds
# a `make install`.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
probe=$b/helpers/sb_root
prefix=
cleanup() {
	rm -rf "$tmp"
	[ -n "$prefix" ] && rm -rf "$prefix"
}
e2e_at_exit cleanup
chmod 755 "$tmp"

# suite NAME LIMITS CASE:INPUT:OUTPUT... (every case visible)
suite() {
	d=$tmp/$1 lim=$2
	shift 2
	mkdir -p "$d"
	cases=""
	for c in "$@"; do
		n=${c%%:*} rest=${c#*:}
		printf '%s\n' "${rest%%:*}" > "$d/$n.in"
		printf '%s\n' "${rest#*:}" > "$d/$n.out"
		cases="$cases${cases:+,}{\"name\": \"$n\", \"category\": \"x\", \"points\": 1, \"visibility\": \"visible\"}"
	done
	printf '{"name": "%s", %s, "cases": [%s]}\n' "$1" "$lim" "$cases" > "$d/suite.json"
}

# layer JSON KEY: 0 when the report's sandbox has KEY in force.
layer() {
	python3 -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1]))["sandbox"][sys.argv[2]])' "$1" "$2"
}

# verdicts JSON: "name verdict detail" per case.
verdicts() {
	python3 - "$1" <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["submissions"]:
    for c in s["cases"]:
        print(s["submission"].rsplit("/", 1)[-1], c["name"], c["verdict"],
              (c.get("detail") or "").replace("\n", " "))
P
}

cp "$probe" "$tmp/one"

# An installed warpgrade. As root under /usr/local, where a deny-list
# keeps everything visible; otherwise in this test's folder.
if [ "$(id -u)" -eq 0 ] && prefix=$(mktemp -d /usr/local/lib/wg-e2e-XXXXXX 2>/dev/null); then
	chmod 755 "$prefix"
else
	prefix=
	mkdir -p "$tmp/prefix"
fi
inst=${prefix:-$tmp/prefix}
# -o all: what `make test` built, installed as it is (never rebuilt with
# other flags in the middle of the tests).
make -s -o all -C "$root" B="$(cd "$b/.." && pwd)/$(basename "$b")" PREFIX="$inst" install \
	> "$tmp/install.out" 2>&1 || { echo "FAIL: make install"; cat "$tmp/install.out"; exit 1; }
ref=$inst/libexec/warpgrade/reference
[ -x "$ref" ] || { echo "FAIL: no installed reference at $ref"; exit 1; }

# The page-cache probe's file: a large compiler file no program needs,
# its pages dropped from the cache first (POSIX_FADV_DONTNEED needs no
# write access).
big=
for f in /usr/lib/gcc/*/*/lto1 /usr/lib/gcc/*/*/cc1plus /usr/lib/gcc/*/*/cc1; do
	[ -r "$f" ] && { big=$f; break; }
done
bits=1011001110001011
[ -n "$big" ] && python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$big"

# ---- the runs: the minimal root ----
suite root '"limits": {"cpu_seconds": 5, "processes": 4}' \
	top:root:minimal \
	"pset:pset ${big:-/nonexistent} $bits:blind" \
	"pget:pget ${big:-/nonexistent} 16:blind" \
	"sset:sset 1010:sent" "sget:sget 4:1111" \
	"findref:findref $ref $b/bin/reference:none" \
	"stdin:stdin:tried" "stdinw:stdin:tried"
# stdinw.in is writable by all: never handed over as it is (a pipe).
chmod 666 "$tmp/root/stdinw.in"
stdin_state() { for f in stdin stdinw; do ls -l "$tmp/root/$f.in"; cksum < "$tmp/root/$f.in"; done; }
stdin_before=$(stdin_state)
for g in "$grade" "$inst/bin/grade"; do
	timeout 120 "$g" --json "$tmp/r.json" "$tmp/root" "$tmp/one" > "$tmp/r.out" 2>&1
	rc=$?
	[ $rc -le 1 ] || { bad "$g: grade exit $rc"; cat "$tmp/r.out"; continue; }
	# stdin may be the input file itself: the run changed nothing of it
	# (in every setting, minimal root or not).
	[ "$(stdin_state)" = "$stdin_before" ] ||
		bad "$g: a run changed its input file: $(stdin_state)"
	if ! layer "$tmp/r.json" minimal_root; then
		echo "skipped minimal root ($g): $(e2e_json "$tmp/r.json" '"; ".join(r["sandbox"]["missing"])')"
		continue
	fi
	verdicts "$tmp/r.json" > "$tmp/v"
	while read -r sub name verdict detail; do
		case $name in
		pset) ;;    # blind or not, what counts is what pget reads
		*) [ "$verdict" = AC ] || bad "$g: $name: $verdict $detail" ;;
		esac
	done < "$tmp/v"
	[ "$fail" -eq 0 ] || grep -A4 '"actual' "$tmp/r.out" | head -20
done

# ---- the builds: the build view ----
# .incbin of the installed reference: a free solution if the compiler
# could read it.
mkdir -p "$tmp/embed" "$tmp/fill" "$tmp/hello" "$tmp/ptmx" "$tmp/tty"
cat > "$tmp/embed/main.c" <<C
#include <stdio.h>
__asm__(".section .rodata\\n.incbin \\"$ref\\"\\n.previous");
int main(void) { puts("hello"); return 0; }
C
cat > "$tmp/hello/main.c" <<'C'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
C
# About 7 MB of assembly (600,000 distinct constants), and an object of
# 2.4 MB: past a 2 MiB scratch.
cat > "$tmp/fill/main.c" <<'C'
#include <stdio.h>
#define A(x) x, x+1, x+2, x+3, x+4, x+5, x+6, x+7, x+8, x+9
#define B(x) A(x), A(x+10), A(x+20), A(x+30), A(x+40), A(x+50), A(x+60), A(x+70), A(x+80), A(x+90)
#define C(x) B(x), B(x+100), B(x+200), B(x+300), B(x+400), B(x+500), B(x+600), B(x+700), B(x+800), B(x+900)
#define D(x) C(x), C(x+1000), C(x+2000), C(x+3000), C(x+4000), C(x+5000), C(x+6000), C(x+7000), C(x+8000), C(x+9000)
#define E(x) D(x), D(x+10000), D(x+20000), D(x+30000), D(x+40000), D(x+50000), D(x+60000), D(x+70000), D(x+80000), D(x+90000)
int big[] = { E(0), E(100000), E(200000), E(300000), E(400000), E(500000) };
int main(void) { printf("hello%.0d\n", big[12345] & 0); return 0; }
C
printf '#include "/dev/ptmx"\nint main(void) { return 0; }\n' > "$tmp/ptmx/main.c"
printf '#include "/dev/tty"\nint main(void) { return 0; }\n' > "$tmp/tty/main.c"
suite build '"build_limits": {"tmp_mib": 2, "wall_seconds": 20}' out:x:hello
t0=$(date +%s)
# The installed grade: it masks its own PREFIX's libexec and share.
timeout 200 "$inst/bin/grade" -j 2 --json "$tmp/b.json" "$tmp/build" "$tmp/embed" "$tmp/fill" \
	"$tmp/hello" "$tmp/ptmx" "$tmp/tty" > "$tmp/b.out" 2>&1
rc=$?
t=$(($(date +%s) - t0))
[ $rc -le 1 ] || { bad "builds: grade exit $rc"; cat "$tmp/b.out"; }
if layer "$tmp/b.json" build_view; then
	verdicts "$tmp/b.json" > "$tmp/v"
	want() {
		grep -q "^$1 out $2" "$tmp/v" || bad "$1: want $2, got: $(grep "^$1 " "$tmp/v")"
	}
	want embed CE
	want fill "CE compiler's scratch over its limit of 2 MiB"
	want hello AC
	want ptmx CE
	want tty CE
	grep -q "wall limit" "$tmp/v" && bad "a build waited for its wall limit: $(grep 'wall limit' "$tmp/v")"
	[ $t -lt 20 ] || bad "the builds took $t s (a device include blocked?)"
	python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["build_limits"]["tmp_mib"] != 2)' \
		"$tmp/b.json" || bad "the report's build_limits has no tmp_mib 2"
else
	echo "skipped build view: $(e2e_json "$tmp/b.json" '"; ".join(r["sandbox"]["missing"])')"
fi

[ $fail -eq 0 ] && echo "sandbox root: every defence in force held"
exit $fail
