#!/bin/sh
# Refuses a unit test that names a path in a shared temporary folder
# ("/tmp/...", "/var/tmp/...", "/dev/shm/..."): a test's files go in the
# run folder (check_scratch(), tests/unit/wg_check.h), which the runner removes
# whatever the tests' fate. A bare "/tmp" (a working folder) is allowed.
# Usage: tests/unit/lint-scratch.sh FILE...  Exit 1 with the lines found.
if grep -n -e '"/tmp/' -e '"/var/tmp/' -e '"/dev/shm/' "$@"; then
	echo "a unit test names a path in a shared temporary folder:" \
	     "use check_scratch() (tests/unit/wg_check.h)"
	exit 1
fi
exit 0
