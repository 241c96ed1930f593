#!/bin/sh
# gpu-check on every recorded run in gpu-bench/testdata/: honest runs exit 0;
# each broken run exits 1 naming its row, check and bound; malformed input
# (a CUDA error line, a truncated row, nothing at all) exits 2 with
# file:line; usage and bounds errors exit 2. Reports are written and valid.
. "$(dirname "$0")/lib.sh"
cd "$WG_ROOT" || exit 1
GC=$WG_BUILD/bin/gpu-check
[ -x "$GC" ] || { echo "$GC not built"; exit 1; }
D=gpu-bench/testdata
H100=$D/honest/h100-sxm.device.json

# expect WANT_RC PATTERN ARGS...: runs gpu-check, checks status and stderr.
expect() {
	want=$1 pat=$2
	shift 2
	"$GC" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne "$want" ] || ! grep -q -- "$pat" "$tmp/err"; then
		bad "gpu-check $* -> exit $rc (want $want), stderr:"
		sed 's/^/    /' "$tmp/err"
		echo "    (want a line matching: $pat)"
	fi
}

for dev in "$D"/honest/*.device.json; do
	g=$(basename "$dev" .device.json)
	"$GC" --bounds gpu-bench/bounds.json --device "$dev" \
		"$D/honest/$g.rows.jsonl" >"$tmp/out" 2>"$tmp/err" ||
		{ bad "honest $g:"; cat "$tmp/err"; }
	grep -q ' 0 failed$' "$tmp/out" || { bad "honest $g table"; }
done

B="--bounds gpu-bench/bounds.json --device $H100"
# shellcheck disable=SC2086
{
expect 1 'line 5: stride 16: rise: 826.110, bound <= 601.493 (1.50 x stride 8)' $B $D/broken/modulo-bug.rows.jsonl
expect 1 'line 6: stride 32: rise: .*x stride 16' $B $D/broken/modulo-bug.rows.jsonl
expect 1 'line 4: stride 8: bytes: 268435456, bound = 536870912' $B $D/broken/wrong-bytes.rows.jsonl
expect 1 'FAIL stride 4: present: missing, bound exactly once' $B $D/broken/missing-row.rows.jsonl
expect 1 'line 2: stride 2: present: 2 rows, bound exactly once' $B $D/broken/duplicate-row.rows.jsonl
expect 1 'line 3: stride 4: gbps=bytes/ms: 1254.240, bound = 783.900' $B $D/broken/gbps-mismatch.rows.jsonl
expect 1 'line 1: stride 1: peak: .*bound <= 3352.320 (1.00 x peak)' $B $D/broken/above-peak.rows.jsonl
expect 1 'line 2: stride 2: vs stride 1: .*(1.05 x stride 1)' $B $D/broken/strided-faster.rows.jsonl
expect 1 'line 7: chunked 32: below stride 1' $B $D/broken/chunked-faster.rows.jsonl
expect 1 'line 2: stride 2: sector: 2924.548, bound <= 2411.995 (0.80 x stride 1: 1.60 x 1/2 sectors)' $B $D/broken/stride2-near-stride1.rows.jsonl
expect 1 'line 2: stride 2: sector peak: 2924.548, bound <= 1676.160 (1/2 x 1.00 x peak)' $B $D/broken/stride2-near-stride1.rows.jsonl
expect 2 'truncated.rows.jsonl:5: column 37: .*truncated row' $B $D/broken/truncated.rows.jsonl
expect 2 'cuda-error.rows.jsonl:1: a CUDA error in place of a JSON row' $B $D/broken/cuda-error.rows.jsonl
expect 2 'empty.rows.jsonl: empty' $B $D/broken/empty.rows.jsonl
expect 2 'usage: gpu-check' --bounds gpu-bench/bounds.json $D/honest/t4.rows.jsonl
expect 2 "unknown option '--bogus'" $B --bogus $D/honest/t4.rows.jsonl
expect 2 "cannot open 'nope.jsonl'" $B nope.jsonl
}
# Malformed bounds and device files: 2, with file:line:column.
printf '{\n  "bytes": 1,\n  "rows": [\n' >"$tmp/b.json"
expect 2 "$tmp/b.json:4:" --bounds "$tmp/b.json" --device "$H100" $D/honest/h100-sxm.rows.jsonl
printf '{"name": "X"}\n' >"$tmp/d.json"
expect 2 "$tmp/d.json: not a device description" --bounds gpu-bench/bounds.json --device "$tmp/d.json" $D/honest/h100-sxm.rows.jsonl
# A device file with only name, cc and peak_gbps is enough.
printf '{"name": "Tesla T4", "cc": "7.5", "peak_gbps": 320.064}\n' >"$tmp/min.json"
"$GC" --bounds gpu-bench/bounds.json --device "$tmp/min.json" - \
	<$D/honest/t4.rows.jsonl >"$tmp/out" 2>&1 ||
	{ bad "minimal device file / stdin rows"; cat "$tmp/out"; }

# Reports: written for a failing run and for malformed input.
"$GC" $B --json "$tmp/r.json" --junit "$tmp/j.xml" \
	$D/broken/modulo-bug.rows.jsonl >/dev/null 2>&1
grep -q '"status": "fail"' "$tmp/r.json" || { bad "report status"; }
grep -q 'failures="3"' "$tmp/j.xml" || { bad "junit failures"; cat "$tmp/j.xml"; }
"$GC" $B --json "$tmp/r2.json" --junit "$tmp/j2.xml" \
	$D/broken/cuda-error.rows.jsonl >/dev/null 2>&1
grep -q '"status": "error"' "$tmp/r2.json" || { bad "error report"; }
grep -q '<error message=' "$tmp/j2.xml" || { bad "error junit"; }
if command -v jq >/dev/null 2>&1; then
	jq -e . "$tmp/r.json" "$tmp/r2.json" >/dev/null || { bad "report JSON invalid"; }
fi
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$tmp/j.xml" "$tmp/j2.xml" || { bad "junit invalid"; }
fi
exit $fail
