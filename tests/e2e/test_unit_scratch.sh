#!/bin/sh
# The unit tests' files stay in the runner's run folder (tests/unit/check_main.c,
# issue 21 item 5): no test names a path in a shared temporary folder
# (tests/unit/lint-scratch.sh refuses one, and passes the tree's tests), and a
# run whose tests fail or are killed at their timeout (CK_TIMEOUT_MULTIPLIER
# cuts the build suite's 60 s to 60 ms, in the middle of compiles)
# leaves nothing: in its TMPDIR, and, as root, in a private empty /tmp
# (unshare -m) where TMPDIR is not set at all.
set -u
. "$(dirname "$0")/lib.sh"
runner=$WG_BUILD/tests/check_warpgrade
[ -x "$runner" ] || e2e_skip "no unit-test runner"
chmod 0711 "$tmp"
cd "$WG_ROOT" || exit 1

# The lint: the tree passes, a literal scratch path in /tmp does not.
sh tests/unit/lint-scratch.sh tests/unit/*.c >"$tmp/lint" 2>&1 ||
	bad "the lint refuses the tree: $(cat "$tmp/lint")"
printf 'static char p[] = "/tmp/wg-x-XXXXXX";\n' > "$tmp/check_bad.c"
sh tests/unit/lint-scratch.sh "$tmp/check_bad.c" >/dev/null 2>&1 &&
	bad "the lint passed a test naming /tmp/wg-x-XXXXXX"
rm -f "$tmp/lint" "$tmp/check_bad.c"

# killed_run: the build suite with its tests killed early; fails, as it must.
killed_run() {
	CK_RUN_SUITE=build CK_TIMEOUT_MULTIPLIER=0.001 WG_BUILD="$WG_BUILD" \
		WG_CHECK_LOG=/dev/null "$runner" >/dev/null 2>&1 &&
		echo "the build suite passed with 60 ms timeouts"
	return 0
}

mkdir "$tmp/t" && chmod 0711 "$tmp/t"
out=$(TMPDIR=$tmp/t killed_run)
[ -n "$out" ] && echo "note: $out"
left=$(ls -A "$tmp/t")
[ -z "$left" ] || bad "killed tests left in TMPDIR: $left"

if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -m true 2>/dev/null; then
	left=$(env -u TMPDIR runner="$runner" WG_BUILD="$WG_BUILD" unshare -m sh -c '
		mount --make-rprivate / && mount -t tmpfs -o mode=1777 none /tmp || exit 3
		CK_RUN_SUITE=build CK_TIMEOUT_MULTIPLIER=0.001 WG_CHECK_LOG=/dev/null \
			"$runner" >/dev/null 2>&1
		ls -A /tmp')
	rc=$?
	[ $rc -eq 0 ] || bad "no private /tmp (exit $rc)"
	[ -z "$left" ] || bad "killed tests left in a private /tmp: $left"
else
	echo "not root or no unshare: the private /tmp is not checked"
fi
exit $fail
