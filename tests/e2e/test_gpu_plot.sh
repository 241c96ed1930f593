#!/bin/sh
# gpu-check --svg on the recorded runs: a well-formed SVG with no script
# and no external reference, whose data (the data- attributes of each
# row's <g>, read with XPath, never the pixels) say which rows lie outside
# the band bounds.json allows: none for an honest run, strides 16 and 32
# for the modulo bug (above the band's top), stride 2 for a stride 2 near
# stride 1. Hostile text (a device name with markup, quotes, "]]>" and
# invalid UTF-8) cannot inject markup. run.sh writes build/gpu-bench/plot.svg.
. "$(dirname "$0")/lib.sh"
cd "$WG_ROOT" || exit 1
GC=$WG_BUILD/bin/gpu-check
[ -x "$GC" ] || { echo "$GC not built"; exit 1; }
command -v xmllint >/dev/null 2>&1 ||
	e2e_skip "xmllint not installed (make deps: libxml2-utils)"
D=gpu-bench/testdata
H100=$D/honest/h100-sxm.device.json

# xp FILE XPATH: the XPath's value (string() or count()) on the SVG.
xp() {
	xmllint --xpath "$2" "$1" 2>/dev/null
}
# want FILE XPATH VALUE WHAT
want() {
	got=$(xp "$1" "$2")
	[ "$got" = "$3" ] ||
		{ bad "$4: $2 = '$got', want '$3' ($1)"; }
}
# plot DEVICE ROWS NAME: renders $tmp/NAME.svg, which must be well formed
# and free of script, event handlers and external references.
plot() {
	"$GC" --bounds gpu-bench/bounds.json --device "$1" --svg "$tmp/$3.svg" \
		"$2" >/dev/null 2>&1
	rc=$?
	[ $rc -le 1 ] && [ -s "$tmp/$3.svg" ] ||
		{ bad "$3: exit $rc, no SVG"; return; }
	xmllint --noout "$tmp/$3.svg" || { bad "$3: not XML"; }
	want "$tmp/$3.svg" "count(//*[local-name()='script' or local-name()='foreignObject' or local-name()='image' or local-name()='use'] | //@*[starts-with(name(), 'on') or local-name()='href'])" 0 "$3: active content"
	grep -q '<?xml' "$tmp/$3.svg" && { bad "$3: an XML declaration stops inlining"; }
}
R="//*[@class='row']"

for dev in "$D"/honest/*.device.json; do
	g=$(basename "$dev" .device.json)
	plot "$dev" "$D/honest/$g.rows.jsonl" "$g"
	f=$tmp/$g.svg
	want "$f" "count($R)" 7 "$g: a point per row"
	want "$f" "count(${R}[@data-in-band='0'])" 0 "$g: rows outside the band"
	want "$f" "string(/*/@data-status)" pass "$g: status"
	want "$f" "count(//*[@class='model']/*[@data-efficiency])" 6 "$g: model points"
	peak=$(sed -n 's/.*"peak_gbps": \([0-9.]*\).*/\1/p' "$dev")
	want "$f" "number(//*[@class='peak']/@data-gbps) = $peak" true "$g: peak line"
done
f=$tmp/h100-sxm.svg
want "$f" "string(//*[@class='model']/*[@data-stride='4']/@data-efficiency)" 1/4 "model at stride 4"
want "$f" "string(//*[@class='model']/*[@data-stride='16']/@data-efficiency)" 1/8 "model at stride 16"
# stride 2's band top is the tightest bound: 1/2 x peak ("sector peak")
want "$f" "string(${R}[@data-row='stride 2']/@data-hi)" 1676.160 "stride 2 band"
want "$f" "string(${R}[@data-row='stride 1']/@data-lo)" 2011.392 "stride 1 floor"

# The modulo bug: strides 16 and 32 above their band, and only those.
plot "$H100" "$D/broken/modulo-bug.rows.jsonl" modulo
f=$tmp/modulo.svg
want "$f" "string(/*/@data-status)" fail "modulo: status"
want "$f" "count(${R}[@data-in-band='0'])" 2 "modulo: rows outside the band"
want "$f" "count(${R}[@data-in-band='0'][number(@data-gbps) > number(@data-hi)])" 2 "modulo: above the top"
want "$f" "string(${R}[@data-row='stride 16']/@data-failed)" rise "modulo: stride 16 marked"
want "$f" "string(${R}[@data-row='stride 32']/@data-failed)" "rise, well below" "modulo: stride 32 marked"
want "$f" "count(${R}[@data-in-band='0']/*[local-name()='text'][starts-with(., 'FAIL: ')])" 2 "modulo: visible FAIL labels"
want "$f" "contains(${R}[@data-row='stride 16']/*[local-name()='title'], 'FAIL rise: 826.110, bound <= 601.493')" true "modulo: point title"

plot "$H100" "$D/broken/stride2-near-stride1.rows.jsonl" near
want "$tmp/near.svg" "string(${R}[@data-in-band='0']/@data-row)" "stride 2" "near: the row outside"
want "$tmp/near.svg" "string(${R}[@data-row='stride 2']/@data-failed)" "sector, sector peak" "near: checks named"

plot "$H100" "$D/broken/missing-row.rows.jsonl" missing
want "$tmp/missing.svg" "string(${R}[@data-missing='1']/@data-row)" "stride 4" "missing row marked"
plot "$H100" "$D/broken/wrong-bytes.rows.jsonl" bytes
want "$tmp/bytes.svg" "string(${R}[@data-row='stride 8']/@data-failed)" bytes "a non-band failure marked"
want "$tmp/bytes.svg" "string(${R}[@data-row='stride 8']/@data-in-band)" 1 "bytes: still in band"

# Hostile text: markup, quotes, CDATA end and invalid UTF-8 in the name.
printf '{"name": "<script>alert(1)</script> \\"q\\" '"'"'a'"'"' ]]> &amp; \\u0001", "cc": "9.0<b>", "peak_gbps": 3352.32}\n' >"$tmp/evil.json"
printf '{"name": "bad \377\376 utf8 \300\200", "cc": "9.0", "peak_gbps": 3352.32}\n' >"$tmp/bad8.json"
plot "$tmp/evil.json" "$D/honest/h100-sxm.rows.jsonl" evil
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/evil.svg" || { bad "evil name not escaped"; }
grep -q ']]&gt;' "$tmp/evil.svg" || { bad "]]> not escaped"; }
want "$tmp/evil.svg" "contains(/*/*[local-name()='title'], '<script>alert(1)</script> \"q\" ')" true "evil name kept as text"
# jansson rejects invalid UTF-8 in the device file; the SVG writer's own
# replacement is covered by the unit test. The file is refused, exit 2.
"$GC" --bounds gpu-bench/bounds.json --device "$tmp/bad8.json" --svg "$tmp/bad8.svg" \
	"$D/honest/h100-sxm.rows.jsonl" >/dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/bad8.svg" ] || { bad "invalid UTF-8 device file"; }

# Input that could not be judged: no plot; an unwritable plot: exit 2.
"$GC" --bounds gpu-bench/bounds.json --device "$H100" --svg "$tmp/none.svg" \
	"$D/broken/cuda-error.rows.jsonl" >/dev/null 2>&1
[ -e "$tmp/none.svg" ] && { bad "plot of unjudged input"; }
"$GC" --bounds gpu-bench/bounds.json --device "$H100" --svg "$tmp/no/such/p.svg" \
	"$D/honest/h100-sxm.rows.jsonl" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "cannot write '$tmp/no/such/p.svg'" "$tmp/err" ||
	{ bad "unwritable plot"; cat "$tmp/err"; }
exit $fail
