#!/bin/sh
# grade --check-env, and grading where layers are missing: grade still
# grades (never exit 3 for a missing layer), warns once per missing layer
# when the suite has hidden cases, and says in the report what was missing.
# WG_NO_NAMESPACES=1 plays a machine that allows no namespace at all.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
chmod 755 "$tmp"

mk_suite() { # DIR VISIBILITY
	mkdir -p "$1"
	printf '{"name": "t", "cases": [{"name": "a", "category": "x", "points": 1, "visibility": "%s"}]}\n' \
		"$2" > "$1/suite.json"
	echo 'stack' > "$1/a.in"
	echo "stack $((256 << 20))" > "$1/a.out"
}
mk_suite "$tmp/hidden" hidden
mk_suite "$tmp/public" visible
cp "$b/helpers/sb_attack" "$tmp/prog"

# The environment as it is: a table, and a verdict on hidden tests.
"$grade" --check-env "$tmp/hidden" > "$tmp/env.out" 2>&1
rc=$?
grep -q 'mount namespace' "$tmp/env.out" || bad "--check-env prints no layer table"
grep -q '^kernel ' "$tmp/env.out" || bad "--check-env prints no kernel line"
# Whether a grade's first cgroup migration waits for an RCU grace period.
want=$(cat /sys/kernel/rcu_expedited 2>/dev/null || echo absent)
grep -q "^  /sys/kernel/rcu_expedited  *$want\$" "$tmp/env.out" ||
	bad "--check-env: rcu_expedited is not '$want': $(grep rcu "$tmp/env.out")"
if grep -q '^  mount namespace    yes' "$tmp/env.out"; then
	[ $rc -eq 0 ] || bad "--check-env: masking in force, exit $rc"
else
	[ $rc -eq 1 ] || bad "--check-env: no masking, exit $rc (want 1)"
fi

# Where the kernel lets this user make the namespaces, grade must have
# them: a layer lost to a bug must not pass as a machine's limit. (Not
# when the whole run plays a machine without namespaces: WG_NO_NAMESPACES
# set for make test itself, as in a container that refuses them.)
case ${WG_NO_NAMESPACES:-0} in
''|0) playing=no ;;
*) playing=yes ;;
esac
if [ $playing = no ] && command -v unshare > /dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ]; then
		can=$(unshare --mount --net true 2>/dev/null && echo yes)
		[ -n "$can" ] || can=$(unshare --user --map-root-user --mount --net true 2>/dev/null && echo yes)
	else
		can=$(unshare --user --map-current-user --mount --net true 2>/dev/null && echo yes)
	fi
	if [ "$can" = yes ]; then
		for layer in 'mount namespace' 'private /tmp' 'network namespace' 'pid namespace'; do
			grep -q "^  $layer *yes" "$tmp/env.out" ||
				bad "the kernel allows namespaces here, but grade has no $layer: $(grep missing "$tmp/env.out")"
		done
	fi
fi

# Only true things (issue 19): a row says what its state means, never
# the words of the other state; "n/a", not "no", for a layer not needed;
# a "missing:" line only for what is missing; a cgroup row names its
# controls or says there is none.
truthful() { # FILE SETTING
	f=$1 what=$2
	grep -q '^  mount namespace    yes' "$f" && grep -q '^  user namespace     no' "$f" &&
		bad "$what: 'user namespace no' though the namespaces hold"
	grep -E "^  [a-z/' ]+ +no +(each slot runs under a uid|suite and submissions masked|fresh /tmp|fresh SysV|no network\$|programs can signal only|the slot's processes only|no keyrings|every process's CPU counts)" "$f" &&
		bad "$what: a 'no' row with the words of 'yes'"
	grep -E '^  cgroup .*(:|controls)$' "$f" && bad "$what: a cgroup row with nothing after it"
	if grep -q '^  mount namespace    yes' "$f" && grep -q '^  private /tmp       yes' "$f" &&
	   grep -q '^  network namespace  yes' "$f"; then
		grep -E '^  missing: .*(CAP_SYS_ADMIN|namespace)' "$f" &&
			bad "$what: a namespace 'missing' though every namespace holds"
	fi
	grep -q '^read probe: ' "$f" || bad "$what: no read probe: $(cat "$f")"
}
truthful "$tmp/env.out" "as this user"
if [ "$(id -u)" -eq 0 ]; then
	cp "$grade" "$tmp/grade"
	chmod -R a+rX "$tmp"
	setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
		"$grade" --check-env "$tmp/hidden" > "$tmp/env-nocap.out" 2>&1
	truthful "$tmp/env-nocap.out" "root without CAP_SYS_ADMIN"
	for ns in 0 1; do
		(cd "$tmp" && WG_NO_NAMESPACES=$ns setpriv --reuid=65534 --regid=65534 \
			--clear-groups ./grade --check-env hidden) > "$tmp/env-nobody.out" 2>&1
		truthful "$tmp/env-nobody.out" "nobody (WG_NO_NAMESPACES=$ns)"
		grep -q "^  children's CPU     no   every" "$tmp/env-nobody.out" &&
			bad "nobody: children's CPU no with the words of yes"
	done
	WG_NO_NAMESPACES=1 "$grade" --check-env "$tmp/hidden" > "$tmp/env-nons.out" 2>&1
	truthful "$tmp/env-nons.out" "root without namespaces"

	# --uid-base on either side of --check-env, WG_UID_BASE, and an empty
	# WG_UID_BASE (unset: never an error, for grade and batch alike).
	u=$((300000 + ($$ % 100000) * 8))
	for args in "--check-env --uid-base $u" "--uid-base=$u --check-env"; do
		"$grade" $args "$tmp/public" > "$tmp/u.out" 2>&1
		grep -q "^free slot uids.*: $u " "$tmp/u.out" ||
			bad "grade $args: $(grep -i 'uid' "$tmp/u.out" | head -n 3)"
	done
	WG_UID_BASE=$((u + 8)) "$grade" --check-env "$tmp/public" > "$tmp/u.out" 2>&1
	grep -q "^free slot uids.*: $((u + 8)) " "$tmp/u.out" ||
		bad "--check-env ignores WG_UID_BASE: $(grep -i uid "$tmp/u.out" | head -n 3)"
	WG_UID_BASE= "$grade" --check-env --uid-base $((u + 16)) "$tmp/public" > "$tmp/u.out" 2>&1
	grep -q "^free slot uids.*: $((u + 16)) " "$tmp/u.out" ||
		bad "--check-env with an empty WG_UID_BASE: $(head -n 3 "$tmp/u.out")"
	WG_UID_BASE= "$grade" --uid-base $((u + 16)) "$tmp/public" "$tmp/prog" > "$tmp/u.out" 2>&1 ||
		bad "grade with an empty WG_UID_BASE: $(head -n 3 "$tmp/u.out")"
	WG_UID_BASE= "$grade" --batch --help > "$tmp/u.out" 2>&1 ||
		bad "grade --batch with an empty WG_UID_BASE: $(head -n 3 "$tmp/u.out")"
fi

# No namespace at all: the suite's files are readable (0644 in a 0755
# folder), which the read probe finds.
WG_NO_NAMESPACES=1 "$grade" --check-env "$tmp/hidden" > "$tmp/env2.out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "--check-env without namespaces, hidden suite: exit $rc (want 1)"
grep -q '^hidden tests may leak here:' "$tmp/env2.out" || bad "--check-env does not say hidden tests may leak"
grep -q "the programs can read .*$tmp/hidden" "$tmp/env2.out" ||
	bad "--check-env does not name the suite file the probe read: $(cat "$tmp/env2.out")"
WG_NO_NAMESPACES=1 "$grade" --check-env "$tmp/public" > /dev/null 2>&1 ||
	bad "--check-env without namespaces, public suite: exit $? (want 0)"
"$grade" --check-env "$tmp/nowhere" > /dev/null 2>&1
[ $? -eq 2 ] || bad "--check-env on a missing suite: not exit 2"

WG_NO_NAMESPACES=1 "$grade" --json "$tmp/r.json" "$tmp/hidden" "$tmp/prog" \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || { bad "grading without namespaces: exit $rc"; cat "$tmp/out" "$tmp/err"; }
grep -q "warning: hidden tests may leak here: the programs can read .*$tmp/hidden" "$tmp/err" ||
	bad "no warning that the programs can read the suite: $(cat "$tmp/err")"
python3 - "$tmp/r.json" "$tmp/hidden" <<'P' || fail=1
import json, sys
sb = json.load(open(sys.argv[1]))["sandbox"]
assert sb["mount_namespace"] is False and sb["network_namespace"] is False, sb
assert any("WG_NO_NAMESPACES" in m for m in sb["missing"]), sb["missing"]
assert sb["hidden_tests_may_leak"] is True, sb
assert any(sys.argv[2] in w for w in sb["leaks"]), sb["leaks"]
P
# With the masks in force, the report says nothing leaks.
if grep -q '^  mount namespace    yes' "$tmp/env.out"; then
	"$grade" --json "$tmp/r2.json" "$tmp/hidden" "$tmp/prog" > /dev/null 2>&1
	python3 - "$tmp/r2.json" <<'P' || bad "the report claims a leak with every layer in force"
import json, sys
sb = json.load(open(sys.argv[1]))["sandbox"]
assert sb["hidden_tests_may_leak"] is False and sb["leaks"] == [], sb
P
fi
# Sources graded without namespaces: the read probe runs first (a run of
# slot 0 with a low memory limit), then the compiler's higher one must
# still be set (a v1 memory.memsw below it refused the raise: every case IE).
mkdir -p "$tmp/src"
cat > "$tmp/src/main.c" <<C
#include <stdio.h>
int main(void) { puts("stack $((256 << 20))"); return 0; }
C
WG_NO_NAMESPACES=1 "$grade" "$tmp/hidden" "$tmp/src" > "$tmp/src.out" 2>&1 ||
	bad "sources graded without namespaces: exit $?: $(cat "$tmp/src.out")"

# As root, a suite the slot uids cannot read (0700) is not a leak, even
# without namespaces: the probe tries instead of assuming.
if [ "$(id -u)" -eq 0 ]; then
	cp -r "$tmp/hidden" "$tmp/closed"
	chmod 700 "$tmp/closed"
	WG_NO_NAMESPACES=1 "$grade" --check-env "$tmp/closed" > "$tmp/env3.out" 2>&1
	grep -q "the programs can read $tmp/closed" "$tmp/env3.out" &&
		bad "--check-env: a 0700 suite taken as readable: $(cat "$tmp/env3.out")"
	grep -q 'read probe: a program of the slot could read' "$tmp/env3.out" ||
		bad "--check-env: the probe did not run or read something: $(grep probe "$tmp/env3.out")"
	# grade's own account says the same (its probe ran, and read nothing
	# of the suite: no "not checked", no suite path).
	# (A copy of grade with no reference beside it, a submission in a
	# 0700 folder: the probe reads nothing at all.)
	mkdir -m 700 "$tmp/closedsub"
	cp "$tmp/prog" "$tmp/closedsub/prog"
	WG_NO_NAMESPACES=1 "$tmp/grade" --json "$tmp/r3.json" "$tmp/closed" "$tmp/closedsub/prog" \
		> /dev/null 2>&1
	python3 - "$tmp/r3.json" "$tmp/closed" <<'P' || bad "grade's account takes a 0700 suite as readable"
import json, sys
leaks = json.load(open(sys.argv[1]))["sandbox"]["leaks"]
assert not any("not checked" in w or sys.argv[2] in w for w in leaks), leaks
P
fi
# A public suite: nothing to warn about.
WG_NO_NAMESPACES=1 "$grade" "$tmp/public" "$tmp/prog" > /dev/null 2> "$tmp/err2"
grep -q 'warning' "$tmp/err2" && bad "warnings for a suite with no hidden case: $(cat "$tmp/err2")"

# Without namespaces or a cgroup to count them, a program still cannot
# fork (the default process limit of 1 is an rlimit).
mkdir -p "$tmp/forks"
echo '{"name": "f", "cases": [{"name": "a", "category": "x", "points": 1}]}' > "$tmp/forks/suite.json"
echo 'cpu 2 10' > "$tmp/forks/a.in"
echo 'cannot fork' > "$tmp/forks/a.out"
WG_NO_NAMESPACES=1 "$grade" "$tmp/forks" "$tmp/prog" > "$tmp/f.out" 2>&1 ||
	{ bad "a program forked under the default process limit"; cat "$tmp/f.out"; }
WG_NO_NAMESPACES=1 WG_NO_CGROUP=1 "$grade" --json "$tmp/f.json" "$tmp/forks" "$tmp/prog" \
	> "$tmp/f.out" 2>&1 ||
	{ bad "without a cgroup, a program forked under the default process limit"; cat "$tmp/f.out"; }
python3 - "$tmp/f.json" <<'P' || fail=1
import json, sys
sb = json.load(open(sys.argv[1]))["sandbox"]
assert sb["cgroup"] is None and sb["children_cpu"] is False, sb
assert any("WG_NO_CGROUP" in m for m in sb["missing"]), sb["missing"]
P
# A suite that lets programs fork, where their CPU cannot be counted: said.
sed 's/"name": "f",/"name": "f", "limits": {"processes": 4},/' "$tmp/forks/suite.json" > "$tmp/s.json"
mv "$tmp/s.json" "$tmp/forks/suite.json"
echo 'done' > "$tmp/forks/a.out"
WG_NO_CGROUP=1 "$grade" "$tmp/forks" "$tmp/prog" > /dev/null 2> "$tmp/err3"
grep -q "children's CPU time does not count" "$tmp/err3" ||
	bad "no warning that children's CPU is not counted: $(cat "$tmp/err3")"

exit $fail
