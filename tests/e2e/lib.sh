# tests/e2e/lib.sh: what every end-to-end script shares. Sourced first,
# right after the script's comment and `set -u`:
#
#	. "$(dirname "$0")/lib.sh"
#
# The script then runs the same from tests/run-e2e.sh (which sets WG_ROOT
# and WG_BUILD) and by hand (`sh tests/e2e/test_x.sh` in the checkout).
# What it sets:
#   WG_ROOT    the checkout, absolute (from the script's own path when unset)
#   WG_BUILD   the build tree, absolute (a relative one is WG_ROOT's;
#              default build); both exported
#   grade, ref the built grade and reference ($WG_BUILD/bin/...)
#   tmp        a fresh folder (mode 0700), removed at exit with everything
#              e2e_at_exit added
#   fail       0; bad MSG prints "FAIL: MSG" and sets it to 1
# and the helpers below: e2e_skip, e2e_need, e2e_uid_base, e2e_at_exit,
# e2e_json, e2e_peak_rss, e2e_peak_flat. A script ends with `exit $fail`.

case "${WG_ROOT:-}" in
/*) ;;
'') WG_ROOT=$(cd "$(dirname "$0")/../.." && pwd) ;;
*) WG_ROOT=$(cd "$WG_ROOT" && pwd) ;;
esac
case "${WG_BUILD:-build}" in
/*) ;;
*) WG_BUILD=$WG_ROOT/${WG_BUILD:-build} ;;
esac
export WG_ROOT WG_BUILD
grade=$WG_BUILD/bin/grade
ref=$WG_BUILD/bin/reference

fail=0
bad() { echo "FAIL: $*"; fail=1; }

# e2e_skip REASON: the script is skipped (exit 77); the reason is the last
# line, which run-e2e.sh prints.
e2e_skip() { echo "$*"; exit 77; }

# e2e_need CMD...: skipped unless every command exists.
e2e_need() {
	for e2e_c in "$@"; do
		command -v "$e2e_c" >/dev/null 2>&1 || e2e_skip "$e2e_c not installed"
	done
}

# e2e_uid_base K: the slot uids of the script's grades. WG_UID_BASE when
# set (a developer's or CI's range, clear of another grader's), else a
# range of this process's own, 200000 + pid * 8 + K; exported.
e2e_uid_base() {
	WG_UID_BASE=${WG_UID_BASE:-$((200000 + ($$ % 100000) * 8 + ${1:-0}))}
	export WG_UID_BASE
}

# e2e_at_exit 'COMMAND': run at exit (before $tmp goes), in order added.
e2e_at_exit_cmds=
e2e_at_exit() { e2e_at_exit_cmds="$e2e_at_exit_cmds
$1"; }
e2e_exit() {
	eval "$e2e_at_exit_cmds"
	rm -rf "$tmp"
}

# e2e_json FILE EXPR: prints EXPR (Python, over `r`, the JSON of FILE),
# e.g. e2e_json "$tmp/r.json" 'r["score"]'; a string as it is, anything
# else as JSON. Exit status 1 when the file or the expression fails.
e2e_json() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
v = eval(sys.argv[2], {"r": r})
print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}

# e2e_peak_rss STATUS CMD...: runs CMD (output discarded) and prints its
# peak RSS in KiB (/usr/bin/time, else getrusage of the children), or
# minus its exit status when that is not STATUS.
e2e_peak_rss() {
	e2e_want=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$tmp/.rss" "$@" > /dev/null 2>&1
		e2e_rc=$?
		[ $e2e_rc -eq "$e2e_want" ] && tail -n 1 "$tmp/.rss" || echo "-$e2e_rc"
		return
	fi
	python3 -c '
import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == int(sys.argv[1]) else -rc)
' "$e2e_want" "$@"
}

# e2e_peak_flat WHAT SMALL LARGE KIB: SMALL and LARGE are e2e_peak_rss's
# figures at a small and a large size; bad unless both ran and LARGE is
# less than KIB above SMALL (not compared, and said, under a sanitizer:
# its shadow memory grows with what is allocated).
e2e_peak_flat() {
	echo "peak RSS of $1: $2 KiB small, $3 KiB large"
	if [ "$2" -le 0 ] || [ "$3" -le 0 ]; then
		bad "$1: a run failed (exit ${2#-} / ${3#-})"
	elif grep -q __asan_init "$grade" 2>/dev/null; then
		echo "a sanitizer build: the peak is not compared"
	elif [ $(($3 - $2)) -ge "$4" ]; then
		bad "$1: the peak grew by $((($3 - $2) / 1024)) MB from small to large"
	fi
}

tmp=$(mktemp -d) || exit 1
trap e2e_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
