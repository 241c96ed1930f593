#!/bin/sh
# grade --similarity keeps of each student its name and a few words; its
# sources, tokens and fingerprints go to spools (grader/similarity/
# sim_spool.h), and the comparison reads the fingerprints back holding at
# most --similarity-memory of them at once (sim_compare.c): with 1 MiB,
# its peak memory at 200 students is that of 20, within 1 MB. Each student
# is a random program of about 14 KB (tests/similarity/random-program.awk:
# 5,000 tokens, 1,300 fingerprints, 10 KB), s001 a copy of s000, so the
# record is the same small one at both sizes (one pair listed, with its
# regions) and what grows is the per-student part alone: 0.25 MB from 20
# to 200 now; 2.4 MB when every student's fingerprints were held while
# the pairs were counted (13 KB a student), 28 MB before the spool. Then:
# the same record with the default budget (one pass); the copied pair
# found with its text (read back from the spool); the spools left nowhere
# ($TMPDIR empty). Measured by /usr/bin/time's maximum resident set
# (without it, python3's getrusage of its children). A sanitizer build
# runs all but the measure (ASan's quarantine holds what is freed).
set -u
. "$(dirname "$0")/lib.sh"
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3

mkdir -p "$tmp/spool"
# The first N students of the class.
class() {
	i=0
	while [ $i -lt "$1" ]; do
		s=$(printf 's%03d' $i)
		[ -d "$tmp/class/$s" ] || {
			mkdir -p "$tmp/class/$s"
			awk -v seed=$((i + 1)) -v F=40 -v S=12 \
				-f "$WG_ROOT/tests/similarity/random-program.awk" \
				> "$tmp/class/$s/main.c"
		}
		i=$((i + 1))
	done
	cp "$tmp/class/s000/main.c" "$tmp/class/s001/main.c"
}
# grade --similarity's peak RSS in KiB over the class, or minus its exit
# status when not 0; the record in $tmp/sim.json.
peak() {
	e2e_peak_rss 0 env TMPDIR="$tmp/spool" "$grade" --similarity "$tmp/class" \
		--similarity-memory 1 --json "$tmp/sim.json" -q
}
class 20
small=$(peak)
class 200
large=$(peak)
e2e_peak_flat "grade --similarity, 20 and 200 students" "$small" "$large" 1024

TMPDIR="$tmp/spool" "$grade" --similarity "$tmp/class" --json "$tmp/one.json" -q ||
	bad "grade --similarity with the default budget: exit $?"
cmp -s "$tmp/sim.json" "$tmp/one.json" ||
	bad "the record differs between --similarity-memory 1 and the default"

out=$(e2e_json "$tmp/sim.json" '"%d %d %s %s %d" % (r["students"], r["pairs_above_min"],
	r["pairs"][0]["a"], r["pairs"][0]["b"], len(r["pairs"][0]["regions"]))') ||
	bad "the record cannot be read"
case $out in
"200 1 s000 s001 "[1-9]*) ;;
*) bad "the record: $out (students, pairs listed, the first pair, its regions)" ;;
esac
text=$(e2e_json "$tmp/sim.json" 'r["pairs"][0]["regions"][0]["a_text"]')
case $text in
*"int f"*) ;;
*) bad "the first region's text is not the program's: $(echo "$text" | head -n 2)" ;;
esac
[ -z "$(ls -A "$tmp/spool")" ] || bad "left in TMPDIR: $(ls -A "$tmp/spool")"
exit $fail
