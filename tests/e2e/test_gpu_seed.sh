#!/bin/sh
# gpu-bench/coalescing.cu is the course's file, unchanged: its sha256 must be
# the recorded one (and, where the course's seed folder is at hand, the file
# must be byte-identical to it).
. "$(dirname "$0")/lib.sh"
cd "$WG_ROOT" || exit 1
command -v sha256sum >/dev/null 2>&1 || e2e_skip "sha256sum not installed"
want=$(cut -d' ' -f1 gpu-bench/coalescing.cu.sha256)
got=$(sha256sum gpu-bench/coalescing.cu | cut -d' ' -f1)
if [ "$want" != "$got" ]; then
	echo "gpu-bench/coalescing.cu changed: sha256 $got, recorded $want"
	exit 1
fi
seed=$WG_ROOT/../shared/seeds/coalescing.cu
if [ -r "$seed" ] && ! cmp -s "$seed" gpu-bench/coalescing.cu; then
	echo "gpu-bench/coalescing.cu differs from the course's $seed"
	exit 1
fi
echo "coalescing.cu sha256 $got as recorded"
