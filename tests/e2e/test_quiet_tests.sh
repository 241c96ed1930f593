#!/bin/sh
# A green `make check-unit` is quiet (issue 19, item 6): the messages the
# negative tests expect ("grade: error: something 1", "grade: fatal: out
# of memory (...)") go to the tests' log, build/tests/check-unit.log, not
# to the terminal. Runs the strbuf suite only (CK_RUN_SUITE), which holds
# those tests.
set -u
. "$(dirname "$0")/lib.sh"
[ -x "$WG_BUILD/tests/check_warpgrade" ] || e2e_skip "no unit-test runner"
cd "$WG_ROOT" || exit 1
CK_RUN_SUITE=strbuf make -s B="$WG_BUILD" check-unit > "$tmp/out" 2> "$tmp/err" ||
	bad "check-unit failed: $(cat "$tmp/out" "$tmp/err")"
[ -s "$tmp/err" ] && bad "stderr of a green run: $(cat "$tmp/err")"
grep -q 'grade: error: something 1\|out of memory' "$tmp/out" &&
	bad "an expected error message on stdout"
grep -q '^100%: Checks: [1-9]' "$tmp/out" || bad "no Check report: $(cat "$tmp/out")"
log=$WG_BUILD/tests/check-unit.log
grep -q 'grade: error: something 1' "$log" || bad "the log lacks the expected error"
exit $fail
