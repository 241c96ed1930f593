#!/bin/sh
# grade --similarity and a batch's similarity, end to end (issue 20), on a
# class made from the test set of tests/similarity/: alice and bob hand in
# one program (the known copied pair), dave a disguised copy of carol's
# (every transformation of disguise.py at once: the known disguised pair),
# oscar a renamed copy of mallory's, whose source holds markup; erin,
# frank and gina independent work, three of them on the same starter code.
#   - the JSON: pairs by score, the copied and the disguised pair above
#     every independent pair, regions with the matched text, the
#     histogram over every pair; the base subtraction lowering the pair of
#     two independent programs built on the starter; the terminal's top
#     pair; usage errors (exit 2) and --json - ;
#   - grade --batch: summary.json's "similarity", report.html's section and
#     the terminal's top pairs; two shards and their merge giving the
#     whole run's record;
#   - headless Chromium (skipped without it): a page of our own frames
#     report.html, opens the first pair's view and reports what it sees:
#     the view open, its regions shown side by side, and nothing from the
#     hostile source run or parsed as markup.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 1
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3
starter=$WG_ROOT/tests/similarity/starter.c

python3 "$WG_ROOT/tests/similarity/disguise.py" set "$tmp/set" || { echo "FAIL: disguise.py"; exit 1; }
class=$tmp/class
for pair in alice:table bob:table carol:chain dave:chain-all erin:model \
	    frank:terse gina:verbose mallory:scanf oscar:scanf-rename; do
	mkdir -p "$class/${pair%%:*}"
	cp "$tmp/set/${pair#*:}"/* "$class/${pair%%:*}/"
done
mkdir "$class/nobody"
# Markup in mallory's (and so oscar's) code, inside the matched part.
python3 - "$class/mallory/main.c" "$class/oscar/main.c" <<'PY'
import sys
hostile = ('/* </pre></mark></td><script>window.top.pwned=1</script>'
           '<img src=x onerror="window.top.pwned=2"> */\n'
           'puts("</details><script>window.top.pwned=3</script>&amp;");\n')
for path in sys.argv[1:]:
    src = open(path).read()
    at = src.index("\n", src.index("g_active = (int)") if "g_active = (int)" in src
                   else len(src) // 2) + 1
    open(path, "w").write(src[:at] + hostile + src[at:])
PY

# ---- grade --similarity
"$grade" --similarity "$class" --similarity-base "$starter" --json "$tmp/sim.json" \
	> "$tmp/out.txt" 2> "$tmp/err.txt"
rc=$?
[ $rc -eq 0 ] || { bad "grade --similarity: exit $rc"; cat "$tmp/err.txt"; }
grep -q '^similarity: 9 students' "$tmp/out.txt" || bad "the terminal: no 'similarity: 9 students'"
sed -n 2p "$tmp/out.txt" | grep -q '^  1.000  alice  bob$' ||
	bad "the terminal's top pair is not alice and bob: $(sed -n 2p "$tmp/out.txt")"
"$grade" --similarity "$class" --json "$tmp/nobase.json" -q > /dev/null 2>&1 ||
	bad "grade --similarity without a base failed"
python3 - "$tmp/sim.json" "$tmp/nobase.json" <<'PY' || bad "the JSON"
import json, sys
rec = json.load(open(sys.argv[1]))
nobase = json.load(open(sys.argv[2]))
def check(ok, what):
    if not ok:
        print("FAIL:", what); sys.exit(1)
origin = {"alice": "t", "bob": "t", "carol": "c", "dave": "c", "erin": "m",
          "frank": "f", "gina": "g", "mallory": "s", "oscar": "s"}
pairs = rec["pairs"]
check(rec["students"] == 9 and rec["all_pairs"] == 36, "students, all_pairs")
check(sum(b["count"] for b in rec["histogram"]) == 36, "the histogram counts every pair")
check([p["score"] for p in pairs] == sorted((p["score"] for p in pairs), reverse=True),
      "pairs not sorted by score")
score = {tuple(sorted((p["a"], p["b"]))): p for p in pairs}
for p in pairs:
    check(set(p) >= {"a", "b", "score"} and p["a"] < p["b"] and 0 <= p["score"] <= 1,
          "a pair's keys: %s" % p)
copies = [("alice", "bob"), ("carol", "dave"), ("mallory", "oscar")]
check(score[copies[0]]["score"] >= 0.99, "the copied pair scores %s" % score[copies[0]])
for c in copies:
    check(c in score and score[c]["score"] >= 0.3, "copy pair %s: %s" % (c, score.get(c)))
lowest = min(score[c]["score"] for c in copies)
indep = [p["score"] for k, p in score.items() if origin[k[0]] != origin[k[1]]]
check(not indep or max(indep) < lowest,
      "an independent pair (%s) at or above a copy (%s)" % (max(indep), lowest))
check(max(indep or [0]) < 0.2, "independent pairs score up to %s" % max(indep or [0]))
regions = score[("carol", "dave")]["regions"]
check(regions and all(g["a_file"] == "main.c" and g["a_from"] <= g["a_to"] and
                      g["a_text"] for g in regions), "the disguised pair's regions")
check(any("pwned" in g["a_text"] + g["b_text"] for g in score[("mallory", "oscar")]["regions"]),
      "the hostile lines are not in a matched region (the page check would be void)")
check(rec["base_files"] == ["starter.c"], "base_files")
check([c["students"] for c in rec["clusters"]][:1] == [["alice", "bob"]], "clusters")
# Base subtraction: table (alice) and model (erin) both paste the starter.
nb = {tuple(sorted((p["a"], p["b"]))): p["score"] for p in nobase["pairs"]}
with_base = score.get(("alice", "erin"), {"score": 0})["score"]
check(nb.get(("alice", "erin"), 0) > with_base + 0.1,
      "the base lowers alice-erin: %s without, %s with" % (nb.get(("alice", "erin")), with_base))
PY
"$grade" --similarity "$class" --json - -q > "$tmp/stdout.json" 2>&1 &&
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/stdout.json" ||
	bad "--json - is not JSON on stdout"
usage() {
	"$grade" "$@" > "$tmp/u.out" 2> "$tmp/u.err"
	rc=$?
	[ $rc -eq 2 ] || bad "grade $*: exit $rc, want 2"
}
usage --similarity
usage --similarity "$tmp/none" --json "$tmp/x.json"
usage --similarity "$class" --similarity-base "$tmp/none.c"
grep -q "cannot read '$tmp/none.c'" "$tmp/u.err" || bad "the missing base is not named"
usage --similarity "$class" --exact
usage --similarity "$class" --similarity-k 0
[ ! -e "$tmp/x.json" ] || bad "a usage error wrote its JSON"

# ---- a batch, whole and in two shards
suite=$WG_ROOT/public-tests
"$grade" --batch "$suite" "$class" --out "$tmp/all" -j 2 --wall-limit 3 \
	--similarity-base "$starter" > "$tmp/batch.out" 2>> "$tmp/stderr"
rc=$?
[ $rc -le 1 ] || bad "batch: exit $rc"
grep -q '^  1.000  alice  bob$' "$tmp/batch.out" || bad "batch: no top pair on the terminal"
grep -q '<section id="similarity">' "$tmp/all/report.html" || bad "report.html: no similarity section"
for k in 1 2; do
	"$grade" --batch "$suite" "$class" --out "$tmp/s$k" --shard $k/2 -j 2 \
		--wall-limit 3 --similarity-base "$starter" -q > /dev/null 2>> "$tmp/stderr"
	[ -s "$tmp/s$k/similarity-sources.json" ] || bad "shard $k: no similarity-sources.json"
done
"$grade" --merge --out "$tmp/merged" "$tmp/s1" "$tmp/s2" -q > /dev/null 2>> "$tmp/stderr"
python3 - "$tmp" <<'PY' || bad "the batch's similarity"
import json, sys
t = sys.argv[1]
whole = json.load(open(t + "/all/summary.json")).get("similarity")
merged = json.load(open(t + "/merged/summary.json")).get("similarity")
shard = json.load(open(t + "/s1/summary.json"))
if not whole or whole["pairs"][0]["a"] != "alice" or whole["pairs"][0]["b"] != "bob":
    print("FAIL: summary.json: no similarity with alice and bob first"); sys.exit(1)
if "similarity" in shard:
    print("FAIL: a shard's summary has a similarity of part of the class"); sys.exit(1)
if merged != whole:
    print("FAIL: the merge's similarity differs from the whole run's"); sys.exit(1)
PY

if ! command -v chromium >/dev/null 2>&1; then
	[ $fail -eq 0 ] || exit 1
	echo "SKIP: chromium not installed (the page in a browser)"
	exit 77
fi
# ---- in the browser: our page frames the report (file:// pages share an
# origin with --allow-file-access-from-files) and writes what it found.
cat > "$tmp/all/probe.html" <<'HTML'
<!DOCTYPE html><html><body><pre id="result">pending</pre>
<iframe id="f" src="report.html" width="1200" height="800"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument, out = [];
  var view = d.querySelector('#similarity details.sim-pair');
  out.push('pairs=' + d.querySelectorAll('#sim-pairs tr.sim-row').length);
  out.push('bars=' + d.querySelectorAll('#sim-histogram rect.simbar').length);
  if (view) {
    view.querySelector('summary').click();
    var sides = view.querySelectorAll('tbody tr:first-child td.side');
    out.push('open=' + view.open);
    out.push('sides=' + sides.length);
    out.push('visible=' + (sides.length === 2 && sides[0].querySelector('mark').offsetHeight > 0 &&
                           sides[1].getBoundingClientRect().left > sides[0].getBoundingClientRect().left));
  }
  var hostile = Array.prototype.some.call(d.querySelectorAll('#similarity mark'),
    function (m) { return m.textContent.indexOf('window.top.pwned=3') >= 0; });
  out.push('hostile_text=' + hostile);
  out.push('scripts=' + d.querySelectorAll('script').length);
  out.push('imgs=' + d.querySelectorAll('img').length);
  out.push('pwned=' + (window.pwned || 0));
  document.getElementById('result').textContent = out.join(' ');
});
</script></body></html>
HTML
mkdir -p "$tmp/home"
HOME=$tmp/home TMPDIR=$tmp XDG_CONFIG_HOME=$tmp/home XDG_CACHE_HOME=$tmp/home \
timeout -k 5 90 chromium --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-extensions --user-data-dir="$tmp/profile" \
	--allow-file-access-from-files --virtual-time-budget=5000 \
	--dump-dom "file://$tmp/all/probe.html" > "$tmp/probe.dom" 2> "$tmp/chromium.err" ||
	bad "chromium failed: $(tail -n 2 "$tmp/chromium.err")"
result=$(sed -n 's/.*<pre id="result">\([^<]*\)<.*/\1/p' "$tmp/probe.dom")
echo "browser: $result"
for want in open=true sides=2 visible=true hostile_text=true scripts=1 imgs=0 pwned=0; do
	case " $result " in *" $want "*) ;; *) bad "browser: want $want in '$result'" ;; esac
done
case " $result " in *" pairs=0 "*|*" bars=0 "*) bad "browser: no pairs or no histogram: $result" ;; esac
exit $fail
