# grader/report: what grade writes. The JSON report and the private files
# it goes into (outfile.h), and the exporters that read the report: JUnit
# XML, Gradescope's results.json and the HTML page.
GRADER_REPORT_SRCS := grader/report/report.c grader/report/report_read.c \
                      grader/report/outfile.c \
                      grader/report/junit.c grader/report/gradescope.c \
                      grader/report/html.c grader/report/html_summary.c \
                      grader/report/html_suite.c grader/report/html_drill.c \
                      grader/report/html_similarity.c
# The suite report (grade --suite-report): the kill matrix of wrong solutions.
GRADER_REPORT_SRCS += grader/report/suitereport.c grader/report/suitereport_grade.c \
                      grader/report/suitereport_print.c
GRADER_LIB_SRCS += $(GRADER_REPORT_SRCS)
LIB_SRCS        += $(GRADER_REPORT_SRCS)
