#!/bin/sh
# nvcc builds devquery and coalescing.cu (the fat binary, sm_75..sm_90 plus
# PTX, through the real make rules; cached in the build tree), and devquery
# on a machine with no GPU exits 77 with its one-line reason (99 under
# REQUIRE_GPU=1). Skips when nvcc is not installed.
. "$(dirname "$0")/lib.sh"
cd "$WG_ROOT" || exit 1
B=$WG_BUILD
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
	echo "nvcc not found at '$NVCC': CUDA builds not tested"
	exit 77
fi
out=$(make --no-print-directory -s B="$B" NVCC="$NVCC" gpu-build 2>&1) || {
	printf '%s\n' "$out"; echo "make gpu-build failed"; exit 1; }
for p in devquery coalescing; do
	[ -x "$B/bin/$p" ] || { echo "$B/bin/$p was not built"; exit 1; }
done
# The fat binary carries SASS for every listed architecture unless a GPU
# here made it -arch=native.
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
	obj=$(dirname "$NVCC")/cuobjdump
	if [ -x "$obj" ]; then
		list=$("$obj" --list-elf "$B/bin/coalescing" 2>&1)
		for sm in 75 80 86 89 90; do
			printf '%s\n' "$list" | grep -q "sm_$sm" ||
				{ echo "no sm_$sm code in coalescing:"; printf '%s\n' "$list"; exit 1; }
		done
		"$obj" --list-ptx "$B/bin/coalescing" 2>&1 | grep -q 'sm_90' ||
			{ echo "no compute_90 PTX in coalescing"; exit 1; }
	fi
fi

timeout 60 "$B/bin/devquery" >"$tmp/out" 2>"$tmp/err"
rc=$?
if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
	# A GPU here: devquery must describe it.
	[ $rc -eq 0 ] || { cat "$tmp/err"; echo "devquery exit $rc with a GPU"; exit 1; }
	grep -q '"peak_gbps"' "$tmp/out" || { cat "$tmp/out"; exit 1; }
	echo "devquery: $(cat "$tmp/out")"
	exit 0
fi
[ $rc -eq 77 ] || { cat "$tmp/err"; echo "devquery exit $rc, want 77 (no GPU here)"; exit 1; }
[ ! -s "$tmp/out" ] || { echo "devquery printed to stdout with no GPU"; exit 1; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; echo "want one line on stderr"; exit 1; }
grep -q '^devquery: no usable GPU: ' "$tmp/err" || { cat "$tmp/err"; exit 1; }
REQUIRE_GPU=1 timeout 60 "$B/bin/devquery" >/dev/null 2>&1
rc=$?
[ $rc -eq 99 ] || { echo "REQUIRE_GPU=1: devquery exit $rc, want 99"; exit 1; }
echo "built; devquery skips: $(cat "$tmp/err")"
