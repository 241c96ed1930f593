#!/bin/sh
# The make gpu-bench pipeline end to end, with stand-in programs (shell
# scripts) in place of devquery and coalescing: good rows pass and print the
# table; the modulo bug fails; a crash, a signal, a hang past GPU_TIMEOUT and
# empty output each fail with their own line; no GPU skips (run.sh 77, make
# 0) unless REQUIRE_GPU=1 (99). Reports land in $B/gpu-bench every time;
# plot.svg whenever rows were judged, and never a stale one.
. "$(dirname "$0")/lib.sh"
cd "$WG_ROOT" || exit 1
# A private build tree: these runs must not overwrite a real run's reports.
B=$tmp/b
D=$WG_ROOT/gpu-bench/testdata

stand_in() {  # NAME BODY: a bounded shell script
	printf '#!/bin/sh\n%s\n' "$2" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
stand_in devquery "cat '$D/honest/h100-sxm.device.json'"
stand_in nogpu 'echo "devquery: no usable GPU: cudaErrorNoDevice (no CUDA-capable device is detected)" >&2
[ "${REQUIRE_GPU:-}" = 1 ] && exit 99
exit 77'
stand_in good "cat '$D/honest/h100-sxm.rows.jsonl'"
stand_in modulo "cat '$D/broken/modulo-bug.rows.jsonl'"
stand_in crash "head -n 2 '$D/honest/h100-sxm.rows.jsonl'
echo 'CUDA error coalescing.cu:161: cudaMalloc(&d_out, bytes): out of memory' >&2
exit 1"
stand_in segv "head -n 3 '$D/honest/h100-sxm.rows.jsonl'; kill -SEGV \$\$"
stand_in hang "head -n 1 '$D/honest/h100-sxm.rows.jsonl'; exec sleep 20"
stand_in silent "exit 0"

# run WANT_RC PATTERN COALESCING_STAND_IN [DEVQUERY_STAND_IN [ENV...]]
run() {
	want=$1 pat=$2 prog=$3 dq=${4:-devquery}
	shift 3
	[ $# -gt 0 ] && shift
	env B="$B" COALESCING_BIN="$tmp/$prog" DEVQUERY_BIN="$tmp/$dq" \
		GPU_TIMEOUT=1 "$@" sh gpu-bench/run.sh >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -ne "$want" ] || ! grep -q -- "$pat" "$tmp/out"; then
		bad "$prog/$dq -> exit $rc (want $want), output:"
		sed 's/^/    /' "$tmp/out" | tail -n 15
		echo "    (want a line matching: $pat)"
	fi
	for f in report.json junit.xml; do
		[ -s "$B/gpu-bench/$f" ] || { bad "$prog: no $f"; }
	done
}

run 0 '^gpu-bench: PASS' good
grep -q '^stride 32 .* well below .* PASS$' "$tmp/out" || { bad "no table"; }
grep -q '"status": "pass"' "$B/gpu-bench/report.json" || { bad "pass report"; }
grep -q 'data-status="pass"' "$B/gpu-bench/plot.svg" || { bad "no plot.svg for a pass"; }
run 1 'FAIL line 5: stride 16: rise' modulo
grep -q 'data-row="stride 16"[^>]*data-in-band="0"' "$B/gpu-bench/plot.svg" ||
	{ bad "plot.svg of the modulo bug"; }
grep -q "^gpu-bench: plot: $B/gpu-bench/plot.svg" "$tmp/out" || { bad "plot not announced"; }
run 1 '^gpu-bench: FAIL: coalescing exited with status 1' crash
grep -q 'CUDA error coalescing.cu:161' "$tmp/out" || { bad "crash stderr not shown"; }
grep -q '"status": "fail"' "$B/gpu-bench/report.json" || { bad "crash report"; }
[ -e "$B/gpu-bench/plot.svg" ] && { bad "a stale plot.svg after a crash"; }
run 1 'killed by signal 11' segv
run 1 'ran past GPU_TIMEOUT=1s and was killed' hang
run 2 'empty: the program printed no rows' silent
run 77 '^gpu-bench: SKIP (exit 77): devquery: no usable GPU: cudaErrorNoDevice' good nogpu
grep -q '<skipped' "$B/gpu-bench/junit.xml" || { bad "skip junit"; }
run 99 'REQUIRE_GPU=1' good nogpu REQUIRE_GPU=1

# Through make: a skip is success unless REQUIRE_GPU=1; a failure fails.
mk() {
	dq=$1 prog=$2
	shift 2
	make --no-print-directory -s B="$B" DEVQUERY_BIN="$tmp/$dq" \
		COALESCING_BIN="$tmp/$prog" GPU_TIMEOUT=1 "$@" gpu-bench \
		>"$tmp/out" 2>&1
}
mk nogpu good; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 1 ] ||
	{ bad "make gpu-bench skip -> $rc:"; cat "$tmp/out"; }
mk nogpu good REQUIRE_GPU=1 && { bad "make REQUIRE_GPU=1 passed"; }
mk devquery good || { bad "make gpu-bench good:"; cat "$tmp/out"; }
mk devquery modulo && { bad "make gpu-bench modulo passed"; }

# No nvcc and no stand-ins: a skip that names the missing compiler.
env B="$B" NVCC=/nonexistent/nvcc sh gpu-bench/run.sh >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 77 ] && grep -q "no CUDA compiler: '/nonexistent/nvcc' not found" "$tmp/out" ||
	{ bad "no nvcc -> $rc:"; cat "$tmp/out"; }

# --source: a student's variant is built with nvcc (when there is one) and
# run; here, with no GPU, the real binary's CUDA error is reported as a
# crash, which also proves the variant, not the cached course binary, ran.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if command -v "$NVCC" >/dev/null 2>&1 && ! nvidia-smi -L >/dev/null 2>&1; then
	sed 's/int main(int argc, char\*\* argv) {/&\n    std::fprintf(stderr, "student variant\\n");/' \
		gpu-bench/coalescing.cu >"$tmp/variant.cu"
	env B="$B" NVCC="$NVCC" DEVQUERY_BIN="$tmp/devquery" GPU_TIMEOUT=30 \
		sh gpu-bench/run.sh --source "$tmp/variant.cu" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && grep -q 'student variant' "$tmp/out" &&
		grep -q 'CUDA error' "$tmp/out" ||
		{ bad "--source variant -> $rc:"; cat "$tmp/out"; }
fi
exit $fail
