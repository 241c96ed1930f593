#!/bin/sh
# Gradescope runs this once, as root, when it builds the autograder image;
# the zip is unpacked in /autograder/source. It installs what the build
# needs, builds warpgrade's grade, and closes the source tree (the hidden
# tests are in it) to every other user, the sandbox uids included; then
# prints the sandbox's account (grade --check-env).
set -eu
src=$(cd "$(dirname "$0")" && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	gcc libc6-dev make pkg-config libjansson-dev ca-certificates
make -C "$src/warpgrade" build/bin/grade
"$src/warpgrade/build/bin/grade" --version
chmod -R go-rwx "$src"
# The sandbox this image gives, in the image build log: the layers, what a
# program could read, and whether hidden tests may leak (grade --check-env,
# as run_autograder masks the tree). Said, not fatal: staff decide.
"$src/warpgrade/build/bin/grade" --check-env --hide "$src" "$src/warpgrade/hidden-tests" ||
	echo "setup.sh: grade --check-env exited $?: read the account above"
