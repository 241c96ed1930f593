#ifndef WG_RUNNER_H
#define WG_RUNNER_H

/*
 * runner: run one untrusted program under kernel-enforced limits, in the
 * spirit of git's run-command.
 *
 * Lifecycle
 *   1. struct run_child c = RUN_CHILD_INIT;   fill argv, input, limits...
 *   2. run_start(&c)      vforks; the child sets up its sandbox and execs.
 *                         run_start waits for that (the close-on-exec
 *                         status pipe reaching EOF, or a {stage, errno}
 *                         record) and returns 0, or -1 with c.res.error set
 *                         when the harness could not start it: pipe or fork
 *                         failure, or a sandbox step (chdir, setuid...)
 *                         failing in the child. After -1 there is no
 *                         process left and run_finish must not be called.
 *   3. run_finish(&c)     one poll loop feeds c.input (or c.input_path's
 *                         file, as it is read) to the child's stdin
 *                         and reads stdout and stderr together until the
 *                         child exits, the wall deadline passes or the
 *                         output cap is hit; kills the whole process group
 *                         (and, with a dedicated uid, every process of that
 *                         uid); reaps; drains the pipes for at most
 *                         RUN_DRAIN_MS, so a grandchild holding a pipe never
 *                         stalls grading.
 *   4. run_child_release(&c)  frees the captured output; also kills and
 *                         reaps a child that was started but not finished.
 *                         Release before starting the same struct again.
 *   run_command(&c) does 2 and 3; call run_child_release afterwards
 *   whatever it returned.
 *
 * Return convention (run_start, run_finish, run_command): 0 when a result
 * was measured, whatever the program did (exit code, signal, limits, and a
 * failed exec are all results); -1 when the harness itself failed, with
 * c.res.error holding a one-line lowercase message. The two are never
 * mixed: a -1 must be graded as an internal error, never against the
 * program.
 *
 * A failed exec (exec_stage "exec", e.g. ENOEXEC or EACCES on the program,
 * or ENOMEM when the address-space limit is too small for the binary) is a
 * result: run_finish returns 0 with exec_errno set and the child's exit
 * code 127; "cannot run: %s", strerror(exec_errno) describes it.
 *
 * File descriptors: run_start creates every pipe it needs (all close-on-exec
 * and numbered above 2 in the parent) and run_finish closes them; the caller
 * owns none of them. The child keeps only 0, 1 and 2.
 *
 * Signals: run_start sets SIGPIPE to SIG_IGN for the whole process (once),
 * so that a child closing its stdin makes our write fail with EPIPE instead
 * of killing the grader. The caller must not set SIGCHLD to SIG_IGN (the
 * kernel would then reap the child and its rusage would be lost). Nothing
 * else is installed: no handler, no SIGCHLD; the child's exit is seen
 * through a pidfd in the poll set (a 10 ms poll tick where the kernel has
 * none). Every function may be called from several threads at once, each on
 * its own struct run_child.
 *
 *
 * Namespaces, masks, private folders and cgroups are the sandbox's
 * (sandbox.h): a run with c.sbx set is started by that slot's keeper, which
 * calls run_spawn_local() below on its side.
 *
 * Cleanup sends SIGKILL; run_finish returns once the child is reaped and
 * its pipes are at EOF or RUN_DRAIN_MS have passed, so a killed descendant
 * may still be exiting for a moment after that.
 *
 * Errors: -1 and c->res.error (the return convention above); the other
 * functions cannot fail.
 */

#include "grader/run/spawn.h"

int run_start(struct run_child *c);
int run_finish(struct run_child *c);
int run_command(struct run_child *c);
void run_child_release(struct run_child *c);

#endif
