/*
 * sysfilter: the seccomp filter of the sandbox (see sysfilter.h).
 *
 * The program is classic BPF over struct seccomp_data, built once:
 *
 *   arch != this ABI              -> kill
 *   nr >= 0x40000000 (x32)        -> kill
 *   nr == socket                  -> AF_UNIX ? allow : EAFNOSUPPORT
 *   nr == clone                   -> CLONE_NEW* in flags ? EPERM : allow
 *   nr == clone3                  -> ENOSYS
 *   nr in the refused list        -> EPERM
 *   otherwise                     -> allow
 */
#include "grader/sysfilter.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define WG_AUDIT_ARCH AUDIT_ARCH_X86_64
#define WG_X32_BIT 0x40000000u
#elif defined(__aarch64__)
#define WG_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef WG_AUDIT_ARCH

/* Refused with EPERM. */
static const int refused[] = {
	SYS_add_key, SYS_keyctl, SYS_request_key,
#ifdef SYS_shmget
	SYS_shmget, SYS_shmat, SYS_shmdt, SYS_shmctl,
	SYS_semget, SYS_semop, SYS_semtimedop, SYS_semctl,
	SYS_msgget, SYS_msgsnd, SYS_msgrcv, SYS_msgctl,
#endif
	SYS_unshare, SYS_setns, SYS_mount, SYS_umount2, SYS_pivot_root,
	SYS_bpf, SYS_perf_event_open, SYS_userfaultfd,
	SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
	SYS_kexec_load, SYS_init_module, SYS_finit_module, SYS_delete_module,
#ifdef SYS_open_tree
	SYS_open_tree, SYS_move_mount, SYS_fsopen, SYS_fsmount, SYS_fsconfig,
	SYS_fspick,
#endif
};

#define CLONE_NEW_ANY (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | \
		       CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

#define NREFUSED (sizeof(refused) / sizeof(refused[0]))
#define MAXPROG (24 + 2 * NREFUSED)

static struct sock_filter prog[MAXPROG];
static struct sock_fprog fprog;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define STMT(c, k) ((struct sock_filter)BPF_STMT((c), (k)))
#define JUMP(c, k, t, f) ((struct sock_filter)BPF_JUMP((c), (k), (t), (f)))
#define LD(field) STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RET(v) STMT(BPF_RET | BPF_K, (v))
#define ERR(e) RET(SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))

static void build(void)
{
	unsigned n = 0;

	prog[n++] = LD(arch);
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, WG_AUDIT_ARCH, 1, 0);
	prog[n++] = RET(SECCOMP_RET_KILL_PROCESS);
	prog[n++] = LD(nr);
#ifdef WG_X32_BIT
	prog[n++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, WG_X32_BIT, 0, 1);
	prog[n++] = RET(SECCOMP_RET_KILL_PROCESS);
#endif
	/* socket: only AF_UNIX (args[0], its low 32 bits on little-endian). */
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 4);
	prog[n++] = LD(args[0]);
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1);
	prog[n++] = RET(SECCOMP_RET_ALLOW);
	prog[n++] = ERR(EAFNOSUPPORT);
	/* clone: no new namespace (its flags are args[0]). */
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
	prog[n++] = LD(args[0]);
	prog[n++] = JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEW_ANY, 0, 1);
	prog[n++] = ERR(EPERM);
	prog[n++] = RET(SECCOMP_RET_ALLOW);
	/* clone3 hides its flags in memory the filter cannot read. */
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
	prog[n++] = ERR(ENOSYS);
	for (size_t i = 0; i < NREFUSED; i++) {
		prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)refused[i], 0, 1);
		prog[n++] = ERR(EPERM);
	}
	prog[n++] = RET(SECCOMP_RET_ALLOW);
	fprog.len = (unsigned short)n;
	fprog.filter = prog;
}

const struct sock_fprog *sysfilter_program(void)
{
	pthread_once(&once, build);
	return &fprog;
}

#else

const struct sock_fprog *sysfilter_program(void)
{
	return NULL;
}

#endif
