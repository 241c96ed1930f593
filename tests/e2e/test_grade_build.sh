#!/bin/sh
# The build step under attack. Source names stay file names ("-x.c", a name
# with spaces; "@x.c", gcc's response-file syntax, is refused); a build
# that swaps its output for a link to the grader's own reference is not
# taken; the compiler's memory is limited (#include "/dev/zero") and its
# message flood is stopped at the output cap within seconds, not at its
# 60 s time limit; the build limits come from suite.json and are in the
# report. As root the compiler runs under a slot uid; otherwise as the
# user, and every check still holds.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
e2e_uid_base 2
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3
chmod 755 "$tmp"
suite=$root/public-tests

# field REPORT EXPR: a Python expression on r (the report) and s (its one
# submission).
field() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); s = r["submissions"][0]
print(eval(sys.argv[2]))' "$1" "$2"
}

# Names that look like options: the correct solution, its main in "-x.c"
# and its model in "a b.c"; it must build and get every point.
mkdir -p "$tmp/names"
cp "$root"/submissions/correct/*.[ch] "$tmp/names/"
mv "$tmp/names/main.c" "$tmp/names/-x.c"
mv "$tmp/names/model.c" "$tmp/names/a b.c"
"$grade" -q --json "$tmp/names.json" "$suite" "$tmp/names" > "$tmp/out" 2>&1
[ "$(field "$tmp/names.json" 's["build"]["status"]')" = ok ] ||
	bad "'-x.c' and 'a b.c': $(cat "$tmp/out")"
[ "$(field "$tmp/names.json" 's["score"] == s["max_score"]')" = True ] ||
	bad "'-x.c' and 'a b.c' did not get every point"

# "@x.c" holds options that would run a script at every compiler step.
mkdir -p "$tmp/resp"
printf '#!/bin/sh\ntouch %s/ran\nexec "$@"\n' "$tmp" > "$tmp/evil.sh"
chmod 755 "$tmp/evil.sh"
cp "$root"/submissions/correct/*.[ch] "$tmp/resp/"
printf -- '-wrapper %s/evil.sh\n' "$tmp" > "$tmp/resp/@x.c"
chmod -R a+rX "$tmp"
"$grade" -q --json "$tmp/resp.json" "$suite" "$tmp/resp" > "$tmp/out" 2>&1
[ -e "$tmp/ran" ] && bad "the response file's -wrapper ran"
[ "$(field "$tmp/resp.json" 's["build"]["status"]')" = failed ] ||
	bad "'@x.c' not refused: $(cat "$tmp/out")"
field "$tmp/resp.json" 's["cases"][0]["verdict"] + ": " + s["cases"][0]["detail"]' |
	grep -q "^CE: source name starting with '@' refused$" ||
	bad "'@x.c': $(field "$tmp/resp.json" 's["cases"][0]["detail"]')"

# A compiler ($CC) that, once the program is linked, puts in its place a
# link to the grader's own reference: taken as is, it would score full.
# It lives outside /tmp, which the sandbox replaces for the compiler too
# (root: a root-owned folder; a normal user: the build folder).
ccdir=
if [ "$(id -u)" -eq 0 ]; then
	for d in /run /var/lib /var/cache; do
		ccdir=$(mktemp -d "$d/wg-e2e-cc.XXXXXX" 2>/dev/null) && break
	done
else
	ccdir=$(mktemp -d "$(cd "$b" && pwd)/e2e-cc.XXXXXX" 2>/dev/null)
fi
[ -n "$ccdir" ] || { echo "no folder outside /tmp for the compiler"; exit 1; }
trap 'rm -rf "$tmp" "$ccdir"' EXIT INT TERM
chmod 755 "$ccdir"
cat > "$ccdir/swap-cc" <<S
#!/bin/sh
cc "\$@" || exit 1
rm -f prog && ln -s "$b/bin/reference" prog
S
chmod 755 "$ccdir/swap-cc"
mkdir -p "$tmp/swap"
printf 'int main(void) { return 0; }\n' > "$tmp/swap/main.c"
chmod -R a+rX "$tmp"
CC=$ccdir/swap-cc "$grade" -q --json "$tmp/swap.json" "$suite" "$tmp/swap" \
	> "$tmp/out" 2>&1
[ "$(field "$tmp/swap.json" 's["score"]')" = 0 ] ||
	bad "the link to the reference was taken: $(cat "$tmp/out")"
[ "$(field "$tmp/swap.json" 's["build"]["reason"]')" = "the build left no program of its own" ] ||
	bad "link swap: $(field "$tmp/swap.json" 's["build"]')"

# The compiler's own limits, from suite.json: 256 MiB, 64 KiB of messages.
s2=$tmp/suite-small
cp -r "$suite" "$s2"
python3 - "$s2/suite.json" <<'PY'
import json, sys
p = sys.argv[1]; j = json.load(open(p))
j["build_limits"] = {"memory_mib": 256, "output_kib": 64, "cpu_seconds": 20}
json.dump(j, open(p, "w"), indent=1)
PY
chmod -R a+rX "$tmp"

# mem: cc1 reads /dev/zero without end.
mkdir -p "$tmp/mem"
echo '#include "/dev/zero"' > "$tmp/mem/main.c"
# flood: 16^4 * 8 * 16 errors with their notes, about a minute of gcc.
mkdir -p "$tmp/flood"
cat > "$tmp/flood/main.c" <<'C'
#define A 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1;
#define B A A A A A A A A A A A A A A A A
#define C B B B B B B B B B B B B B B B B
#define D C C C C C C C C C C C C C C C C
#define E D D D D D D D D D D D D D D D D
int main(void) { E E E E E E E E E E E E E E E E }
C
chmod -R a+rX "$tmp"
for what in "mem $suite compiler out of memory (limit 2048 MiB)" \
	    "flood $suite compiler output over 256 KiB" \
	    "mem $s2 compiler out of memory (limit 256 MiB)" \
	    "flood $s2 compiler output over 64 KiB"; do
	set -- $what
	sub=$1 st=$2
	shift 2
	want=$*
	t0=$(date +%s)
	timeout 60 "$grade" -q --json "$tmp/r.json" "$st" "$tmp/$sub" > "$tmp/out" 2>&1
	rc=$?
	t=$(( $(date +%s) - t0 ))
	echo "$sub ($st): exit $rc in $t s"
	[ $rc -eq 1 ] || bad "$sub: exit $rc: $(tail -n 3 "$tmp/out")"
	[ $t -le 20 ] || bad "$sub: took $t s"
	[ "$(field "$tmp/r.json" 's["cases"][0]["verdict"] + ": " + s["cases"][0]["detail"]')" = "CE: $want" ] ||
		bad "$sub: $(field "$tmp/r.json" 's["cases"][0]["detail"]')"
done
# CPU: the limit binds cc1 itself, seen only through the driver's message.
s3=$tmp/suite-cpu
cp -r "$suite" "$s3"
python3 - "$s3/suite.json" <<'PY'
import json, sys
p = sys.argv[1]; j = json.load(open(p))
j["build_limits"] = {"cpu_seconds": 1}
json.dump(j, open(p, "w"), indent=1)
PY
mkdir -p "$tmp/slow"
cat > "$tmp/slow/main.c" <<'C'
#define A x = x * 3 + 1; x ^= x >> 7;
#define B A A A A A A A A A A A A A A A A
#define C B B B B B B B B B B B B B B B B
#define D C C C C C C C C C C C C C C C C
int main(void) { volatile unsigned x = 1; D D D D D D D D return x; }
C
chmod -R a+rX "$tmp"
"$grade" -q --json "$tmp/cpu.json" "$s3" "$tmp/slow" > /dev/null 2>&1
[ "$(field "$tmp/cpu.json" 's["cases"][0]["detail"]')" = "compiler over its CPU limit of 1 s" ] ||
	bad "cpu: $(field "$tmp/cpu.json" 's["build"]')"

# The report says which limits the compiler ran under.
[ "$(field "$tmp/r.json" 'sorted(r["build_limits"].items())')" = \
  "[('cpu_seconds', 20.0), ('file_size_mib', 64), ('memory_mib', 256), ('output_kib', 64), ('processes', 32), ('tmp_mib', 256), ('wall_seconds', 120.0)]" ] ||
	bad "build_limits: $(field "$tmp/r.json" 'r["build_limits"]')"

# More sources than the build takes (256) are refused as a whole, not
# built from the first 256 in directory order.
mkdir -p "$tmp/many"
i=0
while [ $i -lt 257 ]; do printf 'int f%d;\n' $i > "$tmp/many/f$i.c"; i=$((i + 1)); done
printf 'int main(void) { return 0; }\n' > "$tmp/many/main.c"
chmod -R a+rX "$tmp/many"
"$grade" -q --json "$tmp/many.json" "$suite" "$tmp/many" > /dev/null 2>&1
[ "$(field "$tmp/many.json" 's["build"]["reason"]')" = "more than 256 source files" ] ||
	bad "258 sources: $(field "$tmp/many.json" 's["build"]')"
exit $fail
