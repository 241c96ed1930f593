# The committed suites (public-tests/, hidden-tests/): their expected outputs
# are the reference's output, regenerated with `make regen` and committed, so
# a change in canonical output shows up as a diff under review.
#   make gen-cases    rewrite every NAME.in and suite.json (tests/gen-cases.py)
#   make regen        rewrite every NAME.out from build/bin/reference, and
#                     hidden-tests/generated.sha256
#   make suite-limits re-measure the time limits: per case the reference's
#                     CPU time, the limit and their ratio; fails when a
#                     limit no longer follows the rule (tests/suite-limits.py)
#   make test-suites  check that the reference still reproduces every .out
#                     byte for byte and that suite-lint accepts both suites
#                     (also part of `make test`, as tests/e2e/test_suites.sh)
SUITE_DIRS := public-tests hidden-tests

# The generated hidden cases (big-*, tests/gen_hard.py): inputs of several
# MiB (a 9 MiB line, 24 MiB inputs, 5 MiB of output), written at build time
# by tests/gen-big.sh and checked against the committed hashes in
# hidden-tests/generated.sha256 (the list of their names too). Everything
# that reads hidden-tests/ depends on them.
HIDDEN_BIG_NAMES := $(shell sed -n 's/^[0-9a-f]*  \(big-[^ ]*\)\.in$$/\1/p' \
                      hidden-tests/generated.sha256 2>/dev/null)
HIDDEN_BIG := $(foreach n,$(HIDDEN_BIG_NAMES),hidden-tests/$(n).in hidden-tests/$(n).out)
$(HIDDEN_BIG) &: tests/gen-cases.py tests/gen_hard.py tests/gen-big.sh \
                 hidden-tests/generated.sha256 $(BUILD_BIN)/reference
	sh tests/gen-big.sh $(BUILD_BIN)/reference
.PHONY: hidden-big
hidden-big: $(HIDDEN_BIG)
all check-unit test-e2e test-suites grade batch gradescope suite-report \
wrong-matrix blind-matrix fuzz bench-grade bench-html suite-limits: $(HIDDEN_BIG)

.PHONY: gen-cases test-suites suite-limits
SUITE_LIMITS_RUNS ?= 5
suite-limits: $(BUILD_BIN)/reference $(HIDDEN_BIG)
	python3 tests/suite-limits.py --runs $(SUITE_LIMITS_RUNS) \
	    $(BUILD_BIN)/reference $(SUITE_DIRS)
gen-cases:
	python3 tests/gen-cases.py .

regen: $(BUILD_BIN)/reference $(BUILD_BIN)/suite-lint
	sh tests/gen-big.sh $(BUILD_BIN)/reference --update
	@for d in $(SUITE_DIRS); do \
	    for f in $$d/*.in; do \
	        case $$f in hidden-tests/big-*) continue ;; esac; \
	        $(BUILD_BIN)/reference < "$$f" > "$${f%.in}.out.tmp" && \
	        mv "$${f%.in}.out.tmp" "$${f%.in}.out" || exit 1; \
	    done; \
	done
	$(BUILD_BIN)/suite-lint $(SUITE_DIRS)

test-suites: $(BUILD_BIN)/reference $(BUILD_BIN)/suite-lint
	WG_BUILD=$(B) WG_ROOT=$(CURDIR) sh tests/e2e/test_suites.sh
