#!/bin/sh
# Gradescope runs this once, as root, when it builds the autograder image;
# the zip is unpacked in /autograder/source. It installs what the build
# needs, builds warpgrade's grade, and closes the source tree (the hidden
# tests are in it) to every other user, the sandbox uids included.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	gcc libc6-dev make pkg-config libjansson-dev ca-certificates
make -C "$src/warpgrade" build/bin/grade
"$src/warpgrade/build/bin/grade" --version
chmod -R go-rwx "$src"
