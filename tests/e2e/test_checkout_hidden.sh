#!/bin/sh
# The compiler never sees the checkout grade was built from, wherever it
# lies: a checkout under /usr/local/src (a folder the build view keeps)
# holds the reference's sources, the hidden suite and the build tree whose
# bin/ holds the built reference, a free solution for a submission that
# #includes the sources or .incbins the binary and execs it. Two cheaters
# try, against a copy of grade in a checkout-like tree there: each prints
# a secret it can only have read from that tree, the case's expected
# output; a CE (the file is not there for the compiler) is the defence.
# As root only (a normal user cannot write under /usr), and where a mount
# namespace exists; else skipped.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
[ "$(id -u)" = 0 ] || e2e_skip "skipped: root only (writes under /usr/local/src)"
if ! "$grade" --check-env 2>/dev/null | grep -q '^  mount namespace    yes'; then
	echo "skipped: no mount namespace here"
	exit 77
fi
e2e_need python3
e2e_uid_base 6
mkdir -p /usr/local/src || exit 1
co=$(mktemp -d /usr/local/src/wg-e2e-checkout.XXXXXX) || exit 1
e2e_at_exit 'rm -rf "$co"'
chmod 755 "$co" "$tmp"

secret=WG-REFERENCE-$$
mkdir -p "$co/build/bin" "$co/reference" "$co/hidden-tests"
cp "$grade" "$co/build/bin/grade"
printf '%s\n' "$secret" > "$co/build/bin/reference"
printf '#define SECRET "%s"\n' "$secret" > "$co/reference/secret.h"
chmod -R a+rX "$co"

mkdir -p "$tmp/suite" "$tmp/inc" "$tmp/bin"
printf 'x\n' > "$tmp/suite/a.in"
printf '%s\n' "$secret" > "$tmp/suite/a.out"
printf '{"name": "t", "limits": {"cpu_seconds": 2}, "cases": [{"name": "a", "category": "x", "points": 1}]}\n' \
	> "$tmp/suite/suite.json"
cat > "$tmp/inc/main.c" <<C
#include <stdio.h>
#include "$co/reference/secret.h"
int main(void) { puts(SECRET); return 0; }
C
cat > "$tmp/bin/main.c" <<C
#include <stdio.h>
__asm__(".section .rodata\\n.globl ref_bin\\nref_bin:\\n"
	".incbin \\"$co/build/bin/reference\\"\\n.byte 0\\n.previous\\n");
extern const char ref_bin[];
int main(void) { fputs(ref_bin, stdout); return 0; }
C
chmod -R a+rX "$tmp"

for sub in inc bin; do
	"$co/build/bin/grade" --json "$tmp/$sub.json" "$tmp/suite" "$tmp/$sub" \
		> "$tmp/$sub.log" 2>&1
	python3 - "$tmp/$sub.json" <<'PY' || bad "$sub: the build read the checkout: $(tail -n 3 "$tmp/$sub.log")"
import json, sys
s = json.load(open(sys.argv[1]))["submissions"][0]
assert s["build"]["status"] != "ok", s["build"]
assert s["score"] == 0, s["score"]
PY
done
exit $fail
