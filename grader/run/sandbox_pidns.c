/*
 * sandbox_pidns: the slot's PID namespaces (sandbox.h, "PID namespace").
 * The keeper makes a holder namespace A, whose init only keeps it alive
 * and reaps, and inside it the slot's namespace B, whose init mounts the
 * slot's /proc (hidepid where the kernel has it); programs and the
 * spawner live in B. After a run with more than one process B is made
 * anew (sbx_pid_renew), so that no case can read another's forks in its
 * own pid; A, owned by the keeper's own user namespace, is what makes a
 * renewal possible without CAP_SYS_ADMIN.
 */
#include "grader/run/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/lib/util.h"

static void on_chld(int sig)
{
	(void)sig;
}

/* pid 1 of a PID namespace (the slot's, or the holder's): it only reaps
 * the orphans the kernel hands it, and exits when the keeper is gone or
 * lets it go (its end of the life pipe closes; PR_SET_PDEATHSIG alone
 * could miss a keeper that dies before the init has set it, and getppid()
 * reads 0 across the namespace either way). Then the kernel kills every
 * process of the namespace. Every other descriptor is closed first: a
 * copy of a private area's root would keep a detached tmpfs (and what a
 * program left in it) alive. */
static __attribute__((noreturn)) void pid_init(int life, const char *name)
{
	struct sigaction sa;
	sigset_t chld, none;

	prctl(PR_SET_NAME, name, 0, 0, 0);
	sbx_close_others(life);
	/* An IPC namespace of its own: the slot's, which the keeper renews
	 * after a run that left SysV objects, must then have no one left to
	 * keep it alive. */
	unshare(CLONE_NEWIPC);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	for (;;) {
		struct pollfd pf = { life, POLLIN, 0 };

		sbx_reap_ended();
		/* SIGCHLD is let in only while waiting: none is lost. */
		if (ppoll(&pf, 1, NULL, &none) > 0)
			_exit(0);
	}
}

/* The slot's own /proc, of this namespace: no other process of the
 * machine (another slot's, grade's) to list or read; subset=pid leaves
 * out /proc/sys and the like. hidepid=invisible hides the namespace's own
 * helpers too, this init and the spawner: root's, and a program under a
 * slot uid must not read them, for the spawner's /proc/2/stat adds up the
 * page faults and CPU times of every program it reaped, a counter one
 * case could set and a later one read (a channel for hidden inputs).
 * Each option is tried only where the kernel takes it. 1 when mounted. */
static int mount_slot_proc(void)
{
	static const char *const opts[] = {
		"hidepid=invisible,subset=pid", "hidepid=2,subset=pid", "subset=pid", NULL,
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(*opts); i++)
		if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  opts[i]) == 0)
			return i < 2 ? 2 : 1;
	return 0;
}

/* ---- the PID namespaces ----
 *
 * A PID namespace for the slot's programs: kill(-1) and every other signal
 * they send reach only each other, never grade, the keeper or the rest of
 * the user's session (which matters most where they run under the
 * caller's own uid). The keeper stays outside; its children go in.
 *
 * Renewal. The namespace's pid counter is the one thing of it that a run
 * moves by more than one only when it forks, and the next run reads it
 * back in its own pid. So after a run that may have forked (a process
 * limit above 1) the keeper makes the namespace anew (sbx_pid_renew).
 *
 * Two levels. unshare(CLONE_NEWPID) works only while a process's children
 * go into its own namespace, and the keeper's go into the slot's. Going
 * back (setns) needs CAP_SYS_ADMIN over the owner of the keeper's own
 * namespace, the host's user namespace, which a keeper in a user
 * namespace of its own (root without CAP_SYS_ADMIN, a normal user) lacks.
 * So at setup the keeper makes a namespace A, owned by its user
 * namespace, whose pid 1, the holder ("grade-holder"), only reaps and
 * keeps A alive; each slot namespace B is made inside A:
 *
 *   keeper: setns(A), clone a helper (active in A, so free to unshare;
 *     CLONE_VM | CLONE_VFORK: the keeper waits, nothing is copied);
 *   helper: unshare(CLONE_NEWPID), clone(CLONE_PARENT) the init, _exit;
 *   init (pid 1 of B, the keeper's child): mounts B's /proc and sends
 *     the keeper what that gave and B's descriptor (SCM_RIGHTS; the
 *     kernel adds its pid as the keeper sees it, SCM_CREDENTIALS);
 *   keeper: setns(B): its children (the spawner, the programs) go there.
 *
 * With CLONE_PARENT the init is the keeper's child, as it was without a
 * holder: the keeper ends it by closing its life pipe and reaps it, and
 * so knows the old namespace is gone (the kernel killed what was left)
 * before the next run. Nothing of a program reaches the holder or A: a
 * program sees B alone (B's /proc, B's kill(-1)), and the holder holds no
 * descriptor but its life pipe. A's counter moves with every renewal and
 * every process of B (each has a pid in A too), which only the keeper
 * sees. Root with CAP_SYS_ADMIN goes the same way, one path for every
 * mode: a renewal cost ~0.8 ms where going back to the keeper's own
 * namespace (root only) cost ~0.7 ms on the VM measured. */

/* The holder, pid 1 of the namespace A the keeper's children go into
 * (made just before); k->holder and k->holder_life are set. 0, or -1
 * with errno. */
static int start_holder(struct keeper *k)
{
	int life[2], e;
	pid_t pid;

	if (pipe2(life, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		/* This process is a fork of grade: its command line names
		 * the suite, the submissions, the reports. */
		wg_blank_args();
		pid_init(life[0], "grade-holder");
	}
	e = errno;
	close(life[0]);
	if (pid < 0) {
		close(life[1]);
		errno = e;
		return -1;
	}
	k->holder = pid;
	k->holder_life = life[1];
	return 0;
}

struct init_args {
	int life, sock;
};

/* pid 1 of a new slot namespace: mounts its /proc, sends the keeper what
 * that gave with the namespace's descriptor, then only reaps. */
static int slot_init(void *arg)
{
	const struct init_args *a = arg;
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
	char ok;
	struct iovec iov = { &ok, 1 };
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	int ns;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	wg_blank_args();
	ok = (char)mount_slot_proc();
	/* Through the host's /proc, which sees this process whatever the
	 * mount gave. */
	if ((ns = sbx_proc_open("self/ns/pid", O_RDONLY | O_CLOEXEC)) < 0)
		_exit(1);
	memset(&u, 0, sizeof(u));
	c = CMSG_FIRSTHDR(&h);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &ns, sizeof(int));
	if (sendmsg(a->sock, &h, MSG_NOSIGNAL) != 1)
		_exit(1);
	pid_init(a->life, "grade-init");
}

/* The stacks of the helper, which shares the keeper's memory while the
 * keeper waits (CLONE_VM | CLONE_VFORK: no copy of its page tables), and
 * of the init, which runs on its own copy of its stack. */
static char helper_stack[16 * 1024] __attribute__((aligned(16)));
static char init_stack[64 * 1024] __attribute__((aligned(16)));

/* Active in the holder's namespace, so free to make one, and the init of
 * it; CLONE_PARENT makes the init the keeper's child, not this short-lived
 * helper's. The exit status is an errno, or 0. */
static int slot_helper(void *arg)
{
	if (unshare(CLONE_NEWPID) < 0)
		return errno;
	if (clone(slot_init, init_stack + sizeof(init_stack), CLONE_PARENT | SIGCHLD,
		  arg) < 0)
		return errno;
	return 0;
}

/* A new slot namespace B inside the holder's and its init (the theory
 * above): the keeper's children go into B from here on, k->init and
 * k->life are set. 0 with *proc what mount_slot_proc gave, or -1 with
 * errno (the keeper's children may then go into A: no run may start). */
static int start_slot_ns(struct keeper *k, char *proc)
{
	union {
		char buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	int life[2] = { -1, -1 }, sv[2] = { -1, -1 }, on = 1, ns = -1, st = 0, e;
	struct ucred cred = { 0, 0, 0 };
	char ok = 0;
	struct iovec iov = { &ok, 1 };
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	struct init_args a;
	ssize_t n;
	pid_t helper;

	if (setns(k->holder_ns, CLONE_NEWPID) < 0 || pipe2(life, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0 ||
	    setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0)
		goto fail;
	a.life = life[0];
	a.sock = sv[1];
	helper = clone(slot_helper, helper_stack + sizeof(helper_stack),
		       CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
	if (helper < 0)
		goto fail;
	close(life[0]);
	close(sv[1]);
	life[0] = sv[1] = -1;
	while (waitpid(helper, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		errno = WIFEXITED(st) ? WEXITSTATUS(st) : ECHILD;
		goto fail;
	}
	/* The helper is gone: EOF here means the init died first. */
	do
		n = recvmsg(sv[0], &h, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	for (c = n > 0 ? CMSG_FIRSTHDR(&h) : NULL; c; c = CMSG_NXTHDR(&h, c)) {
		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if (c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&ns, CMSG_DATA(c), sizeof(int));
		else if (c->cmsg_type == SCM_CREDENTIALS &&
			 c->cmsg_len == CMSG_LEN(sizeof(cred)))
			memcpy(&cred, CMSG_DATA(c), sizeof(cred));
	}
	if (n != 1 || ns < 0 || cred.pid <= 0) {
		errno = n < 0 ? errno : EPROTO;
		goto fail;
	}
	if (setns(ns, CLONE_NEWPID) < 0)
		goto fail;
	close(ns);
	close(sv[0]);
	k->init = cred.pid;
	k->life = life[1];
	*proc = ok;
	return 0;
fail:
	e = errno;
	if (ns >= 0)
		close(ns);
	for (int i = 0; i < 2; i++) {
		if (sv[i] >= 0)
			close(sv[i]);
		if (life[i] >= 0)
			close(life[i]);
	}
	/* Its life pipe closed, an init that was started ends. */
	if (cred.pid > 0)
		while (waitpid(cred.pid, NULL, 0) < 0 && errno == EINTR)
			;
	errno = e;
	return -1;
}

/* Ends the slot's init (and so its namespace) and reaps it. */
static void end_init(struct keeper *k)
{
	if (k->init <= 0)
		return;
	close(k->life);
	k->life = -1;
	while (waitpid(k->init, NULL, 0) < 0 && errno == EINTR)
		;
	k->init = 0;
}

void sbx_start_pid_ns(struct keeper *k)
{
	char ok = 0;

	if (unshare(CLONE_NEWPID) < 0) {
		sbx_note(&k->L, "no PID namespace (%s)", strerror(errno));
		return;
	}
	if (start_holder(k) < 0) {
		sbx_note(&k->L, "no PID namespace: cannot start its holder (%s)",
			 strerror(errno));
		return;
	}
	/* A, where the keeper's children go now. */
	k->holder_ns = sbx_proc_open("self/ns/pid_for_children", O_RDONLY | O_CLOEXEC);
	if (k->holder_ns < 0 || start_slot_ns(k, &ok) < 0) {
		/* The programs go into A, the holder's, never renewed. */
		sbx_note(&k->L, "no PID namespace: cannot make the slot's (%s)",
			 strerror(errno));
		if (k->holder_ns >= 0)
			close(k->holder_ns);
		k->holder_ns = -1;
		return;
	}
	k->proc_level = ok;
	k->proc_mounted = ok > 0;
	if (ok)
		k->L.private_proc = 1;
	else
		sbx_note(&k->L, "no /proc of the slot's own: programs see the host's");
	if (ok == 1)
		sbx_note(&k->L, "no hidepid for the slot's /proc: programs can read "
			 "its init's and spawner's statistics");
	k->L.pid_ns = 1;
}

int sbx_pid_renew(struct keeper *k, char *err, size_t len)
{
	char ok = 0;

	/* The spawner first: the old init's exit waits for its zombie. Then
	 * the init, and with it (the kernel's doing) whatever the last run
	 * left in the namespace. */
	sbx_stop_spawner(k);
	end_init(k);
	/* The old /proc shows the old namespace (empty now); the new init
	 * mounts its own in its place, with the same options. */
	if (k->proc_mounted && umount2("/proc", MNT_DETACH) < 0) {
		snprintf(err, len, "cannot renew the slot's PID namespace: cannot "
			 "detach its /proc: %s", strerror(errno));
		return -1;
	}
	k->proc_mounted = 0;
	if (start_slot_ns(k, &ok) < 0) {
		snprintf(err, len, "cannot renew the slot's PID namespace: %s",
			 strerror(errno));
		return -1;
	}
	k->proc_mounted = ok > 0;
	if (ok < k->proc_level) {
		snprintf(err, len, "cannot renew the slot's PID namespace: cannot "
			 "mount its /proc as before");
		return -1;
	}
	if (k->spawner_wanted) {
		sbx_start_spawner(k);
		if (k->spawner < 0) {
			snprintf(err, len, "cannot renew the slot's PID namespace: "
				 "cannot start its spawner");
			return -1;
		}
	}
	k->pid_dirty = 0;
	return 0;
}

void sbx_pid_close(struct keeper *k)
{
	end_init(k);
	if (k->holder > 0) {
		close(k->holder_life);
		k->holder_life = -1;
		while (waitpid(k->holder, NULL, 0) < 0 && errno == EINTR)
			;
		k->holder = 0;
	}
	if (k->holder_ns >= 0)
		close(k->holder_ns);
	k->holder_ns = -1;
}
