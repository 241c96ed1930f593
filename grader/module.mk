# grade: the grading program (issue 3) and its library modules.
GRADE_SRCS := grader/verdict.c grader/compare.c grader/diff.c grader/scratch.c \
              grader/build.c grader/judge.c grader/score.c grader/report.c \
              grader/pool.c
GRADER_LIB_SRCS += $(GRADE_SRCS)
LIB_SRCS        += $(GRADE_SRCS)

PROGS += grade
grade_SRCS   = grader/grade.c $(GRADER_LIB_SRCS)
LDLIBS_grade = $(JANSSON_LIBS) -lpthread -lm
