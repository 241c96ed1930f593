#!/bin/sh
# bench-html-large: report.html for a class of N (1,000) students, made in
# seconds by tests/bench/html-class.sh (the samples graded once, then
# copied), and its figures: bytes, gzipped bytes, and ROUNDS loads in
# headless Chromium, each as the page's own data-ready-ms (navigation
# start to the end of its script: parsing and the table's set-up) and as
# the wall time of chromium --dump-dom less a blank page's; then the same
# with a sort and a drill-down opened through the URL (#sort=-score&open=).
#   sh tests/bench/bench-html-large.sh BUILD [N=1000] [SUITE=hidden-tests] [ROUNDS=3]
# Prints figures only; asserts nothing (tests/e2e/test_html_scale.sh
# checks the page at this size). The load average is printed too: on a
# busy machine every figure grows with it.
set -u
build=${1:-build}
n=${2:-1000}
suite=${3:-hidden-tests}
rounds=${4:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
grade=$build/bin/grade
[ -x "$grade" ] || { echo "bench-html-large: no $grade (make first)"; exit 2; }
command -v chromium >/dev/null 2>&1 || { echo "bench-html-large: chromium not installed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
t0=$(date +%s.%N)
sh "$root/tests/bench/html-class.sh" "$grade" "$suite" "$n" "$tmp/class" "$tmp/out"
rc=$?
t1=$(date +%s.%N)
page=$tmp/out/report.html
[ -s "$page" ] || { echo "bench-html-large: no report.html (exit $rc)"; exit 1; }
size=$(wc -c < "$page")
gz=$(gzip -c "$page" | wc -c)
printf 'bench-html-large: %d students, suite %s, made in %s s\n' "$n" "$suite" "$(calc "$t1 - $t0")"
printf 'report.html: %d bytes (%s MiB; %s MiB gzipped)\n' "$size" \
	"$(calc "$size / 1048576")" "$(calc "$gz / 1048576")"
data=$(sed -n 's/.*<pre id="wg-data" hidden>\(.*\)<\/pre>.*/\1/p' "$page" | wc -c)
printf 'data block: %d bytes (%s a student)\n' "$data" "$(calc "$data / $n")"
mkdir -p "$tmp/home"
echo '<!DOCTYPE html><title>blank</title>' > "$tmp/blank.html"
load() {
	a=$(date +%s.%N)
	HOME=$tmp/home TMPDIR=$tmp XDG_CONFIG_HOME=$tmp/home XDG_CACHE_HOME=$tmp/home \
	timeout -k 5 180 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --user-data-dir="$tmp/profile" --dump-dom "$1" \
		> "$tmp/dom" 2>/dev/null
	b=$(date +%s.%N)
	calc "$b - $a"
}
r=0
while [ $r -lt "$rounds" ]; do
	blank=$(load "file://$tmp/blank.html")
	plain=$(load "file://$page")
	ms=$(sed -n 's/.*data-ready-ms="\([0-9]*\)".*/\1/p' "$tmp/dom" | head -n 1)
	opened=$(load "file://$page#sort=-score&open=student-0002")
	ms2=$(sed -n 's/.*data-ready-ms="\([0-9]*\)".*/\1/p' "$tmp/dom" | head -n 1)
	printf 'load: data-ready-ms %s, dump-dom %s s less blank %s s = %s s; sorted+opened: data-ready-ms %s, dump-dom %s s\n' \
		"${ms:-?}" "$plain" "$blank" "$(calc "$plain - $blank")" "${ms2:-?}" "$opened"
	r=$((r + 1))
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
