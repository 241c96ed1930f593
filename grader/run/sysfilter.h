#ifndef WG_SYSFILTER_H
#define WG_SYSFILTER_H

/*
 * sysfilter: the system calls a graded program (and the compiler) may not
 * make, as a seccomp BPF filter the sandbox's child installs just before
 * exec (after PR_SET_NO_NEW_PRIVS). Each refused call fails with an errno,
 * as a kernel without the feature would, and the program goes on.
 *
 * What it closes, each a channel from one case to a later one (or out of
 * the slot) that no namespace resets, all found by attacking the sandbox:
 *   keyrings       add_key, keyctl, request_key: the user keyring belongs
 *                  to the uid and outlives every run (EPERM)
 *   SysV IPC       shm*, sem*, msg*: even made and removed again, a new id
 *                  carries the sequence number (EPERM)
 *   sockets        socket() of any family but AF_UNIX: the network
 *                  namespace's counters (/proc/net/snmp) count failed sends
 *                  (EAFNOSUPPORT)
 *   namespaces     unshare, setns, clone with CLONE_NEW*, clone3 (ENOSYS,
 *                  so libc falls back to clone), mount, umount2,
 *                  pivot_root: a program gets no namespace or mount of its
 *                  own (EPERM)
 *   mount ids      statmount, listmount, name_to_handle_at, statx asking
 *                  STATX_MNT_ID_UNIQUE: a unique mount id is a machine-wide
 *                  count, and a slot's mounts that outlive a grading (grade
 *                  --serve's) would give a program a point to count the
 *                  mounts of the gradings before it from (EPERM)
 *   the rest       bpf, perf_event_open, userfaultfd, io_uring_* (whose
 *                  operations this filter would not see), kexec, keyring
 *                  and module calls (EPERM)
 * Calls of another ABI (i386 int 0x80, x32) kill the process: the filter
 * knows this one's numbers only.
 *
 * This exercise needs none of them; nor does a C compiler.
 *
 * Errors: cannot fail (NULL: no filter for this machine's ABI).
 */

#include <linux/filter.h>

/* The filter for this machine's ABI, or NULL where it is not known (the
 * sandbox then says "no seccomp filter"). Static, never freed. */
const struct sock_fprog *sysfilter_program(void);

#endif
