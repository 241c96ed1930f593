# `make suite-report`: how strong a suite is against the mutation set:
# grade --suite-report (grader/cli/suitereport_cmd.h) grades every wrong
# solution of SUITE_REPORT_WRONG against SUITE_REPORT_SUITE through grade
# itself and prints the kill matrix, the survivors, the fragile solutions,
# the cases that kill nothing and the categories; the JSON goes to
# SUITE_REPORT_JSON. Exit 0 or 1 (some solution survives) both count as
# success; 2 or 3 fail the target. The repository is masked as for `make grade`.
SUITE_REPORT_SUITE ?= hidden-tests
SUITE_REPORT_WRONG ?= tests/wrong
SUITE_REPORT_JSON  ?= $(B)/suite-report/report.json
SUITE_REPORT_FLAGS ?= --hide $(CURDIR)
.PHONY: suite-report
suite-report: $(BUILD_BIN)/grade
	@mkdir -p $(dir $(SUITE_REPORT_JSON))
	@$(BUILD_BIN)/grade --suite-report $(SUITE_REPORT_SUITE) $(SUITE_REPORT_WRONG) \
	    -j $(GRADE_JOBS) $(SUITE_REPORT_FLAGS) --suite-report-json $(SUITE_REPORT_JSON); \
	    rc=$$?; echo "suite-report: $(SUITE_REPORT_JSON)"; \
	    [ $$rc -le 1 ] || { echo "grade: exit status $$rc" >&2; exit $$rc; }
