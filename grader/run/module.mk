# grader/run: running programs safely. The runner (fork, limits, exec,
# pump, kill, reap: runner.h), the per-slot sandbox (keeper, spawner and
# namespaces: sandbox.h), its cgroups and seccomp filter, the scratch tree,
# the worker pool, the build step and `grade --check-env`.
GRADER_RUN_SRCS := grader/run/runner.c grader/run/runner_pump.c grader/run/spawn.c grader/run/spawn_child.c \
                   grader/run/sandbox.c grader/run/sandbox_msg.c \
                   grader/run/sandbox_setup.c grader/run/sandbox_pidns.c grader/run/sandbox_prepare.c grader/run/sandbox_root.c \
                   grader/run/sandbox_keeper.c grader/run/sandbox_spawner.c \
                   grader/run/sandbox_uid.c grader/run/sandbox_sweep.c grader/run/sandbox_wait.c grader/run/sandbox_groups.c \
                   grader/run/cgroup.c \
                   grader/run/sysfilter.c grader/run/scratch.c grader/run/pool.c \
                   grader/run/build.c grader/run/readprobe.c
GRADER_LIB_SRCS += $(GRADER_RUN_SRCS)
LIB_SRCS        += $(GRADER_RUN_SRCS)
