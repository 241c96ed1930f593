#ifndef WG_CHILD_GRADE_H
#define WG_CHILD_GRADE_H
/*
 * child_grade: a grade started by another grade, the one way both do it
 * (the batch, a grade per student; the suite report, a grade of the
 * wrong solutions): this very program (/proc/self/exe) with argv, that
 * dies with its parent (PR_SET_PDEATHSIG: even a SIGKILLed batch leaves
 * no grading behind; a parent gone before the prctl took is seen and the
 * child exits 127), stdin, stdout and stderr where the caller says, and the signal mask the caller had before blocking its own.
 *
 * Lifecycle: child_grade_start forks and execs; the caller waits for the
 * pid (waitpid) as it likes, and owns and closes out_fd and err_fd.
 *
 * Errors: -1 with errno when the fork failed; a failed exec is the
 * child's exit status 127, after a line on its stderr.
 */
#include <signal.h>
#include <sys/types.h>

struct child_grade {
	char *const *argv;       /* argv[0] is only the name shown */
	int in_fd;               /* the child's stdin (grade --serve's socket),
	                            or -1: /dev/null */
	int out_fd, err_fd;      /* the child's stdout and stderr: a descriptor
	                            of the caller's (1 or 2 keep the caller's
	                            own), or -1: /dev/null */
	int own_group;           /* a process group of its own (killed whole) */
	const sigset_t *mask;    /* the child's signal mask; NULL: inherited */
};

pid_t child_grade_start(const struct child_grade *cg);

#endif
