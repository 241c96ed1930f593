# Course workflows (issue 5): the JUnit and Gradescope exporters, batch
# grading of a class, the Gradescope autograder zip, student self-checks
# and the student kit. See docs/workflows.md.
#
#   make batch [CLASS=submissions] [BATCH_SUITE=hidden-tests]
#              [BATCH_OUT=build/batch] [JOBS=N] [BATCH_FLAGS=...]
#              [ROSTER=roster.csv] [ASSIGNMENT='Lab 3'] [V=1]
#                                             grade a class
#   make gradescope                           dist/autograder.zip
#   make selfcheck BIN=./a.out | SRC=dir      a student's check (public tests)
#   make student-kit                          dist/warpgrade-student.tar.gz


.PHONY: batch gradescope selfcheck student-kit

# Exit 0 once graded, accepted or not (./selfcheck's 1), so that a
# student's last line is the result, not make's "Error 1"; 2 and 3 fail.
SELFCHECK_SUITE ?= public-tests
# The same result as a page, in the student view (SELFCHECK_HTML= for none).
SELFCHECK_HTML  ?= $(B)/selfcheck.html
selfcheck: $(BUILD_BIN)/grade
	@SELFCHECK_GRADE=$(BUILD_BIN)/grade SELFCHECK_SUITE=$(SELFCHECK_SUITE) \
	    SELFCHECK_HTML="$(SELFCHECK_HTML)" \
	    sh student-kit/selfcheck BIN="$(BIN)" SRC="$(SRC)"; rc=$$?; [ $$rc -le 1 ]

# Batch grading. grade exits 1 when some student lost points: that is a
# normal gradebook, not a failed make.
# (grader/cli/module.mk's SUBMISSIONS is its list of sample directories, hence
# CLASS.)
CLASS       ?= submissions
BATCH_SUITE ?= hidden-tests
BATCH_OUT   ?= $(B)/batch
# The repository (the reference above all) is masked from the programs.
BATCH_FLAGS ?= --hide $(CURDIR)
batch: $(BUILD_BIN)/grade
	@$(BUILD_BIN)/grade --batch $(BATCH_SUITE) $(CLASS) --out $(BATCH_OUT) \
	    $(if $(JOBS),-j $(JOBS)) $(BATCH_FLAGS) $(if $(filter 1,$(V)),--verbose) \
	    $(if $(ROSTER),--roster "$(ROSTER)") $(if $(ASSIGNMENT),--assignment "$(ASSIGNMENT)"); \
	    rc=$$?; [ $$rc -le 1 ]

# The student kit: everything `grade` is built from, the handout and the
# public tests; student-kit/make-kit.sh refuses anything from reference/ or
# hidden-tests/. Always rebuilt (it takes a second).
KIT_OUT ?= dist/warpgrade-student.tar.gz
student-kit:
	@sh student-kit/make-kit.sh $(KIT_OUT) $(VERSION) "$(grade_SRCS)" \
	    "$(filter-out $(JANSSON_LIBS),$(LDLIBS_grade))"

# The Gradescope autograder: setup.sh, run_autograder and the warpgrade
# sources (with hidden-tests/) to build in the image.
GRADESCOPE_OUT ?= dist/autograder.zip
gradescope:
	@sh gradescope/make-zip.sh $(GRADESCOPE_OUT)

# `make bench-html`: a class of BENCH_HTML_STUDENTS (150) copies of the
# samples graded with --batch, then report.html's size and its load and
# render time in headless Chromium (tests/bench/bench-html.sh).
# Then a class of BENCH_HTML_LARGE (1,000), made from copies of the graded
# samples in seconds: its page's bytes and load times
# (tests/bench/bench-html-large.sh), and the browser test at that size
# (tests/e2e/test_html_scale.sh: sorting, filtering, a drill-down, no
# console error, under 8 MB), which make test runs at 20.
BENCH_HTML_STUDENTS ?= 150
BENCH_HTML_LARGE    ?= 1000
.PHONY: bench-html
bench-html: $(BUILD_BIN)/grade
	sh tests/bench/bench-html.sh $(B) $(BENCH_HTML_STUDENTS) hidden-tests 2
	sh tests/bench/bench-html-large.sh $(B) $(BENCH_HTML_LARGE) hidden-tests
	WG_BUILD=$(B) WG_ROOT=$(CURDIR) WG_HTML_STUDENTS=$(BENCH_HTML_LARGE) \
	    WG_HTML_SUITE=$(CURDIR)/hidden-tests sh tests/e2e/test_html_scale.sh
