# grader/cli: the grade program: its command line, single grading and
# batch grading of a class; and the make targets of the course workflows
# (workflows.mk).
GRADER_CLI_SRCS := grader/cli/options.c grader/cli/guard.c grader/cli/engine.c grader/cli/serve.c \
                   grader/cli/child_grade.c \
                   grader/cli/batch.c \
                   grader/cli/batch_options.c grader/cli/batch_students.c \
                   grader/cli/batch_resume.c grader/cli/batch_sched.c grader/cli/batch_workers.c \
                   grader/cli/batch_progress.c grader/cli/batch_out.c \
                   grader/cli/batch_gradebook.c grader/cli/batch_summary.c \
                   grader/cli/batch_lms.c grader/cli/batch_pages.c \
                   grader/cli/batch_rows.c
# --shard K/N: which students a shard grades (shard.h).
GRADER_CLI_SRCS += grader/cli/shard.c
# --merge OUT...: the shards' outputs into one gradebook (batch_merge.c).
GRADER_CLI_SRCS += grader/cli/batch_merge.c
# grade --suite-report: wrong solutions against a suite (suitereport_cmd.h).
GRADER_CLI_SRCS += grader/cli/suitereport_cmd.c
# grade --check-env: what is in force here (checkenv.h); the paths no
# program may read, for the read probe (secrets.h).
GRADER_CLI_SRCS += grader/cli/checkenv.c grader/cli/secrets.c
# grade --similarity: which students share code (similarity_cmd.h).
GRADER_CLI_SRCS += grader/cli/similarity_cmd.c grader/cli/similarity_conf.c \
                   grader/cli/batch_similarity.c
GRADER_LIB_SRCS += $(GRADER_CLI_SRCS)
LIB_SRCS        += $(GRADER_CLI_SRCS)

PROGS += grade
grade_SRCS   = grader/cli/grade.c $(GRADER_LIB_SRCS)
LDLIBS_grade = $(JANSSON_LIBS) -lpthread -lm

# `make grade`: build everything, then grade every sample submission
# (GRADE_CLASS=submissions: each folder one student) against the hidden suite as a batch
# into GRADE_OUT: one line per submission, the class summary and where the
# details are (each one's whole report in GRADE_OUT/logs/, its page in
# GRADE_OUT/students/, the class page GRADE_OUT/report.html). V=1 prints
# the compiler's command lines and every submission's whole report too.
# Unchanged submissions are not graded again (grade --batch's resume).
# Exit 0 or 1 (some samples are wrong on purpose) both count as success;
# 2 or 3 fail the target.
GRADE_JOBS  ?= 2
GRADE_OUT   ?= $(B)/grade
GRADE_CLASS ?= submissions
# The staff's view; and the whole repository (the reference above all) is
# masked from the programs, as well as the suite and the submissions.
GRADE_FLAGS ?= --staff --hide $(CURDIR)
SUBMISSIONS  = $(patsubst %/,%,$(sort $(wildcard submissions/*/)))
.PHONY: grade bench-grade
grade: all
	@$(BUILD_BIN)/grade --batch hidden-tests $(GRADE_CLASS) --out $(GRADE_OUT) \
	    -j $(GRADE_JOBS) $(GRADE_FLAGS) $(if $(filter 1,$(V)),--verbose); \
	    rc=$$?; [ $$rc -le 1 ] || { echo "grade: exit status $$rc" >&2; exit $$rc; }

# `make bench-grade`: the grader's time per case against the spawn floor and
# a timeout+diff shell loop, and -j 1 against -j 2 (tests/bench/bench-grade.sh).
BENCH_ROUNDS ?= 10
bench-grade: $(BUILD_BIN)/grade $(BUILD_BIN)/reference $(B)/helpers/bench_spawn \
             $(B)/helpers/bench_layers
	sh tests/bench/bench-grade.sh $(B) hidden-tests $(BENCH_ROUNDS)
BENCH_TARGETS += bench-grade

# `make bench-memory`: grade's peak memory at 68 and 1,088 cases and with a
# 50 MB input, and the time per case of one 1,088-case submission against
# 16 of 68 (tests/bench/bench-memory.sh). `make bench-wrong`: a 1M-line
# answer right, wrong on every line and wrong on its last, against the
# program alone (tests/bench/bench-wrong.sh).
.PHONY: bench-memory bench-wrong
bench-memory: $(BUILD_BIN)/grade $(BUILD_BIN)/reference
	sh tests/bench/bench-memory.sh $(B) hidden-tests
bench-wrong: $(BUILD_BIN)/grade $(BUILD_BIN)/reference $(B)/helpers/bench_spawn
	sh tests/bench/bench-wrong.sh $(B)
BENCH_TARGETS += bench-memory bench-wrong
# `make bench-batch-memory`: a batch's peak memory and CPU at 25, 250 and
# 1,000 students (BENCH_BATCH_SIZES), beside the class's similarity alone
# (tests/bench/bench-batch-memory.sh).
BENCH_BATCH_SIZES ?= 25 250 1000
.PHONY: bench-batch-memory
bench-batch-memory: $(BUILD_BIN)/grade
	sh tests/bench/bench-batch-memory.sh $(B) "$(BENCH_BATCH_SIZES)" hidden-tests
BENCH_TARGETS += bench-batch-memory
# `make bench-batch`: a batch's time per student, each slot's students
# through one grade --serve against a grade process per student, at 25
# and 250 students (BENCH_BATCH_TIME_SIZES; tests/bench/bench-batch.sh).
BENCH_BATCH_TIME_SIZES ?= 25 250
.PHONY: bench-batch
bench-batch: $(BUILD_BIN)/grade
	sh tests/bench/bench-batch.sh $(B) "$(BENCH_BATCH_TIME_SIZES)" hidden-tests
BENCH_TARGETS += bench-batch
# guard.c hides the checkout grade was built from (its reference, hidden
# suite, samples and build tree) from the compiler, wherever grade runs.
$(call obj,grader/cli/guard.c): CPPFLAGS += -DWG_SRCDIR='"$(CURDIR)"' \
                                            -DWG_BUILDDIR='"$(abspath $(B))"'
