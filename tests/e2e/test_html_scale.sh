#!/bin/sh
# The class page in a browser at 20 students (make test) or at
# WG_HTML_STUDENTS=1000 (make bench-html runs that one; it takes minutes):
# a class made by tests/bench/html-class.sh, then headless Chromium loads
# report.html plain and with the URL's state (#sort, #q and #show, #open)
# and the DOM is checked: the script ran with no error, one row per
# student, ten bars counting the graded, the rows in order after sorting,
# only matching rows shown after filtering, the one drill-down opened
# built with every case and no other; no error on the console. At 1,000
# the page must stay under 8 MB (its size, not a time, is asserted; the
# times are make bench-html's to print). At any size the data block
# (html_drill.c) must hold per student only the cases it failed: a
# student with full marks is {}, another at most a few bytes per case it
# did not pass, whatever the number of cases passed (each text once, in
# the block's table).
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 2
n=${WG_HTML_STUDENTS:-20}
suite=${WG_HTML_SUITE:-$WG_ROOT/public-tests}
[ -x "$grade" ] || e2e_skip "no $grade"
[ -d "$WG_ROOT/submissions/correct" ] || e2e_skip "no sample submissions"
e2e_need python3
command -v chromium >/dev/null 2>&1 || e2e_skip "SKIP: chromium not installed"
chmod 755 "$tmp"
sh "$WG_ROOT/tests/bench/html-class.sh" "$grade" "$suite" "$n" "$tmp/class" "$tmp/out"
[ $? -le 1 ] || { echo "FAIL: the class of $n could not be graded"; exit 1; }
page=$tmp/out/report.html
size=$(wc -c < "$page")
echo "report.html: $n students, $size bytes"
[ "$n" -lt 1000 ] || [ "$size" -lt 8388608 ] || bad "report.html is $size bytes at $n students (over 8 MB)"

mkdir -p "$tmp/home"
dom() {
	HOME=$tmp/home TMPDIR=$tmp XDG_CONFIG_HOME=$tmp/home XDG_CACHE_HOME=$tmp/home \
	timeout -k 5 180 chromium --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-extensions --user-data-dir="$tmp/profile" \
		--enable-logging=stderr --v=0 --dump-dom "file://$page$1" \
		> "$tmp/$2.dom" 2> "$tmp/$2.err" || bad "chromium $1 failed"
	grep -E 'CONSOLE|Uncaught' "$tmp/$2.err" > "$tmp/$2.console"
	[ -s "$tmp/$2.console" ] && bad "console ($1): $(head -n 3 "$tmp/$2.console")"
}
dom "" plain
dom "#sort=-score" sorted
dom "#q=student-001&show=imperfect" filtered
dom "#open=student-0002" opened
python3 - "$tmp" "$n" "$suite" "$page" <<'PY' || bad "the DOM"
import html, json, re, sys
from html.parser import HTMLParser
t, n = sys.argv[1], int(sys.argv[2])
ncases = len(json.load(open(sys.argv[3] + '/suite.json'))['cases'])

class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.root, self.rows, self.bars, self.cur, self.shown = {}, [], [], None, None
        self.heads, self.in_shown = {}, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'html':
            self.root = a
        if tag == 'tbody' and a.get('class') == 'student':
            self.cur = dict(a, cases=0)
            self.rows.append(self.cur)
        if self.cur is not None and tag == 'tr' and a.get('class') == 'case':
            self.cur['cases'] += 1
        if tag == 'rect' and a.get('class') == 'bar':
            self.bars.append(int(a['data-count']))
        if tag == 'th' and 'data-sort' in a:
            self.heads[a['data-sort']] = a.get('aria-sort')
        self.in_shown = tag == 'span' and a.get('id') == 'shown'
    def handle_data(self, d):
        if self.in_shown:
            self.shown = int(d)
            self.in_shown = False
    def handle_endtag(self, tag):
        if tag == 'tbody':
            self.cur = None

def load(what):
    d = Dom()
    d.feed(open('%s/%s.dom' % (t, what), encoding='utf-8').read())
    return d

ok = True
def check(cond, what):
    global ok
    if not cond:
        print('FAIL:', what); ok = False

p = load('plain')
check(p.root.get('data-js') == 'ready', 'plain: data-js=%s' % p.root.get('data-js'))
check(len(p.rows) == n, 'plain: %d rows, want %d' % (len(p.rows), n))
graded = sum(1 for r in p.rows if r.get('data-graded') == '1')
check(len(p.bars) == 10 and sum(p.bars) == graded, 'plain: bars %s' % p.bars)
check(all(r['cases'] == 0 for r in p.rows), 'plain: a drill-down built up front')
check(p.shown == n, 'plain: shown %s' % p.shown)

s = load('sorted')
check(s.root.get('data-js') == 'ready', 'sorted: the script')
scores = [float(r['data-score']) for r in s.rows]
check(scores == sorted(scores, reverse=True), 'sorted: not by score, descending')
check(s.heads.get('score') == 'descending', 'sorted: aria-sort %s' % s.heads.get('score'))
check(len(s.rows) == n, 'sorted: rows lost')

f = load('filtered')
check(f.root.get('data-js') == 'ready', 'filtered: the script')
vis = [r for r in f.rows if 'hidden' not in r]
want = [r for r in f.rows if 'student-001' in r['data-name'] and
        r.get('data-graded') == '1' and r.get('data-full') == '0']
check(len(vis) == len(want) and all(r in want for r in vis),
      'filtered: %d shown, want %d' % (len(vis), len(want)))
check(f.shown == len(want), 'filtered: the count says %s' % f.shown)

o = load('opened')
check(o.root.get('data-js') == 'ready', 'opened: the script')
built = [r for r in o.rows if r['cases']]
check(len(built) == 1 and built[0]['data-name'] == 'student-0002',
      'opened: built %s' % [r['data-name'] for r in built])
check(built and built[0]['cases'] == ncases,
      'opened: %s cases, want %d' % (built and built[0]['cases'], ncases))

# The data block grows with the cases failed, not with the cases passed.
page = open(sys.argv[4], encoding='utf-8').read()
m = re.search(r'<pre id="wg-data" hidden>(.*?)</pre>', page, re.S)
check(m is not None, 'no data block')
block = m.group(1) if m else '{}'
data = json.loads(html.unescape(block))
PER_FAILED, PER_STUDENT = 64, 64
dump = lambda v: len(json.dumps(v, separators=(',', ':')))
bound = dump(data.get('k', [])) + dump(data.get('t', [])) + 64
bodies = re.findall(r'<tbody class="student" data-index="(\d+)"[^>]*data-full="(\d)"'
                    r'[^>]*>\n<tr class="row">.*?<td class="verdicts">(.*?)</td>', page)
check(len(bodies) == n, 'data block: %d rows read, want %d' % (len(bodies), n))
for i, full, chips in bodies:
    e = data['s'][int(i)]
    failed = sum(int(c) for v, c in re.findall(r'>(\w+) (\d+)</span>', chips) if v != 'AC')
    want = PER_STUDENT + PER_FAILED * failed
    bound += want + 1
    if full == '1':
        check(e == {}, 'data block: student %s has full marks, its entry is %s' % (i, dump(e)))
    check(dump(e) <= want, 'data block: student %s, %d bytes for %d cases failed (at most %d)'
          % (i, dump(e), failed, want))
check(len(block) <= bound, 'data block: %d bytes, at most %d' % (len(block), bound))
print('data block: %d bytes, %.0f a student (bound %d)' % (len(block), len(block) / max(n, 1), bound))
sys.exit(0 if ok else 1)
PY
exit $fail
