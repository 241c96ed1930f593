#!/bin/sh
# grade --suite-report end to end: a small suite made here from four
# public cases (errors-basic, rounding-basic, parsing-basic and
# vector-basic, which kills none of the solutions below) against four
# wrong solutions graded for real:
#   always-plural   killed by rounding-basic and parsing-basic
#   active-0-ok     killed by errors-basic only (fragile)
#   active-clamps   killed by none (survives)
#   compile-error   does not build: CE on every case, no case ran, so
#                   neither killed nor surviving ("unbuilt")
# and the JSON's matrix, survivors, fragile list, redundant cases,
# categories and families; the text; the exit statuses (1: a survivor;
# 2: usage); nothing left in TMPDIR.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
e2e_need python3
command -v "${CC:-cc}" > /dev/null 2>&1 || e2e_skip "no C compiler"
# The scratch trees go under TMPDIR=$tmp/tmpdir: without namespaces (as
# root) the slot uids must be able to reach them.
chmod 755 "$tmp"

s=$tmp/suite
w=$tmp/wrong
mkdir -p "$s" "$w" "$tmp/tmpdir"
for c in errors-basic rounding-basic parsing-basic vector-basic; do
	cp "$root/public-tests/$c.in" "$root/public-tests/$c.out" "$s/"
done
python3 - "$root/public-tests/suite.json" "$s/suite.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keep = ["errors-basic", "rounding-basic", "parsing-basic", "vector-basic"]
d["name"] = "small"
d["cases"] = [c for c in d["cases"] if c["name"] in keep]
cats = {c["category"] for c in d["cases"]}
d["hints"] = {k: v for k, v in d.get("hints", {}).items() if k in cats}
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
for n in always-plural active-0-ok active-clamps; do
	mkdir "$w/$n" && cp "$root/tests/wrong/$n/main.c" "$w/$n/"
done
mkdir "$w/compile-error" && cp "$root/submissions/compile-error/main.c" "$w/compile-error/"
grep -E '^(always-plural|active-0-ok|active-clamps)	' "$root/tests/wrong/INDEX" > "$w/INDEX"
echo "not a solution" > "$w/notes.txt"

TMPDIR=$tmp/tmpdir timeout 120 "$grade" --suite-report "$s" "$w" -j 2 \
	--suite-report-json "$tmp/sr.json" --suite-report-html "$tmp/sr.html" \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || { bad "exit $rc, not 1 (a survivor)"; cat "$tmp/err"; }
[ -z "$(ls -A "$tmp/tmpdir")" ] || bad "left in TMPDIR: $(ls -A "$tmp/tmpdir")"

python3 - "$tmp/sr.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
errors = []
def eq(what, got, want):
    if got != want:
        errors.append("%s: %r, not %r" % (what, got, want))
eq("schema", d["schema"], "warpgrade-suite-report/1")
eq("suite", d["suite"], "small")
cases = ["vector-basic", "errors-basic", "parsing-basic", "rounding-basic"]
eq("matrix cases", d["matrix"]["cases"], cases)
rows = {r["solution"]: r["kills"] for r in d["matrix"]["rows"]}
eq("matrix", rows, {"active-0-ok": ".X..", "active-clamps": "....",
                    "always-plural": "..XX", "compile-error": "CCCC"})
verdicts = {r["solution"]: r["verdicts"] for r in d["matrix"]["rows"]}
eq("compile-error verdicts", verdicts["compile-error"], ["CE"] * 4)
eq("active-clamps verdicts", verdicts["active-clamps"], ["AC"] * 4)
eq("survivors", d["survivors"], ["active-clamps"])
eq("fragile", d["fragile"], [{"solution": "active-0-ok", "case": "errors-basic"}])
eq("redundant", d["redundant"], ["vector-basic"])
eq("errors", d["errors"], [])
eq("unbuilt", d["unbuilt"], ["compile-error"])
eq("summary", d["summary"], {"solutions": 4, "cases": 4, "killed": 2, "unbuilt": 1,
                             "survivors": 1, "fragile": 1, "redundant_cases": 1,
                             "errors": 0, "min_kills": 0, "max_kills": 2})
cats = {c["category"]: (c["cases"], c["killed"], c["only"], c["redundant_cases"])
        for c in d["categories"]}
eq("categories", cats, {"errors": (1, 1, 1, 0), "vector": (1, 0, 0, 1),
                        "parsing": (1, 1, 0, 0), "rounding": (1, 1, 0, 0)})
sols = {s["name"]: (s["family"], s["build"], s["killed_by"]) for s in d["solutions"]}
eq("solutions", sols, {
    "active-0-ok": ("args", "ok", ["errors-basic"]),
    "active-clamps": ("active", "ok", []),
    "always-plural": ("labels", "ok", ["parsing-basic", "rounding-basic"]),
    "compile-error": (None, "failed", [])})
fams = {f["family"]: (f["solutions"], f["killed"], f["fragile"], f["unbuilt"],
                     f["survivors"]) for f in d["families"]}
eq("families", fams, {"args": (1, 1, 1, 0, []), "active": (1, 0, 0, 0, ["active-clamps"]),
                      "labels": (1, 1, 0, 0, []), None: (1, 0, 0, 1, [])})
kills = {c["name"]: (c["category"], c["kills"], c["sole_kills"]) for c in d["cases"]}
eq("cases", kills, {"errors-basic": ("errors", 1, 1), "vector-basic": ("vector", 0, 0),
                    "parsing-basic": ("parsing", 1, 0), "rounding-basic": ("rounding", 1, 0)})
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
PY

# The text says the same.
for pat in '^  active-clamps +\.\.\.\.  0$' '^  compile-error +CCCC  0$' \
	   '^survivors, killed by no case \(1\):$' '^  active-clamps  active$' \
	   '^  active-0-ok +by errors-basic$' '^redundant cases, killing nothing \(1\):$' \
	   '^  vector-basic$' '^  errors +1 +1 +1 +0$' '^did not build' \
	   '^killed 2 of 4 wrong solutions; survivors 1, fragile 1;'; do
	grep -Eq -- "$pat" "$tmp/out" || { bad "no '$pat' in the text"; cat "$tmp/out"; break; }
done

# The page: the suite strength section with the same findings (a row of
# the matrix per wrong solution), then each wrong solution's verdicts.
python3 - "$tmp/sr.html" <<'PY' || fail=1
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
sec = page[page.index('<section id="suite-strength">'):page.index('</section>')]
errors = []
def want(what, ok):
    if not ok:
        errors.append(what)
        print("suite report page: " + what)
want("4 matrix rows", sec.count('<tr class="sr-row">') == 4)
want("survivor named", re.search(r'id="sr-survivors"><b>[^<]*\(1\):</b> active-clamps<', sec))
want("fragile named", re.search(r'id="sr-fragile">.*active-0-ok \(errors-basic\)', sec))
want("redundant case named", re.search(r'id="sr-redundant">.*vector-basic', sec))
want("4 students after it", page.count('<tbody class="student"') == 4)
sys.exit(1 if errors else 0)
PY

# Usage errors: exit 2 and why, nothing graded.
expect_usage() {
	pat=$1
	shift
	"$grade" "$@" > "$tmp/u" 2>&1
	rc=$?
	[ $rc -eq 2 ] || bad "exit $rc, not 2: $*"
	grep -Eq -- "$pat" "$tmp/u" || bad "no '$pat' for: $* ($(cat "$tmp/u"))"
}
expect_usage 'missing WRONG_DIR' --suite-report "$s"
expect_usage "'--json' does not apply" --suite-report "$s" "$w" --json "$tmp/x.json"
expect_usage "unknown option '--frob'" --suite-report "$s" "$w" --frob
expect_usage 'holds no wrong solution' --suite-report "$s" "$s"
expect_usage 'cannot read the wrong' --suite-report "$s" "$tmp/none"
TMPDIR=$tmp/tmpdir expect_usage 'suite' --suite-report "$tmp/none" "$w"
[ -z "$(ls -A "$tmp/tmpdir")" ] || bad "left in TMPDIR after a bad suite"
"$grade" --suite-report --help | grep -q 'usage: grade --suite-report' || bad "no --help"
[ ! -e "$tmp/x.json" ] || bad "a refused run wrote a file"
exit $fail
