#!/bin/sh
# The grader's layers (tests/layers.py, docs/hacking.md "Layers"): the
# tree has no include from a lower layer to a higher one and no circle of
# modules; and the check itself finds both, on a copy of grader/ with one
# upward include (run -> judge) and one circle (strbuf <-> util) added.
set -u
. "$(dirname "$0")/lib.sh"
cd "$WG_ROOT" || exit 1

python3 tests/layers.py . > "$tmp/out" || bad "the tree: $(cat "$tmp/out")"

cp -R grader "$tmp/grader"
printf '#include "grader/judge/diff.h"\n' >> "$tmp/grader/run/pool.c"
printf '#include "grader/lib/util.h"\n' >> "$tmp/grader/lib/strbuf.c"
printf '#include "grader/lib/strbuf.h"\n' >> "$tmp/grader/lib/util.c"
python3 tests/layers.py "$tmp" > "$tmp/out" && bad "a broken copy passed"
grep -q 'grader/run/pool.c includes grader/judge/diff.h: judge is above run' "$tmp/out" ||
	bad "the upward include was not found: $(cat "$tmp/out")"
grep -q 'a circle of modules: grader/lib/strbuf <-> grader/lib/util' "$tmp/out" ||
	bad "the circle was not found: $(cat "$tmp/out")"
exit $fail
