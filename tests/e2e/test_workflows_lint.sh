#!/bin/sh
# The GitHub Actions workflows in the tree (.github/workflows/*.yml) and
# the one docs/workflows.md shows (the shard matrix and its merge) are
# checked against the workflow schema by action-validator (the npm
# registry's @action-validator/cli; `make deps-lint` installs it into
# build/npm/). A workflow with a misspelt key must fail it, so a linter
# that accepts anything cannot pass this test. Without the linter: skip.
set -u
. "$(dirname "$0")/lib.sh"
lint=${WG_ACTION_VALIDATOR:-}
[ -n "$lint" ] || lint=$(command -v action-validator 2>/dev/null)
[ -n "$lint" ] || lint=$WG_BUILD/npm/node_modules/.bin/action-validator
[ -x "$lint" ] || e2e_skip "SKIP: no action-validator (make deps-lint installs it from npm)"
command -v node >/dev/null 2>&1 || e2e_skip "SKIP: no node"
n=0
for f in "$WG_ROOT"/.github/workflows/*.yml "$WG_ROOT"/.github/workflows/*.yaml; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	"$lint" "$f" > "$tmp/out" 2>&1 || bad "${f#$WG_ROOT/}: $(head -c 2000 "$tmp/out")"
done
[ $n -ge 1 ] || bad "no workflow in .github/workflows"
# The documented matrix: the ```yaml block of docs/workflows.md.
awk '/^```yaml$/ { on = 1; next } /^```$/ { if (on) exit } on' \
	"$WG_ROOT/docs/workflows.md" > "$tmp/doc.yml"
grep -q '^jobs:' "$tmp/doc.yml" || bad "no workflow found in docs/workflows.md"
"$lint" "$tmp/doc.yml" > "$tmp/out" 2>&1 || bad "docs/workflows.md's workflow: $(head -c 2000 "$tmp/out")"
# The linter does reject: "step:" for "steps:".
sed 's/^    steps:/    step:/' "$WG_ROOT/.github/workflows/ci.yml" > "$tmp/broken.yml"
"$lint" "$tmp/broken.yml" > "$tmp/out" 2>&1 && bad "a broken workflow passed the linter"
grep -q "Additional property 'step' is not allowed" "$tmp/out" ||
	bad "the linter's complaint: $(head -c 500 "$tmp/out")"
echo "checked $n workflows and the documented one with $lint"
exit $fail
