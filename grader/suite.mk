# suite: loading and validating suite directories (suite.json + NAME.in/out).
GRADER_LIB_SRCS += grader/suite.c
LIB_SRCS        += grader/suite.c

PROGS += suite-lint
suite-lint_SRCS = grader/suite_lint.c grader/suite.c
LDLIBS_suite-lint = $(JANSSON_LIBS)
