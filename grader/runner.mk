# The runner: fork, sandbox, exec, pump, kill, reap (grader/runner.h).
GRADER_LIB_SRCS += grader/runner.c
LIB_SRCS += grader/runner.c
