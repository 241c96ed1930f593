#!/bin/sh
# gpu-bench/run.sh: build coalescing.cu, run it on this machine's GPU under
# a timeout and judge its rows with gpu-check. `make gpu-bench` runs this.
#
# Usage: sh gpu-bench/run.sh [--source FILE]
#   --source FILE   build and run FILE, a student's variant of coalescing.cu
#                   (the same as COALESCING=FILE)
# Environment (make gpu-bench passes its variables of the same names):
#   B               build directory (build)
#   NVCC            the CUDA compiler (/usr/local/cuda/bin/nvcc)
#   COALESCING      the source to build (gpu-bench/coalescing.cu)
#   COALESCING_BIN  run this program instead of building one (a stand-in)
#   DEVQUERY_BIN    likewise for devquery
#   GPU_TIMEOUT     seconds coalescing may run before it is killed (120)
#   GPU_BOUNDS      the bounds file (gpu-bench/bounds.json)
#   REQUIRE_GPU=1   no usable GPU is a failure (exit 99), not a skip
#   MAKE            the make to build with (make)
# Writes $B/gpu-bench/: device.json, rows.jsonl, coalescing.stderr,
# table.txt, report.json and junit.xml (the last two in every outcome), and
# plot.svg whenever gpu-check judged rows (pass or fail).
#
# Exit status: 0 every check passed; 1 a check failed, or coalescing did not
# build, crashed, or ran past GPU_TIMEOUT; 2 its output could not be judged
# (malformed or empty) or the harness itself failed; 77 no usable GPU here
# (no nvcc, no driver, no device: the automake skip code); 99 that same case
# under REQUIRE_GPU=1.

B=${B:-build}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
COALESCING=${COALESCING:-gpu-bench/coalescing.cu}
GPU_TIMEOUT=${GPU_TIMEOUT:-120}
GPU_BOUNDS=${GPU_BOUNDS:-gpu-bench/bounds.json}
MAKE=${MAKE:-make}
export REQUIRE_GPU

while [ $# -gt 0 ]; do
	case $1 in
	--source)
		[ $# -ge 2 ] || { echo "run.sh: '--source' needs a file" >&2; exit 2; }
		COALESCING=$2
		shift 2 ;;
	*)
		echo "usage: sh gpu-bench/run.sh [--source FILE]" >&2
		exit 2 ;;
	esac
done

OUT=$B/gpu-bench
mkdir -p "$OUT" || exit 2
rm -f "$OUT/device.json" "$OUT/rows.jsonl" "$OUT/coalescing.stderr" \
	"$OUT/devquery.stderr" "$OUT/table.txt" "$OUT/report.json" \
	"$OUT/junit.xml" "$OUT/plot.svg"

# One line of text as a JSON string body; the text is ours or a program's
# stderr, so quotes, backslashes and control characters are all possible.
json_text() {
	printf '%s' "$1" | tr -d '\000-\010\013\014\016-\037' |
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e "s/$(printf '\t')/\\\\t/g" |
		awk '{ if (NR > 1) printf "%s", "\\n"; printf "%s", $0 }'
}

xml_text() {
	printf '%s' "$1" | tr -d '\000-\010\013\014\016-\037' |
		sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' \
			-e 's/"/\&quot;/g' |
		awk '{ if (NR > 1) printf "%s", "&#10;"; printf "%s", $0 }'
}

# report STATUS REASON [DETAIL]: the reports for a run gpu-check never saw.
# STATUS is skipped, fail or error; DETAIL is a program's stderr tail.
report() {
	printf '{"status": "%s", "reason": "%s", "detail": "%s"}\n' "$1" \
		"$(json_text "$2")" "$(json_text "${3:-}")" >"$OUT/report.json"
	case $1 in
	skipped) inner="<skipped message=\"$(xml_text "$2")\"/>"
		counts='failures="0" errors="0" skipped="1"' ;;
	fail) inner="<failure message=\"$(xml_text "$2")\">$(xml_text "${3:-}")</failure>"
		counts='failures="1" errors="0" skipped="0"' ;;
	*) inner="<error message=\"$(xml_text "$2")\">$(xml_text "${3:-}")</error>"
		counts='failures="0" errors="1" skipped="0"' ;;
	esac
	cat >"$OUT/junit.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="gpu-bench" tests="1" $counts>
  <testcase classname="gpu-bench" name="run">
    $inner
  </testcase>
</testsuite>
EOF
}

# No usable GPU: one clear line; a skip, or a failure when one is required.
skip() {
	if [ "${REQUIRE_GPU:-}" = 1 ]; then
		echo "gpu-bench: FAIL: REQUIRE_GPU=1 but $1"
		report error "REQUIRE_GPU=1 but $1"
		exit 99
	fi
	echo "gpu-bench: SKIP (exit 77): $1"
	report skipped "$1"
	exit 77
}

fail() {
	echo "gpu-bench: FAIL: $2"
	[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/    /'
	report "$1" "$2" "${3:-}"
	exit "$4"
}

mk() {
	"$MAKE" --no-print-directory -s B="$B" NVCC="$NVCC" \
		COALESCING="$COALESCING" "$@"
}

# 1. Build what was not handed in as a stand-in.
mk "$B/bin/gpu-check" || fail error "cannot build gpu-check" "" 2
GPU_CHECK=$B/bin/gpu-check
need=
[ -n "${DEVQUERY_BIN:-}" ] || { need="$need $B/bin/devquery"; DEVQUERY_BIN=$B/bin/devquery; }
[ -n "${COALESCING_BIN:-}" ] || { need="$need $B/bin/coalescing"; COALESCING_BIN=$B/bin/coalescing; }
if [ -n "$need" ]; then
	command -v "$NVCC" >/dev/null 2>&1 ||
		skip "no CUDA compiler: '$NVCC' not found (set NVCC=)"
	[ -r "$COALESCING" ] || fail error "cannot read '$COALESCING'" "" 2
	log=$(mk $need 2>&1) ||
		fail fail "nvcc could not build$need" "$(printf '%s\n' "$log" | tail -n 20)" 1
fi

# 2. Which GPU is this? devquery exits 77 (or 99) when there is none.
timeout -k 5 60 "$DEVQUERY_BIN" >"$OUT/device.json" 2>"$OUT/devquery.stderr"
rc=$?
why=$(tail -n 1 "$OUT/devquery.stderr")
case $rc in
0) ;;
77) skip "${why:-devquery found no usable GPU}" ;;
99) why="REQUIRE_GPU=1 but no usable GPU: ${why:-devquery exit 99}"
   echo "gpu-bench: FAIL: $why"; report error "$why"; exit 99 ;;
*) fail error "devquery failed (exit $rc)" "$(tail -n 20 "$OUT/devquery.stderr")" 2 ;;
esac
echo "gpu-bench: device: $(cat "$OUT/device.json")"

# 3. The measurement, bounded: a hung kernel must not hang CI.
timeout -k 5 "$GPU_TIMEOUT" "$COALESCING_BIN" --json >"$OUT/rows.jsonl" \
	2>"$OUT/coalescing.stderr"
rc=$?
tail=$(tail -n 20 "$OUT/coalescing.stderr")
case $rc in
0) ;;
124|137) fail fail "coalescing ran past GPU_TIMEOUT=${GPU_TIMEOUT}s and was killed" "$tail" 1 ;;
*) if [ $rc -gt 128 ]; then
	fail fail "coalescing was killed by signal $((rc - 128))" "$tail" 1
   fi
   fail fail "coalescing exited with status $rc" "$tail" 1 ;;
esac

# 4. Judge. gpu-check writes report.json, junit.xml and plot.svg itself.
"$GPU_CHECK" --bounds "$GPU_BOUNDS" --device "$OUT/device.json" \
	--json "$OUT/report.json" --junit "$OUT/junit.xml" \
	--svg "$OUT/plot.svg" "$OUT/rows.jsonl" >"$OUT/table.txt"
rc=$?
cat "$OUT/table.txt"
case $rc in
0) echo "gpu-bench: PASS: every row within bounds (reports in $OUT)" ;;
1) echo "gpu-bench: FAIL: some rows out of bounds (reports in $OUT)" ;;
*) echo "gpu-bench: FAIL: coalescing's output could not be judged (reports in $OUT)" ;;
esac
[ -s "$OUT/plot.svg" ] && echo "gpu-bench: plot: $OUT/plot.svg"
exit $rc
