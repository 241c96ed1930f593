#!/bin/sh
# The build notices what make's timestamps alone would not: a new VERSION
# or CFLAGS rebuilds (grade --version follows VERSION), and the generated
# list of unit-test suites follows the tests/unit/check_*.c files, a deleted one
# too. Works in a build folder of its own (only the reference is built).
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
mk() { make -C "$root" --no-print-directory B="$tmp/b" "$@"; }

# compiles TARGET [VAR=...]: how many compiler runs a make does (V=1:
# the command lines are printed, not only logged).
compiles() { mk V=1 "$@" 2>&1 | grep -c '^cc\|-o '; }
mk "$tmp/b/bin/reference" > /dev/null 2>&1 || { echo "FAIL: cannot build"; exit 1; }
[ "$(compiles "$tmp/b/bin/reference")" -eq 0 ] || bad "a second make rebuilt the reference"
[ "$(compiles "$tmp/b/bin/reference" VERSION=9.9.9)" -gt 0 ] || bad "a new VERSION rebuilt nothing"
[ "$(compiles "$tmp/b/bin/reference" VERSION=9.9.9 CFLAGS=-O1)" -gt 0 ] || bad "new CFLAGS rebuilt nothing"
[ "$(compiles "$tmp/b/bin/reference" VERSION=9.9.9 CFLAGS=-O1)" -eq 0 ] || bad "the same flags rebuilt again"
mk VERSION=9.9.9 "$tmp/b/bin/grade" > /dev/null 2>&1 || bad "cannot build grade"
"$tmp/b/bin/grade" --version | grep -q '9\.9\.9' ||
	bad "grade --version after VERSION=9.9.9: $("$tmp/b/bin/grade" --version)"

# Hardening (issue 21): grade runs as root and builds sandboxes, so the
# default build is PIE, full RELRO with immediate binding, a stack
# protector and FORTIFY's checked calls; HARDEN=0 (the sanitizer build)
# leaves them out, which proves the checks below can fail.
hardened() { # BINARY: prints what it lacks
	h=$(readelf -h "$1" 2>/dev/null); d=$(readelf -dW "$1" 2>/dev/null)
	l=$(readelf -lW "$1" 2>/dev/null); s=$(readelf -sW --dyn-syms "$1" 2>/dev/null)
	printf '%s\n' "$h" | grep -q 'Type:.*DYN' || printf ' PIE'
	printf '%s\n' "$l" | grep -q GNU_RELRO || printf ' RELRO'
	printf '%s\n' "$d" | grep -q 'BIND_NOW\|FLAGS.*NOW' || printf ' BIND_NOW'
	printf '%s\n' "$s" | grep -q '__stack_chk_fail' || printf ' stack-protector'
	printf '%s\n' "$s" | grep -q '__[a-z_]*_chk' || printf ' FORTIFY'
}
if command -v readelf > /dev/null 2>&1; then
	lacks=$(hardened "$tmp/b/bin/grade")
	[ -z "$lacks" ] || bad "grade is built without:$lacks"
	mk HARDEN=0 CFLAGS='-O2 -fno-stack-protector' "$tmp/b/bin/grade" > /dev/null 2>&1 ||
		bad "cannot build grade with HARDEN=0"
	case $(hardened "$tmp/b/bin/grade") in
	*BIND_NOW*stack-protector*FORTIFY*) ;;
	*) bad "HARDEN=0 still hardens (the check cannot fail)" ;;
	esac
else
	echo "note: no readelf, the hardening flags are not checked"
fi

# The list of suites: one file fewer is one suite fewer.
mk "$tmp/b/gen/check_suites.h" > /dev/null 2>&1
grep -q 'WG_SUITE(lex)' "$tmp/b/gen/check_suites.h" || bad "no lex suite in the list"
mk CHECK_SRCS=tests/unit/check_model.c "$tmp/b/gen/check_suites.h" > /dev/null 2>&1
[ "$(cat "$tmp/b/gen/check_suites.h")" = "WG_SUITE(model)" ] ||
	bad "the list did not follow a removed file: $(cat "$tmp/b/gen/check_suites.h")"

exit $fail
