#!/bin/sh
# make-kit.sh OUT VERSION "GRADE_SRCS" "GRADE_LIBS": builds the student kit
# tarball OUT from the repository root (the current directory): the grader's
# sources and headers, the handout, public-tests/ with its expected outputs,
# student-kit/'s Makefile, README, selfcheck script and Dockerfile, and
# tests/deps.sh (make deps). Nothing from reference/ or hidden-tests/ goes
# in, and the script checks that.
set -eu
out=$1 version=$2 srcs=$3 libs=$4
name=warpgrade-student

stage=$(mktemp -d "${TMPDIR:-/tmp}/kit.XXXXXX")
trap 'rm -rf "$stage"' EXIT
kit=$stage/$name
mkdir -p "$kit/grader" "$kit/public-tests"

for f in $srcs; do
	case "$f" in
	grader/*) mkdir -p "$kit/${f%/*}"; cp "$f" "$kit/$f" ;;
	*) echo "make-kit: '$f' is not a grader source; refusing to ship it" >&2
	   exit 1 ;;
	esac
done
for f in grader/*/*.h; do
	mkdir -p "$kit/${f%/*}"
	cp "$f" "$kit/$f"
done
for f in public-tests/*; do
	case "$f" in
	*.in|*.out|*/suite.json|*/HANDOUT.md) cp "$f" "$kit/public-tests/" ;;
	esac
done
[ -f public-tests/suite.json ] || { echo "make-kit: no public-tests/suite.json" >&2; exit 1; }
cp public-tests/HANDOUT.md "$kit/HANDOUT.md"
cp student-kit/Makefile student-kit/README.md student-kit/Dockerfile \
   student-kit/.dockerignore "$kit/"
cp student-kit/selfcheck "$kit/selfcheck"
cp tests/deps.sh "$kit/deps.sh"
chmod 755 "$kit/selfcheck"
{
	echo "# Written by make student-kit."
	echo "VERSION    := $version"
	echo "GRADE_SRCS := $(for f in $srcs; do printf '%s ' "$f"; done)"
	echo "GRADE_LIBS := $libs"
} > "$kit/sources.mk"

# A header may pull in a file from outside grader/ (the reference's model,
# say): the kit would not build, and that file must not be shipped anyway.
if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$kit"/grader/*/*.c "$kit"/grader/*/*.h | grep -v 'include "grader/'; then
	echo "make-kit: the grader includes files from outside grader/ (above)" >&2
	exit 1
fi
# Belt and braces: no file of the kit may have the content of a reference
# source or of a hidden test (compared by CRC and size; a hidden file equal
# to a public one, an empty .out say, is public).
secrets=$(find reference hidden-tests -type f 2>/dev/null | sort)
if [ -n "$secrets" ]; then
	# shellcheck disable=SC2086
	leaks=$( { find public-tests -type f -exec cksum {} + | sed 's/^/P /'
		   find "$kit" -type f -exec cksum {} + | sed 's/^/K /'
		   cksum $secrets | sed 's/^/S /'; } |
		awk '$1 == "P" { pub[$2 " " $3] = 1 }
		     $1 == "K" { kit[$2 " " $3] = $4 }
		     $1 == "S" && ($2 " " $3) in kit &&
			!(($4 ~ /^hidden-tests\//) && ($2 " " $3) in pub) {
			print kit[$2 " " $3] " has the content of " $4 }')
	if [ -n "$leaks" ]; then
		echo "make-kit: $leaks" >&2
		exit 1
	fi
fi

mkdir -p "$(dirname "$out")"
tar -C "$stage" --owner=0 --group=0 --numeric-owner --sort=name \
    -czf "$out.tmp" "$name"
mv "$out.tmp" "$out"
echo "student kit: $out ($(find "$kit" -type f | wc -l) files)"
