#!/bin/sh
# As root, a graded program cannot read the answers: the suite, the
# submissions and every --hide directory are masked in the program's own
# mount namespace, for the compiler too, whatever the file modes. Cheaters
# try: one opens the expected output at run time, one #includes it at
# compile time, one plants a symbolic link to a root-only file among its
# sources. Where no mount namespace can be made: skipped.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
# The masks need a mount namespace: as root, or in a user namespace.
if ! "$grade" --check-env 2>/dev/null | grep -q '^  mount namespace    yes'; then
	echo "no mount namespace here: programs cannot be isolated from the suite"
	exit 77
fi
# In a folder the sandbox leaves visible: it gives each run a /tmp of its
# own and masks the host's top level but for the system's folders, and
# this test is about the named masks (the control must be able to read its
# file). Root works under /usr/local/share; a normal user cannot write
# there, works in the build folder (masked as a whole) and has no control.
rmdir "$tmp"
tmp=
control=1
if [ "$(id -u)" -eq 0 ] && mkdir -p /usr/local/share 2>/dev/null; then
	tmp=$(mktemp -d /usr/local/share/wg-e2e-hide.XXXXXX 2>/dev/null)
else
	tmp=$(mktemp -d "$WG_BUILD/e2e-hide.XXXXXX" 2>/dev/null)
	control=0
fi
[ -n "$tmp" ] || { echo "no folder outside /tmp to work in"; exit 1; }
chmod 755 "$tmp"

s=$tmp/suite
mkdir -p "$s" "$tmp/extra" "$tmp/runtime" "$tmp/compile"
cat > "$s/suite.json" <<'J'
{"name": "secret", "cases": [{"name": "c", "category": "x", "points": 1}]}
J
printf 'no clue here\n' > "$s/c.in"
printf '42\n' > "$s/c.out"
printf 'staff only\n' > "$tmp/extra/notes"
chmod -R a+rX "$tmp"

# cheater NAME FILE: a submission that prints FILE, or "denied".
cheater() {
	mkdir -p "$tmp/$1"
	cat > "$tmp/$1/main.c" <<C
#include <stdio.h>
int main(void)
{
	char b[256];
	FILE *f = fopen("$2", "r");
	if (!f) { printf("denied\n"); return 0; }
	while (fgets(b, sizeof b, f)) fputs(b, stdout);
	return 0;
}
C
}
cheater runtime "$s/c.out"          # AC if it can read the answer
cheater notes "$tmp/extra/notes"    # --hide
mkdir -p "$tmp/pub" "$tmp/control"
cp "$s/c.out" "$tmp/pub/c.out"
# The control: nothing hides pub/ from the compiler, which keeps the host's
# view (a run sees nothing of it: the minimal root), so it is AC and the
# compile-time check below can fail.
cat > "$tmp/control/main.c" <<C
#include <stdio.h>
int main(void)
{
	printf("%d\\n",
#include "$tmp/pub/c.out"
	);
	return 0;
}
C
# Pulls the expected output in at compile time (it is valid C): AC if the
# compiler can read it.
cat > "$tmp/compile/main.c" <<C
#include <stdio.h>
int main(void)
{
	printf("%d\\n",
#include "$s/c.out"
	);
	return 0;
}
C
# A symbolic link among the sources, to a file only root may read: the
# grader copies sources as root, so it must not follow it.
printf 'TOPSECRET\n' > "$tmp/secret.txt"
mkdir -p "$tmp/symlink"
ln -s "$tmp/secret.txt" "$tmp/symlink/leak.h"
printf '#include "leak.h"\nint main(void) { return 0; }\n' > "$tmp/symlink/main.c"
chmod -R a+rX "$tmp"
chmod 600 "$tmp/secret.txt"

"$grade" --json "$tmp/r.json" --hide "$tmp/extra" --staff "$s" \
	"$tmp/runtime" "$tmp/notes" "$tmp/compile" "$tmp/control" \
	"$tmp/symlink" > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "exit $rc, not 1"
# One verdict per submission, in order.
verdicts=$(grep -o '"verdict": "[A-Z]*"' "$tmp/r.json" | tr -d '" ' |
	   sed 's/verdict://' | tr '\n' ' ')
want="WA WA CE AC CE "
if [ $control -eq 0 ]; then
	echo "note: no control (a normal user cannot write where the sandbox looks)"
	want="WA WA CE CE CE "
fi
[ "$verdicts" = "$want" ] ||
	bad "verdicts runtime/notes/compile/control/symlink: $verdicts (want $want)"
grep -q 'staff only' "$tmp/r.json" && bad "--hide did not hide"
grep -q 'TOPSECRET' "$tmp/r.json" && bad "a symlinked source leaked a root-only file"
grep -q 'denied' "$tmp/r.json" || bad "no read was denied"

[ $fail -eq 0 ] || sed 's/^/    /' "$tmp/out" | head -n 30
exit $fail
