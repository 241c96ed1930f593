#!/bin/sh
# The committed suites are what the reference prints: suite-lint accepts
# public-tests/ and hidden-tests/, and for every case the reference's output
# on NAME.in equals the committed NAME.out byte for byte (the generated
# big-* cases: equals their committed hash). A failure names the
# case; `make regen` rewrites the .out files after an intended change.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
bin=$WG_BUILD/bin
for p in reference suite-lint; do
	if [ ! -x "$bin/$p" ]; then
		echo "$bin/$p is not built"
		exit 1
	fi
done

status=0
"$bin/suite-lint" "$root/public-tests" "$root/hidden-tests" || status=1
count=0
for dir in public-tests hidden-tests; do
	for in in "$root/$dir"/*.in; do
		[ -e "$in" ] || continue
		out=${in%.in}.out
		case=$dir/$(basename "$in" .in)
		count=$((count + 1))
		if ! grep -q "\"name\": \"$(basename "$in" .in)\"" "$root/$dir/suite.json"; then
			echo "FAIL $case: $(basename "$in") is not a case of $dir/suite.json"
			status=1
		elif ! timeout 10 "$bin/reference" <"$in" >"$tmp/got" 2>"$tmp/err"; then
			echo "FAIL $case: the reference failed: $(head -c 200 "$tmp/err")"
			status=1
		elif [ ! -f "$out" ]; then
			echo "FAIL $case: no committed $(basename "$out")"
			status=1
		elif ! cmp -s "$tmp/got" "$out"; then
			echo "FAIL $case: the reference's output differs from the committed .out:"
			diff "$out" "$tmp/got" | head -n 10
			status=1
		fi
	done
done
[ $count -gt 0 ] || { echo "no cases found under $root"; exit 1; }

# The generated cases (big-*, not committed) are the ones whose hashes are
# committed: the generator and the reference still write them byte for
# byte, and the hashes name exactly the cases tests/gen-cases.py makes.
if command -v python3 > /dev/null 2>&1; then
	names=$(python3 "$root/tests/gen-cases.py" --big-names)
	listed=$(sed -n 's/^[0-9a-f]*  \(.*\)\.in$/\1/p' "$root/hidden-tests/generated.sha256")
	[ "$names" = "$listed" ] ||
		{ echo "FAIL: hidden-tests/generated.sha256 lists other cases than gen-cases.py --big-names"; status=1; }
fi
if ! (cd "$root/hidden-tests" && sha256sum --check --quiet --strict generated.sha256); then
	echo "FAIL: the generated cases differ from hidden-tests/generated.sha256"
	status=1
fi
[ $status -eq 0 ] && echo "$count cases match the reference"
exit $status
