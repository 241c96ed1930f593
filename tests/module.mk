# Unit tests (Check), bounded helper programs, end-to-end scripts, fuzzing.

CHECK_SRCS   := $(filter-out tests/unit/check_main.c,$(wildcard tests/unit/check_*.c))
CHECK_NAMES  := $(patsubst tests/unit/check_%.c,%,$(CHECK_SRCS))
CHECK_RUNNER := $(B)/tests/check_warpgrade
# What several unit tests share: fixture reports, a failing allocator,
# case files for judge_case().
CHECK_AUX    := tests/unit/report_fixture.c tests/unit/failalloc.c tests/unit/case_fixture.c

# Helpers are built without sanitizers: they run under rlimits (address
# space above all) that an ASan runtime could not start in.
HELPER_CFLAGS := -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra
HELPER_SRCS   := $(wildcard tests/helpers/*.c)
HELPERS       += $(patsubst tests/helpers/%.c,$(B)/helpers/%,$(HELPER_SRCS))

$(B)/helpers/%: tests/helpers/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(LOGCMD) $(CC) $(HELPER_CFLAGS) -o $@ $<

helpers: $(HELPERS)

# Written when the list of tests/unit/check_*.c changes, a deleted file too
# (its prerequisites alone would not notice).
$(B)/gen/check_suites.h: FORCE
	@mkdir -p $(@D)
	@printf 'WG_SUITE(%s)\n' $(CHECK_NAMES) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(call obj,tests/unit/check_main.c $(CHECK_SRCS)): $(B)/gen/check_suites.h
$(B)/obj/tests/%.o: ALL_CFLAGS += $(CHECK_CFLAGS) -I$(B)/gen

$(CHECK_RUNNER): $(call obj,tests/unit/check_main.c $(CHECK_SRCS) $(CHECK_AUX) $(LIB_SRCS))
	@mkdir -p $(@D)
	@$(LOGCMD) $(CC) $(CFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(JANSSON_LIBS)

# The tests' stderr (the messages negative tests expect) goes to
# CHECK_LOG, shown when a test fails. The runner's TMPDIR is a fresh
# folder (searchable by the test uids), which must be empty afterwards:
# every test's files lie in the runner's run folder (tests/unit/check_main.c),
# and no test names a path of its own in /tmp (tests/unit/lint-scratch.sh).
CHECK_LOG := $(B)/tests/check-unit.log
check-unit: $(CHECK_RUNNER) $(HELPERS) $(BINS)
	@sh tests/unit/lint-scratch.sh tests/unit/*.c
	@rm -f $(CHECK_LOG)
	@t=$$(mktemp -d) && chmod 0711 "$$t" || exit 1; \
	WG_BUILD=$(B) WG_CHECK_LOG=$(CHECK_LOG) TMPDIR="$$t" $(CHECK_RUNNER); \
	rc=$$?; left=$$(ls -A "$$t"); rm -rf "$$t"; \
	if [ -n "$$left" ]; then \
	    echo "check-unit: the tests left in their TMPDIR: $$left"; exit 1; fi; \
	[ $$rc -eq 0 ] || \
	    { echo "check-unit: failed; the tests' stderr: $(CHECK_LOG)"; \
	      tail -n 20 $(CHECK_LOG); exit 1; }

# The kill-matrix driver of the wrong solutions (tests/killmatrix.c): runs
# programs on suite cases and judges them with the grader's comparison.
# It reads suite.json with the grader's own loader.
KILLMATRIX := $(B)/tests/killmatrix
$(KILLMATRIX): $(call obj,tests/killmatrix.c grader/judge/compare.c \
                 grader/judge/suite.c grader/judge/suite_locate.c \
                 grader/lib/strbuf.c)
	@mkdir -p $(@D)
	@$(LOGCMD) $(CC) $(CFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS)

# E2E="name ..." runs only the scripts whose names hold one of the words.
test-e2e: $(BINS) $(HELPERS) $(KILLMATRIX)
	WG_BUILD=$(B) sh tests/run-e2e.sh $(E2E)

test: check-unit test-e2e

# Fuzzing the reference's line processor with libFuzzer (clang).
FUZZ_SECONDS ?= 60
FUZZ_BIN     := $(B)/fuzz/fuzz_reference
$(FUZZ_BIN): tests/fuzz/fuzz_reference.c $(REF_LIB_SRCS) $(wildcard reference/*.h)
	@mkdir -p $(@D)
	clang -std=c11 -D_GNU_SOURCE -I. -g -O1 \
	    -fsanitize=fuzzer,address,undefined -o $@ \
	    tests/fuzz/fuzz_reference.c $(REF_LIB_SRCS)

# Seeds: every suite input. Prints the run's figures (executions, coverage)
# and fails on any crash or sanitizer report.
fuzz: $(FUZZ_BIN)
	@mkdir -p $(B)/fuzz/corpus $(B)/fuzz/seeds
	@cp public-tests/*.in tests/data/*.in $(B)/fuzz/seeds/ 2>/dev/null || true
	@# (not the generated big-* cases: megabytes past -max_len)
	@find hidden-tests -name '*.in' ! -name 'big-*' -exec cp {} $(B)/fuzz/seeds/ \;
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=5 \
	    -rss_limit_mb=1024 -print_final_stats=1 \
	    -artifact_prefix=$(B)/fuzz/ $(B)/fuzz/corpus $(B)/fuzz/seeds \
	    > $(B)/fuzz/last.log 2>&1; rc=$$?; \
	    grep -E '^stat::number_of_executed_units|^stat::peak_rss|cov:' \
	        $(B)/fuzz/last.log | tail -n 3; \
	    if [ $$rc -ne 0 ]; then tail -n 40 $(B)/fuzz/last.log; exit 1; fi

# The differential fuzzer of the mutation set (tests/wrong/fuzz-wrong.py):
# random contract-conforming programs and targeted edges until every wrong
# solution has differed from the reference (and student.c never has), at
# most FUZZ_WRONG_SECONDS. FUZZ_WRONG_FLAGS="--minimize --seed N" writes
# reduced distinguishing inputs to $(B)/fuzz-wrong/witness/.
FUZZ_WRONG_SECONDS ?= 300
FUZZ_WRONG_FLAGS   ?=
.PHONY: fuzz-wrong
fuzz-wrong: $(BUILD_BIN)/reference $(KILLMATRIX)
	python3 tests/wrong/fuzz-wrong.py --reference $(BUILD_BIN)/reference \
	    --killmatrix $(KILLMATRIX) --build $(B)/fuzz-wrong \
	    --seconds $(FUZZ_WRONG_SECONDS) $(FUZZ_WRONG_FLAGS)
fuzz: fuzz-wrong

# The whole kill matrix of tests/wrong/ against hidden-tests/: solutions per
# family, each one's killing cases, the fewest kills, cases that kill nothing.
.PHONY: wrong-matrix
wrong-matrix: $(BUILD_BIN)/reference $(KILLMATRIX)
	WG_WRONG_ALL=1 WG_BUILD=$(B) sh tests/e2e/test_wrong_solutions.sh

# The same for the blind set, tests/wrong-blind/ (test_wrong_blind.sh).
.PHONY: blind-matrix
blind-matrix: $(BUILD_BIN)/reference $(KILLMATRIX)
	WG_WRONG_ALL=1 WG_BUILD=$(B) sh tests/e2e/test_wrong_blind.sh

# CI's bounded smoke run.
fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=30 FUZZ_WRONG_SECONDS=120

# The mutation check of the grader's own code (tests/mutate/mutations.txt,
# tests/mutate/mutate-grader.py): each one-line slip of the list applied in
# a scratch copy of the tree (a temporary folder with its own build), built,
# and the tests run until one fails: the entry's named tests first, then
# every Check suite and the fast e2e scripts. Prints a line per mutation
# and "N caught, N survived"; fails on a survivor (or a stale entry). Not
# part of `make test`: it builds once per mutation (about 8 min for the 57
# entries on the 2-core machine, each caught by its named tests; a
# survivor costs every suite and the fast e2e scripts, about a minute).
# MUTATE="word..." runs only the entries whose ids hold a word.
.PHONY: mutate-grader
mutate-grader:
	python3 tests/mutate/mutate-grader.py $(MUTATE)
