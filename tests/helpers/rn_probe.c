/*
 * Runner test helper: report what the sandbox gave it, one "key: value"
 * line each: fds (open descriptors in 3..1023, or "none"), blocked and
 * ignored (signals, or "none"), pgid and sid equal to pid ("yes"/"no"),
 * uid, gid, groups (count), env (the environment, ';'-separated), cwd,
 * core, nofile, as (soft RLIMIT_CORE, RLIMIT_NOFILE, RLIMIT_AS; -1 for
 * unlimited), cpu (soft/hard RLIMIT_CPU).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

extern char **environ;

static long lim(int res, int hard)
{
	struct rlimit r;

	if (getrlimit(res, &r) < 0)
		return -2;
	rlim_t v = hard ? r.rlim_max : r.rlim_cur;
	return v == RLIM_INFINITY ? -1 : (long)v;
}

int main(void)
{
	sigset_t mask;
	struct sigaction sa;
	char cwd[4096];
	int any = 0, sig, fd;

	printf("fds:");
	for (fd = 3; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0) {
			printf(" %d", fd);
			any = 1;
		}
	printf("%s\n", any ? "" : " none");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	printf("blocked:");
	for (any = 0, sig = 1; sig < NSIG; sig++)
		if (sigismember(&mask, sig) == 1) {
			printf(" %d", sig);
			any = 1;
		}
	printf("%s\n", any ? "" : " none");
	printf("ignored:");
	for (any = 0, sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) {
			printf(" %d", sig);
			any = 1;
		}
	printf("%s\n", any ? "" : " none");
	printf("pgid: %s\n", getpgid(0) == getpid() ? "yes" : "no");
	printf("sid: %s\n", getsid(0) == getpid() ? "yes" : "no");
	printf("uid: %d\ngid: %d\ngroups: %d\n", (int)getuid(), (int)getgid(),
	       getgroups(0, NULL));
	printf("env:");
	for (char **e = environ; *e; e++)
		printf("%s%s", e == environ ? " " : ";", *e);
	printf("\ncwd: %s\n", getcwd(cwd, sizeof(cwd)) ? cwd : "?");
	printf("core: %ld\nnofile: %ld\nas: %ld\ncpu: %ld/%ld\n",
	       lim(RLIMIT_CORE, 0), lim(RLIMIT_NOFILE, 0), lim(RLIMIT_AS, 0),
	       lim(RLIMIT_CPU, 0), lim(RLIMIT_CPU, 1));
	return 0;
}
