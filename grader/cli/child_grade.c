/*
 * child_grade: a grade started by another (child_grade.h).
 */
#include "grader/cli/child_grade.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* fd onto target, or /dev/null where fd is -1. */
static void put_fd(int fd, int target, int null)
{
	if (fd < 0)
		fd = null;
	if (fd >= 0 && fd != target)
		dup2(fd, target);
}

pid_t child_grade_start(const struct child_grade *cg)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid != 0) {
		if (pid > 0 && cg->own_group)
			setpgid(pid, pid);      /* whichever of the two runs first */
		return pid;
	}
	int null = open("/dev/null", O_RDWR);

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	if (cg->own_group)
		setpgid(0, 0);
	put_fd(cg->in_fd, 0, null);
	put_fd(cg->out_fd, 1, null);
	put_fd(cg->err_fd, 2, null);
	if (cg->mask)
		sigprocmask(SIG_SETMASK, cg->mask, NULL);
	execv("/proc/self/exe", cg->argv);
	dprintf(2, "grade: cannot run '/proc/self/exe': %s\n", strerror(errno));
	_exit(127);
}
