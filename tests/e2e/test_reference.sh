#!/bin/sh
# The reference end to end: the contract's example byte for byte, and the
# input rules that only a whole run shows (EOF without '\n', binary input,
# long lines, nothing on stderr, exit status 0).
set -u
. "$(dirname "$0")/lib.sh"
data=$WG_ROOT/tests/data

"$ref" < "$data/contract-example.in" > "$tmp/out" 2> "$tmp/err"
cmp "$tmp/out" "$data/contract-example.out" || bad "contract example differs"
[ -s "$tmp/err" ] && bad "contract example wrote to stderr"

# The last line counts even without its newline.
printf 'active 1\nshared 0 0' | "$ref" > "$tmp/out"
[ "$(cat "$tmp/out")" = "shared base=0 stride=0: 1 thread, 1 pass, no conflict" ] ||
	bad "last line without newline: $(cat "$tmp/out")"

# Binary garbage, NUL bytes included: no crash, exit 0, nothing on stderr.
head -c 200000 /dev/urandom > "$tmp/garbage"
timeout 10 "$ref" < "$tmp/garbage" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || bad "binary input: exit $rc"
[ -s "$tmp/err" ] && bad "binary input wrote to stderr"

# A 4 MB line (a gather with far too many addresses) and 1 MB of blanks.
awk 'BEGIN { printf "gather 4"; for (i = 0; i < 400000; i++) printf " %d", i; printf "\n";
	     for (i = 0; i < 1000000; i++) printf " "; printf "strided 0 1\n" }' > "$tmp/long"
timeout 10 "$ref" < "$tmp/long" > "$tmp/out" || bad "long lines: exit $?"
printf 'error: gather: need 32 addresses\nstrided base=0 stride=1 size=4: 32 threads, 4 sectors, 1 line, requested 128 B, moved 128 B, efficiency 100.0%%\n' > "$tmp/want"
cmp "$tmp/out" "$tmp/want" || bad "long lines"

# Empty input: no output, exit 0.
"$ref" < /dev/null > "$tmp/out" && [ ! -s "$tmp/out" ] || bad "empty input"

# Arguments are a usage error of the program itself.
"$ref" extra < /dev/null > /dev/null 2>&1 && bad "accepted an argument"
exit $fail
