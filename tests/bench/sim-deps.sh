#!/bin/sh
# make deps-similarity: the anchors of make bench-similarity. SIM from
# Debian (similarity-tester, as root through tests/deps.sh); Dolos from npm
# into BUILD_DIR/simtools (its tree-sitter parsers are compiled here with
# node-gyp against the system's node headers: npm leaves install scripts
# off).   sh tests/bench/sim-deps.sh BUILD_DIR
set -u
B=$1
sh tests/deps.sh similarity-tester || echo "deps-similarity: SIM not installed"
if ! command -v npm >/dev/null; then
	echo "deps-similarity: no npm: Dolos not installed (apt-get install npm)"
	exit 0
fi
mkdir -p "$B/simtools"
(cd "$B/simtools" && npm install --no-audit --no-fund @dodona/dolos-lib@3.5.1) ||
	{ echo "deps-similarity: npm install failed: Dolos not installed"; exit 0; }
parsers=$B/simtools/node_modules/@dodona/dolos-parsers
nodedir=
[ -d /usr/include/node ] && nodedir=--nodedir=/usr
if [ -z "$(find "$parsers" -name '*.node' 2>/dev/null | head -n 1)" ]; then
	(cd "$parsers" && ../../.bin/node-gyp rebuild $nodedir) ||
		echo "deps-similarity: the Dolos parsers did not build: Dolos skipped"
fi
