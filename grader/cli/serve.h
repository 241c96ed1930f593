#ifndef WG_SERVE_H
#define WG_SERVE_H
/*
 * serve: grade --serve, a grader that grades one submission after another
 * through the same slots, their keepers started once (engine.h's
 * open/run/close). grade --batch runs one per -j slot and hands it its
 * students one at a time, instead of a grade process per student.
 *
 * The protocol, on standard input, which is a SOCK_SEQPACKET socket (one
 * message, one request; the answer goes back on it):
 *   request  SUBMISSION '\0' REPORT '\0', with one descriptor attached
 *            (SCM_RIGHTS): the log, which is the grader's stdout and
 *            stderr while it grades that submission
 *   answer   one byte: the exit status `grade OPTIONS --json REPORT
 *            SUITE_DIR SUBMISSION` would have ended with (usage.h), its
 *            report printed to the log and REPORT written as that grade
 *            writes them
 * End of file on the socket: the slots are closed, the scratch tree is
 * removed, and the grader exits 0. A request that is not of that form
 * ends it with exit status 2, a signal (SIGINT, SIGTERM, SIGHUP) with
 * that signal, once the run in flight has ended.
 *
 * The slots are opened at the first request (their messages go to its
 * log). SUBMISSION must lie in a folder of the hide list (--hide), as a
 * batch's students all do (engine_servable): the slots' hide list is made
 * once, for every submission to come. Between two submissions everything
 * the sandbox renews per case or program is renewed (sandbox.h): the
 * program is a new copy, the private folders, the PID and IPC namespaces
 * are made again whenever a run changed them.
 */
struct options;
struct suite;

/* The loop: an exit status (usage.h). */
int serve_main(const struct options *o, const struct suite *s);

#endif
