# Course workflows (issue 5): the JUnit and Gradescope exporters, batch
# grading of a class, the Gradescope autograder zip, student self-checks
# and the student kit. See docs/workflows.md.

GRADER_LIB_SRCS += grader/junit.c grader/gradescope.c grader/batch.c
LIB_SRCS        += grader/junit.c grader/gradescope.c grader/batch.c
