# grader/judge: from a run to a verdict and points. Suites (suite.json +
# NAME.in/out) and their lint, the output comparison, the diff and its
# line map, the verdicts, the judging of a case and the score.
GRADER_JUDGE_SRCS := grader/judge/suite.c grader/judge/suite_locate.c grader/judge/compare.c grader/judge/diff.c \
                     grader/judge/linemap.c grader/judge/verdict.c grader/judge/judge.c \
                     grader/judge/score.c
GRADER_LIB_SRCS += $(GRADER_JUDGE_SRCS)
LIB_SRCS        += $(GRADER_JUDGE_SRCS)

PROGS += suite-lint
suite-lint_SRCS = grader/judge/suite_lint.c grader/judge/suite.c \
                  grader/judge/suite_locate.c grader/lib/strbuf.c
LDLIBS_suite-lint = $(JANSSON_LIBS)
