#!/bin/sh
# make deps: install the Debian packages the build needs that are missing.
# As root it runs apt-get; otherwise it prints the one command to run.
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all present:$(printf ' %s' "$@")"
	exit 0
fi
cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing:$missing"
	echo "deps: run as root:  $cmd"
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: apt-get not found; install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$cmd || { apt-get update && $cmd; }
