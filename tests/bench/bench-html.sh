#!/bin/sh
# bench-html: the size of a class's report.html and its load/render time in
# headless Chromium. Makes a class of N students (the samples of
# submissions/ copied round-robin into N folders, compile-error and
# infinite-loop left out unless WITH_SLOW=1, so the batch takes minutes, not
# hours), grades it with grade --batch SUITE -j JOBS, then times
# chromium --dump-dom (load, parse, script, layout of the DOM) and
# --screenshot (the same plus painting) ROUNDS times each.
#   sh tests/bench/bench-html.sh BUILD [N=150] [SUITE=hidden-tests] [JOBS=2] [ROUNDS=3]
# Prints figures only; asserts nothing. Everything goes in a temporary
# folder that is removed at the end.
set -u
build=${1:-build}
n=${2:-150}
suite=${3:-hidden-tests}
jobs=${4:-2}
rounds=${5:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
grade=$build/bin/grade
[ -x "$grade" ] || { echo "bench-html: no $grade (make first)"; exit 2; }
command -v chromium >/dev/null 2>&1 || { echo "bench-html: chromium not installed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
chmod 755 "$tmp"

samples=
for d in "$root"/submissions/*/; do
	name=$(basename "$d")
	case "$name" in
	compile-error|infinite-loop) [ -n "${WITH_SLOW:-}" ] || continue ;;
	esac
	samples="$samples $name"
done
set -- $samples
ns=$#
i=0
while [ $i -lt "$n" ]; do
	k=$((i % ns + 1))
	eval "s=\${$k}"
	mkdir -p "$tmp/class/student-$(printf %03d $i)"
	cp "$root/submissions/$s/"*.c "$tmp/class/student-$(printf %03d $i)/"
	i=$((i + 1))
done
echo "bench-html: $n students (from:$samples), suite $suite, -j $jobs"
t0=$(date +%s.%N)
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out" -j "$jobs" --quiet > /dev/null 2>&1
rc=$?
t1=$(date +%s.%N)
[ -s "$tmp/out/report.html" ] || { echo "bench-html: no report.html (batch exit $rc)"; exit 1; }
printf 'batch: %s s (exit %d)\n' "$(calc "$t1 - $t0")" $rc
size=$(wc -c < "$tmp/out/report.html")
gz=$(gzip -c "$tmp/out/report.html" | wc -c)
data=$(sed -n 's/.*<pre id="wg-data" hidden>\(.*\)<\/pre>.*/\1/p' "$tmp/out/report.html" | wc -c)
printf 'report.html: %d bytes (%s MiB; %s MiB gzipped), %d students, %d bytes of drill-down data\n' \
	"$size" "$(calc "$size / 1048576")" "$(calc "$gz / 1048576")" \
	"$(grep -c '<tbody class="student"' "$tmp/out/report.html")" "$data"

mkdir -p "$tmp/home"
browse() {
	HOME=$tmp/home TMPDIR=$tmp XDG_CONFIG_HOME=$tmp/home XDG_CACHE_HOME=$tmp/home \
	timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --user-data-dir="$tmp/profile" "$@" 2>/dev/null
}
# A blank page first: the browser's own start-up, to subtract.
echo '<!DOCTYPE html><title>blank</title>' > "$tmp/blank.html"
timeit() {
	what=$1; shift
	r=0
	while [ $r -lt "$rounds" ]; do
		a=$(date +%s.%N)
		browse "$@" > "$tmp/dom" || echo "bench-html: chromium failed ($what)"
		b=$(date +%s.%N)
		printf '%s: %s s\n' "$what" "$(calc "$b - $a")"
		r=$((r + 1))
	done
}
timeit "dump-dom, blank page" --dump-dom "file://$tmp/blank.html"
timeit "dump-dom, report.html" --dump-dom "file://$tmp/out/report.html"
grep -q 'data-js="ready"' "$tmp/dom" || echo "bench-html: the page's script did not run"
timeit "screenshot 1280x4000, report.html" --screenshot="$tmp/shot.png" \
	--window-size=1280,4000 "file://$tmp/out/report.html"
rm -f "$tmp/shot.png"
