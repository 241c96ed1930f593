#!/bin/sh
# grade --html and batch's report.html end to end, in a real browser.
#
# A hostile program, whose file name holds <script>, quotes, "]]>" and
# invalid UTF-8 and whose output holds markup and bad bytes, is graded with
# the reference: the page must be valid UTF-8, hold no script but its own
# (whose hash is the one its Content-Security-Policy names), and show the
# hostile text as text. The student view must hold no expected line of a
# hidden case. A small class graded with --batch gets DIR/report.html.
# Then headless Chromium loads the pages (--dump-dom): its script ran, the
# DOM has one row per student, ten histogram bars whose counts add up to
# the graded students, one student's drill-down (opened by the URL's
# #open=NAME, built then from the data block) with every case, no other
# built, and no element the hostile text could have made; and a
# screenshot is a PNG. (tests/e2e/test_html_scale.sh: 20 and 1,000.)
# Without chromium the browser half is skipped (exit 77) once the rest
# has passed.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 4
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3
chmod 755 "$tmp"
ref=$tmp/reference
cc -std=c11 -D_GNU_SOURCE -O1 -I"$WG_ROOT" -o "$ref" "$WG_ROOT"/reference/*.c ||
	{ echo "FAIL: cannot build the reference"; exit 1; }
pub=$WG_ROOT/public-tests
hid=$WG_ROOT/hidden-tests
npub=$(grep -c '"name": *"[^"]*", *"category"' "$pub/suite.json")

# The hostile program and its name.
evil=$(printf '%s\377' "x<script>alert(\"n\")</script>'q']]>" | sed 's#/#_#g')
cat > "$tmp/$evil" <<'SH'
#!/bin/sh
printf '</pre></details><script>alert(1)</script><img src=x onerror=alert(2)> "q" '"'"'a'"'"' ]]> \001\033[31m\377\376\300\200\n'
printf '</pre><script>alert(3)</script> \377\n' >&2
exit 0
SH
chmod 755 "$tmp/$evil"

# page FILE: the checks every page must pass without a browser.
page() {
	python3 - "$1" <<'PY' || bad "$1: $(cat "$tmp/why" 2>/dev/null)"
import base64, hashlib, re, sys
raw = open(sys.argv[1], 'rb').read()
why = open(sys.argv[1].rsplit('/', 1)[0] + '/why', 'w')
try:
    s = raw.decode('utf-8')
except UnicodeDecodeError as e:
    why.write('not UTF-8: %s' % e); sys.exit(1)
scripts = re.findall(r'<script\b[^>]*>(.*?)</script>', s, re.S)
if len(scripts) != 1 or s.count('<script') != 1 or s.count('</script') != 1:
    why.write('%d scripts' % s.count('<script')); sys.exit(1)
want = 'sha256-' + base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
if ("script-src '%s'" % want) not in s:
    why.write('the CSP does not name the script hash %s' % want); sys.exit(1)
for tag in ('<img', '<b>', 'onerror=alert'):
    if tag in s.replace('&lt;img src=x onerror=alert', ''):
        why.write('raw %s' % tag); sys.exit(1)
PY
}

# ---- one grading, the staff view: the hostile program and the reference.
"$grade" --quiet --staff --html "$tmp/staff.html" "$pub" "$ref" "$tmp/$evil" > /dev/null
rc=$?
[ $rc -eq 1 ] || bad "grade --html exit $rc, want 1"
[ -s "$tmp/staff.html" ] || { echo "FAIL: no page"; exit 1; }
page "$tmp/staff.html"
# (in the drill-downs' data block: JSON, with < > & as entities)
grep -qF '&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; \"q\" '"'a'"' ]]&gt;' "$tmp/staff.html" ||
	bad "the hostile output is not in the data block as text"
# (the report itself writes the bad byte as a visible \xff)
grep -q "data-name=\"$tmp/x&lt;script&gt;alert(&quot;n&quot;)&lt;_script&gt;&#39;q&#39;]]&gt;" "$tmp/staff.html" ||
	bad "the hostile file name is not shown as text"
[ "$(stat -c %a "$tmp/staff.html")" = 600 ] || bad "the page is not 0600"

# ---- the student view (grade's default): no expected line of a hidden case.
"$grade" --quiet --json "$tmp/r.json" --html "$tmp/student.html" "$hid" \
	"$WG_ROOT/submissions/float-rounding" > /dev/null
page "$tmp/student.html"
grep -q '<span id="view">student</span>' "$tmp/student.html" || bad "not the student view"
python3 - "$tmp/r.json" "$tmp/student.html" <<'PY' || bad "the student view shows a hidden case's expected lines"
import html, json, sys
r = json.load(open(sys.argv[1]))
page = open(sys.argv[2], encoding='utf-8').read()
n = 0
for k in r['submissions'][0]['cases']:
    if k['visibility'] == 'visible' or not k.get('diff'):
        continue
    for line in k['diff'].split('\n'):
        if line.startswith('-') and not line.startswith('---') and len(line) > 4:
            n += 1
            if html.escape(line[1:], quote=True).replace('&#x27;', '&#39;') in page:
                print('leaked:', line); sys.exit(1)
if n == 0:
    print('no hidden diff to check'); sys.exit(1)
PY

# ---- a batch: four students, one with a hostile name, one with nothing.
class=$tmp/class
mkdir -p "$class/correct" "$class/float" "$class/ce" "$class/empty" \
	"$class/<img src=x onerror=alert(9)>"
cp "$WG_ROOT/submissions/correct/main.c" "$class/correct/"
cp "$WG_ROOT/submissions/float-rounding/main.c" "$class/float/"
cp "$WG_ROOT/submissions/compile-error/main.c" "$class/ce/"
cp "$WG_ROOT/submissions/correct/main.c" "$class/<img src=x onerror=alert(9)>/"
"$grade" --batch "$pub" "$class" --out "$tmp/out" -j 2 --quiet > /dev/null 2>&1
rc=$?
[ $rc -eq 1 ] || bad "batch exit $rc, want 1"
[ -s "$tmp/out/report.html" ] || { echo "FAIL: no report.html"; exit 1; }
page "$tmp/out/report.html"
[ "$(grep -c '<tbody class="student"' "$tmp/out/report.html")" -eq 5 ] ||
	bad "report.html: want 5 students"

if ! command -v chromium >/dev/null 2>&1; then
	[ $fail -eq 0 ] || exit 1
	echo "SKIP: chromium not installed"
	exit 77
fi

# ---- in the browser. Its profile, cache and temporary files stay in tmp.
mkdir -p "$tmp/home"
browse() {
	HOME=$tmp/home TMPDIR=$tmp XDG_CONFIG_HOME=$tmp/home XDG_CACHE_HOME=$tmp/home \
	timeout -k 5 90 chromium --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-extensions --user-data-dir="$tmp/profile" "$@" \
		2> "$tmp/chromium.err"
}
dom() {
	browse --dump-dom "file://$1" > "$2" || { bad "chromium --dump-dom $1 failed"; cat "$tmp/chromium.err"; }
}
# A drill-down is built when opened: #open=NAME opens one at load.
dom "$tmp/out/report.html#open=correct" "$tmp/batch.dom"
# (the name as the page has it: the report wrote the bad byte as \xff)
evil_frag=$(python3 -c 'import html, re, sys, urllib.parse
s = open(sys.argv[1], encoding="utf-8").read()
n = [html.unescape(m) for m in re.findall(r"data-name=\"([^\"]*)\"", s) if "alert" in m][0]
print(urllib.parse.quote(n, safe=""))' "$tmp/staff.html")
dom "$tmp/staff.html#open=$evil_frag" "$tmp/staff.dom"
# The hostile output, built into the drill-down, is text.
grep -qF '&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; "q" '"'a'"' ]]&gt;' "$tmp/staff.dom" ||
	bad "the hostile output is not shown as text in the drill-down"
python3 - "$tmp/batch.dom" "$tmp/staff.dom" "$npub" <<'PY' || bad "the DOM"
import re, sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    """Counts what the checks need, by element, as the browser built it."""
    def __init__(self):
        super().__init__()
        self.tags = {}
        self.students, self.bars, self.cur = [], [], None
        self.root = {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == 'html':
            self.root = a
        if tag == 'tbody' and a.get('class') == 'student':
            self.cur = {'name': a.get('data-name'), 'cases': 0, 'details': 0}
            self.students.append(self.cur)
        if self.cur is not None and tag == 'tr' and a.get('class') == 'case':
            self.cur['cases'] += 1
        if self.cur is not None and tag == 'details' and a.get('class') == 'drill':
            self.cur['details'] += 1
        if tag == 'rect' and a.get('class') == 'bar':
            self.bars.append(int(a['data-count']))
    def handle_endtag(self, tag):
        if tag == 'tbody':
            self.cur = None

def load(path):
    d = Dom()
    d.feed(open(path, encoding='utf-8').read())
    return d

ok = True
def check(cond, what):
    global ok
    if not cond:
        print('FAIL:', what); ok = False

npub = int(sys.argv[3])
b = load(sys.argv[1])
check(b.root.get('data-js') == 'ready', 'batch: the script did not run')
check(len(b.students) == 5, 'batch: %d student rows, want 5' % len(b.students))
check(len(b.bars) == 10, 'batch: %d bars, want 10' % len(b.bars))
check(sum(b.bars) == 4, 'batch: bars count %d students, want 4 graded' % sum(b.bars))
check(b.tags.get('script') == 1, 'batch: %s scripts' % b.tags.get('script'))
check('img' not in b.tags, 'batch: an <img> element')
by = {s['name']: s for s in b.students}
check(set(by) == {'correct', 'float', 'ce', 'empty', '<img src=x onerror=alert(9)>'},
      'batch: names %s' % sorted(by))
c = by.get('correct', {})
check(c.get('details') == 1 and c.get('cases') == npub,
      'batch: correct drill-down %s, want %d cases' % (c, npub))
# The others are built when opened, not up front.
check(by.get('ce', {}).get('cases') == 0 and by.get('float', {}).get('cases') == 0,
      'batch: a drill-down built that was not opened')
check(by.get('empty', {}).get('cases') == 0, 'batch: empty drill-down')
m = re.search(r'<span id="shown">(\d+)</span>', open(sys.argv[1]).read())
check(m and m.group(1) == '5', 'batch: the filter count')

s = load(sys.argv[2])
check(s.root.get('data-js') == 'ready', 'single: the script did not run')
check(len(s.students) == 2, 'single: %d rows, want 2' % len(s.students))
check(s.tags.get('script') == 1 and 'img' not in s.tags and 'b' not in s.tags,
      'single: an element from the hostile text')
check(sum(s.bars) == 2, 'single: bars')
sys.exit(0 if ok else 1)
PY

# A screenshot: a PNG with something in it; then it goes.
browse --screenshot="$tmp/shot.png" --window-size=1280,1600 \
	"file://$tmp/out/report.html" > /dev/null || bad "chromium --screenshot failed"
if [ -s "$tmp/shot.png" ] &&
   [ "$(head -c 8 "$tmp/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
	[ "$(wc -c < "$tmp/shot.png")" -gt 2000 ] || bad "the screenshot is nearly empty"
else
	bad "no PNG screenshot"
fi
rm -f "$tmp/shot.png"

[ $fail -eq 0 ] && echo "html: all checks passed"
exit $fail
