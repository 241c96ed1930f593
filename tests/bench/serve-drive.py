#!/usr/bin/env python3
"""serve-drive: times grade --serve (grader/cli/serve.h) over N requests
of one program, for make bench-grade: the program is copied into a
private folder that the grader hides (--hide), each request gets its own
log and report there, and the answers are checked (0 or 1: graded).
Prints "N NANOSECONDS" (from the first request to the last answer, the
grader's start excluded: it is paid once).

    serve-drive.py GRADE SUITE PROGRAM N
"""
import array
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def main():
    grade, suite, program, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    d = tempfile.mkdtemp(prefix="serve-drive.")
    try:
        os.chmod(d, 0o755)
        hidden = os.path.join(d, "subs")
        os.mkdir(hidden)
        os.chmod(hidden, 0o755)
        prog = os.path.join(hidden, "prog")
        shutil.copy(program, prog)
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        p = subprocess.Popen([grade, "--serve", "-q", "-j", "1", "--hide", hidden, suite],
                             stdin=b, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        b.close()
        t0 = None
        for i in range(n):
            log = os.open(os.path.join(d, "%d.log" % i), os.O_WRONLY | os.O_CREAT, 0o600)
            if t0 is None:
                t0 = time.monotonic_ns()
            a.sendmsg([prog.encode() + b"\0" + os.path.join(d, "%d.json" % i).encode() + b"\0"],
                      [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [log]))])
            os.close(log)
            answer = a.recv(1)
            if answer not in (b"\0", b"\1"):
                sys.exit("serve-drive: request %d answered %r" % (i, answer))
        t1 = time.monotonic_ns()
        a.close()
        if p.wait() != 0:
            sys.exit("serve-drive: grade --serve exited %d" % p.returncode)
        print(n, t1 - t0)
    finally:
        shutil.rmtree(d)


if __name__ == "__main__":
    main()
