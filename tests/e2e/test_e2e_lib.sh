#!/bin/sh
# tests/e2e/lib.sh itself: the paths it sets are absolute, its $tmp and
# what e2e_at_exit adds go at exit (a normal one and a TERM alike),
# e2e_uid_base keeps a WG_UID_BASE that is set, e2e_skip exits 77 with its
# reason last, e2e_json reads a field, bad sets fail.
set -u
. "$(dirname "$0")/lib.sh"
case "$WG_ROOT$WG_BUILD" in /*/*) ;; *) bad "not absolute: $WG_ROOT $WG_BUILD" ;; esac
[ -f "$WG_ROOT/tests/e2e/lib.sh" ] || bad "WG_ROOT is not the checkout: $WG_ROOT"
[ -d "$tmp" ] || bad "no \$tmp"

# e2e_peak_rss: a figure, or minus the exit status; e2e_peak_flat: bad
# past the bound only.
[ "$(e2e_peak_rss 0 true)" -gt 0 ] || bad "e2e_peak_rss of true: $(e2e_peak_rss 0 true)"
[ "$(e2e_peak_rss 0 false)" = -1 ] || bad "e2e_peak_rss of false: $(e2e_peak_rss 0 false)"
out=$( (fail=0; e2e_peak_flat t 1000 2000 2048 > /dev/null; echo "$fail") )
[ "$out" = 0 ] || bad "e2e_peak_flat failed within the bound"
out=$( (fail=0; e2e_peak_flat t 1000 5000 2048 > /dev/null; echo "$fail") )
[ "$out" = 1 ] || bad "e2e_peak_flat passed past the bound"

lib=$WG_ROOT/tests/e2e/lib.sh
# child BODY: a script that sources the lib and runs BODY; prints its
# output, "rc=N" last.
child() {
	printf 'set -u\n. "%s"\n%s\n' "$lib" "$1" > "$tmp/child.sh"
	sh "$tmp/child.sh"
	echo "rc=$?"
}

out=$(child 'echo "$tmp" > '"$tmp"'/t; e2e_at_exit "echo hook1"; e2e_at_exit "echo hook2"; bad x; exit $fail')
t=$(cat "$tmp/t")
[ -n "$t" ] && [ ! -e "$t" ] || bad "the child's tmp is left: $t"
[ "$(printf '%s\n' "$out" | tr '\n' ' ')" = "FAIL: x hook1 hook2 rc=1 " ] ||
	bad "bad/e2e_at_exit/exit: $out"

printf 'set -u\n. "%s"\nsleep 30 & e2e_at_exit "kill $!"\necho "$tmp" > %s/t2; wait\n' \
	"$lib" "$tmp" > "$tmp/term.sh"
sh "$tmp/term.sh" & pid=$!
i=0
while [ ! -s "$tmp/t2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid; wait $pid
rc=$?
t=$(cat "$tmp/t2")
[ -n "$t" ] && [ ! -e "$t" ] || bad "a TERM left the tmp: $t"
[ $rc -eq 143 ] || bad "a TERM: exit $rc, want 143"

out=$(WG_UID_BASE=1234 child 'e2e_uid_base 3; echo "$WG_UID_BASE"')
[ "$out" = "1234
rc=0" ] || bad "e2e_uid_base overrode WG_UID_BASE: $out"
out=$(env -u WG_UID_BASE sh -c "$(printf '. "%s"; e2e_uid_base 3; echo "$WG_UID_BASE"' "$lib")" )
[ "$out" -ge 200000 ] 2>/dev/null || bad "e2e_uid_base without WG_UID_BASE: $out"

out=$(child 'e2e_skip "no widget here"')
[ "$out" = "no widget here
rc=77" ] || bad "e2e_skip: $out"

if command -v python3 >/dev/null 2>&1; then
	printf '{"a": {"b": [1, "two"]}, "s": "x y"}\n' > "$tmp/j.json"
	[ "$(e2e_json "$tmp/j.json" 'r["a"]["b"][1]')" = two ] || bad "e2e_json string"
	[ "$(e2e_json "$tmp/j.json" 'r["a"]["b"]')" = '[1, "two"]' ] || bad "e2e_json list"
	e2e_json "$tmp/j.json" 'r["nope"]' >/dev/null 2>&1 && bad "e2e_json: a missing key succeeded"
fi
exit $fail
