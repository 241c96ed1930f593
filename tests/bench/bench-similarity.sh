#!/bin/sh
# make bench-similarity: warpgrade's grade --similarity against the two
# anchors, SIM (sim_c, Debian's similarity-tester) and Dolos
# (@dodona/dolos-lib), on the test set of tests/similarity/ (independent
# solutions, their disguised copies, partial copies; labels.tsv says which
# is which) and on a synthetic class of N students (timing only).
#
#   sh tests/bench/bench-similarity.sh BUILD_DIR
#   env: SIM_BENCH_N (default 1000), SIM_BENCH_CAP seconds per anchor run
#        (default 120: SIM's all-pairs mode and Dolos take minutes to hours
#        at 1,000 students; a run stopped there prints "> CAP s")
#
# Per tool and data set: the ranking (sim-eval.py: ROC AUC of copy pairs
# against independent pairs, the lowest copy score against the highest
# independent score, partial copies found above every independent pair),
# the wall time and the peak memory (GNU time's maximum RSS). An anchor
# that is not installed is skipped with a note (make deps-similarity).
# The generated classes stay in BUILD_DIR/bench-sim/ (not committed).
set -eu
B=$1
W=$B/bench-sim
N=${SIM_BENCH_N:-1000}
CAP=${SIM_BENCH_CAP:-120}
GRADE=$B/bin/grade
BASE=tests/similarity/starter.c
MODULES=$B/simtools/node_modules
here=tests/bench

command -v python3 >/dev/null || { echo "bench-similarity: needs python3" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-similarity: needs GNU time (/usr/bin/time)" >&2; exit 1; }
mkdir -p "$W"
if [ ! -f "$W/labels.tsv" ]; then
	rm -rf "$W/set"
	python3 tests/similarity/disguise.py set "$W/set"
	mv "$W/labels.tsv" "$W/labels.tmp" 2>/dev/null || true
	mv "$W/labels.tmp" "$W/labels.tsv"
fi
[ -d "$W/class$N" ] || python3 tests/similarity/disguise.py class "$W/class$N" "$N"

# The anchors compare files: each student's files as one.
flatten() {
	[ -d "$2" ] && return 0
	mkdir -p "$2.tmp"
	for d in "$1"/*/; do
		cat "$d"*.h "$d"*.c > "$2.tmp/$(basename "$d").c" 2>/dev/null || true
	done
	mv "$2.tmp" "$2"
}
flatten "$W/set" "$W/flat-set"
flatten "$W/class$N" "$W/flat$N"

# run OUT CMD...: CMD's stdout to OUT, its time to $W/time; 1 when stopped.
run() {
	out=$1
	shift
	rm -f "$W/time"
	if timeout "$CAP" /usr/bin/time -f '%e %U %S %M' -o "$W/time" "$@" > "$out" 2> "$W/err"; then
		return 0
	fi
	[ -s "$W/time" ] && grep -q '^[0-9.]* [0-9.]* [0-9.]* [0-9]*$' "$W/time" && return 0
	return 1
}
figures() {
	awk '{ printf "%.2f s wall (%.2f s CPU), %.0f MB peak", $1, $2 + $3, $4 / 1024 }' "$W/time"
}

# TOOL DATASET: the tool's pairs, as "A<TAB>B<TAB>SCORE", into $W/pairs.
# The set with every pair listed (for the scorer); the class as staff
# would run it (the default --similarity-min).
warpgrade() {
	min=0
	[ "$1" = "$W/set" ] || min=0.1
	run "$W/out" "$GRADE" --similarity "$1" --similarity-base "$BASE" \
	    --similarity-min $min --json "$W/wg.json" -q || return 1
	python3 -c 'import json, sys
for p in json.load(open(sys.argv[1]))["pairs"]:
    print(p["a"], p["b"], p["score"], sep="\t")' "$W/wg.json" > "$W/pairs"
}
sim() {
	ls "$1"/*.c > "$W/list"
	run "$W/out" sim_c -e -p -s -t 1 -T -i < "$W/list" || return 1
	sed -n 's|^.*/\(.*\)\.c consists for \([0-9]*\) % of .*/\(.*\)\.c material$|\1	\3	\2|p' \
	    "$W/out" | awk -F'\t' '{ print $1 "\t" $2 "\t" $3 / 100 }' > "$W/pairs"
}
dolos() {
	ls "$1"/*.c > "$W/list"
	run "$W/pairs" node "$here/sim-dolos.mjs" "$(cd "$MODULES" && pwd)" "$W/list" \
	    "$(pwd)/$BASE" || return 1
}

have() {
	case $1 in
	warpgrade) [ -x "$GRADE" ] ;;
	sim) command -v sim_c >/dev/null ;;
	dolos) command -v node >/dev/null && [ -d "$MODULES/@dodona/dolos-lib" ] &&
	       [ -n "$(find "$MODULES/@dodona/dolos-parsers" -name '*.node' 2>/dev/null | head -n 1)" ] ;;
	esac
}

echo "bench-similarity: test set $(ls "$W/set" | wc -l) students ($W/labels.tsv), synthetic class $N, cap ${CAP}s"
for tool in warpgrade sim dolos; do
	if ! have $tool; then
		echo "$tool: not installed, skipped (make deps-similarity installs it)"
		continue
	fi
	set_dir=$W/set
	big=$W/class$N
	[ $tool = warpgrade ] || { set_dir=$W/flat-set; big=$W/flat$N; }
	if $tool "$set_dir"; then
		printf '%-9s set:  %s; %s\n' $tool "$(python3 "$here/sim-eval.py" "$W/labels.tsv" "$W/pairs")" "$(figures)"
	else
		printf '%-9s set:  failed or stopped after %ss (%s)\n' $tool "$CAP" "$(tail -n 1 "$W/err")"
	fi
	if $tool "$big"; then
		printf '%-9s %s:  %s\n' $tool "$N" "$(figures)"
	else
		printf '%-9s %s:  > %s s (stopped)\n' $tool "$N" "$CAP"
	fi
done
