#!/bin/sh
# What a submission holds can cause no internal error, and nothing it
# names reaches a reader raw (docs/grade.md, "Submission limits"):
#  - a sparse 5 MiB header beside main.c, a FIFO, a symbolic link: a CE
#    with the reason, grade's exit status 1 (never 3), and in a batch the
#    student is graded;
#  - a source name laden with escape sequences (C0 and C1), and a source
#    whose compiler message quotes them: no raw control byte on the
#    terminal (--color=never), in summary.txt, gradebook.csv or the log;
#  - a 200 GiB sparse file beside the sources (not one) stalls no batch.
set -u
. "$(dirname "$0")/lib.sh"
b=$WG_BUILD
e2e_uid_base 4
[ -x "$grade" ] || e2e_skip "no $grade"
chmod 755 "$tmp"

mkdir -p "$tmp/suite"
printf '7\n' > "$tmp/suite/echo.in"
printf '7\n' > "$tmp/suite/echo.out"
printf '{"name": "limits", "limits": {"cpu_seconds": 2}, "cases": [{"name": "echo", "category": "x", "points": 1}]}\n' \
	> "$tmp/suite/suite.json"
main='#include <stdio.h>
int main(void) { int x; if (scanf("%d", &x) == 1) printf("%d\n", x); return 0; }'

# One folder per student.
sub() { mkdir -p "$tmp/class/$1"; printf '%s\n' "$main" > "$tmp/class/$1/main.c"; }
sub sparse; truncate -s 5M "$tmp/class/sparse/big.h"
sub fifo; mkfifo "$tmp/class/fifo/pipe.h"
sub link; ln -s /etc/hostname "$tmp/class/link/host.h"
esc=$(printf '\033[31mRED\033]0;title\007')
sub escname; printf '%s\n' "$main" > "$tmp/class/escname/@$esc.c"
# No C0 control here (a name with one is refused first): the '@' refusal
# itself must scrub the 8-bit CSI and the C1 CSI.
sub c1name; printf '%s\n' "$main" > "$tmp/class/c1name/@$(printf '\233')31m$(printf '\302\233')2J.c"
sub escmsg; printf '#error "%s"\n' "$esc" > "$tmp/class/escmsg/msg.c"
sub good
# Not a source, never built: a 200 GiB sparse file must not stall the
# batch (its resume hash read every byte: minutes).
sub bigdata; truncate -s 200G "$tmp/class/bigdata/data.bin"

raw() { # FILE...: fails when one holds ESC, BEL, CSI (8-bit or UTF-8 C1)
	LC_ALL=C grep -l "$(printf '\033')\|$(printf '\007')\|$(printf '\233')" "$@" 2>/dev/null
}

# One submission at a time, as grade prints it.
for s in sparse fifo link escname c1name escmsg; do
	"$grade" --color=never --json "$tmp/$s.json" --gradescope "$tmp/$s.gs.json" \
		"$tmp/suite" "$tmp/class/$s" > "$tmp/$s.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || bad "$s: exit $rc, want 1 (a CE): $(head -c 600 "$tmp/$s.out")"
	grep -q '"verdict": "CE"' "$tmp/$s.json" || bad "$s: not a CE: $(head -c 600 "$tmp/$s.out")"
	grep -q '"verdict": "IE"' "$tmp/$s.json" && bad "$s: an IE"
	[ -n "$(raw "$tmp/$s.out")" ] && bad "$s: raw control bytes on the terminal: $(od -c "$tmp/$s.out" | head -5)"
	# Gradescope shows its "output" texts as they are: scrubbed too.
	grep -qi '\\u001b\|\\u0007\|\\u009b' "$tmp/$s.gs.json" &&
		bad "$s: control characters in results.json: $(grep -o '.\{20\}\\u00[019][7b].\{20\}' "$tmp/$s.gs.json" | head -3)"
done
grep -q "more than 4 MiB" "$tmp/sparse.out" || bad "sparse: no reason: $(cat "$tmp/sparse.out")"
grep -q "'pipe.h' refused: it is a FIFO" "$tmp/fifo.out" || bad "fifo: no reason: $(cat "$tmp/fifo.out")"
grep -q "'host.h' refused: it is a symbolic link" "$tmp/link.out" || bad "link: no reason: $(cat "$tmp/link.out")"
grep -q "control character" "$tmp/escname.out" || bad "escname: no reason: $(cat "$tmp/escname.out")"
grep -q "starting with '@'" "$tmp/c1name.out" || bad "c1name: no reason: $(cat "$tmp/c1name.out")"
grep -q "error" "$tmp/escmsg.out" || bad "escmsg: no compiler message: $(cat "$tmp/escmsg.out")"
grep -q "sources over 4 MiB" "$tmp/sparse.json" || bad "sparse: no CE detail in the JSON"

# Without namespaces the read probe names what the programs could read,
# a student's file among them: a name that is not UTF-8 goes into the
# report's "leaks" escaped, never a report lost (exit 3).
WG_NO_NAMESPACES=1 "$grade" --color=never --json "$tmp/c1nons.json" "$tmp/suite" \
	"$tmp/class/c1name" > "$tmp/c1nons.out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "c1name without namespaces: exit $rc, want 1: $(tail -3 "$tmp/c1nons.out")"

# The class at once: every student graded (exit 1, not 3), nothing raw.
timeout 100 "$grade" --batch "$tmp/suite" "$tmp/class" --out "$tmp/out" -j 2 \
	> "$tmp/batch.out" 2>&1
rc=$?
[ $rc -eq 124 ] && bad "batch: stalled for 100 s (the 200 GiB sparse file?)"
[ $rc -eq 1 ] || bad "batch: exit $rc, want 1: $(cat "$tmp/batch.out")"
grep -q '^bigdata,1,1,' "$tmp/out/gradebook.csv" || bad "batch: bigdata: $(grep '^bigdata' "$tmp/out/gradebook.csv")"
for s in sparse fifo link escname c1name escmsg; do
	awk -F, -v s="$s" '$1 == s' "$tmp/out/gradebook.csv" | grep -q ',graded,' ||
		bad "batch: $s not graded: $(grep "^$s," "$tmp/out/gradebook.csv")"
done
grep -q '^good,1,1,' "$tmp/out/gradebook.csv" || bad "batch: good: $(cat "$tmp/out/gradebook.csv")"
grep -q 'Not graded' "$tmp/out/summary.txt" && bad "batch: someone not graded: $(cat "$tmp/out/summary.txt")"
left=$(raw "$tmp/batch.out" "$tmp/out/summary.txt" "$tmp/out/gradebook.csv" "$tmp"/out/logs/*.log)
[ -n "$left" ] && bad "raw control bytes in: $left"

[ -n "${WG_DEBUG:-}" ] && cat "$tmp/batch.out" "$tmp/out/gradebook.csv"
[ $fail -eq 0 ] && echo "ok: submission limits"
exit $fail
