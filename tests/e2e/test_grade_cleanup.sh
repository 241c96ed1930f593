#!/bin/sh
# What a program leaves in its scratch folder never costs a later case:
# a 3000-deep chain of directories (more than the grader's descriptor limit,
# set to 256 here, were it removed with one descriptor per level) and a
# mode-000 folder are removed, and every case is still judged (AC), not IE.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
chmod 755 "$tmp"

s=$tmp/suite
mkdir -p "$s" "$tmp/litter"
cat > "$s/suite.json" <<'J'
{"name": "litter", "limits": {"cpu_seconds": 5},
 "cases": [{"name": "a", "category": "x", "points": 1},
                             {"name": "b", "category": "x", "points": 1},
                             {"name": "c", "category": "x", "points": 1}]}
J
for c in a b c; do printf 'ok\n' > "$s/$c.in"; printf 'ok\n' > "$s/$c.out"; done
cat > "$tmp/litter/main.c" <<'C'
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void)
{
	char line[16];
	if (fgets(line, sizeof line, stdin))
		fputs(line, stdout);
	fflush(stdout);
	mkdir("closed", 0700);
	mkdir("closed/inner", 0700);
	chmod("closed", 0);
	for (int i = 0; i < 3000; i++)      /* bounded */
		if (mkdir("d", 0700) < 0 || chdir("d") < 0)
			break;
	return 0;
}
C
chmod -R a+rX "$tmp"
sh -c 'ulimit -n 256; exec "$0" "$@"' "$grade" --json "$tmp/r.json" "$s" \
	"$tmp/litter" > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "exit $rc, not 0"
n=$(grep -c '"verdict": "AC"' "$tmp/r.json")
[ "$n" -eq 3 ] || bad "$n of 3 cases AC"
[ $fail -eq 0 ] || sed 's/^/    /' "$tmp/out" | head -n 20
exit $fail
