# The committed suites (public-tests/, hidden-tests/): their expected outputs
# are the reference's output, regenerated with `make regen` and committed, so
# a change in canonical output shows up as a diff under review.
#   make gen-cases    rewrite every NAME.in and suite.json (tests/gen-cases.py)
#   make regen        rewrite every NAME.out from build/bin/reference
#   make test-suites  check that the reference still reproduces every .out
#                     byte for byte and that suite-lint accepts both suites
#                     (also part of `make test`, as tests/e2e/test_suites.sh)
SUITE_DIRS := public-tests hidden-tests

.PHONY: gen-cases test-suites
gen-cases:
	python3 tests/gen-cases.py .

regen: $(BUILD_BIN)/reference $(BUILD_BIN)/suite-lint
	@for d in $(SUITE_DIRS); do \
	    for f in $$d/*.in; do \
	        $(BUILD_BIN)/reference < "$$f" > "$${f%.in}.out.tmp" && \
	        mv "$${f%.in}.out.tmp" "$${f%.in}.out" || exit 1; \
	    done; \
	done
	$(BUILD_BIN)/suite-lint $(SUITE_DIRS)

test-suites: $(BUILD_BIN)/reference $(BUILD_BIN)/suite-lint
	WG_BUILD=$(B) WG_ROOT=$(CURDIR) sh tests/e2e/test_suites.sh
