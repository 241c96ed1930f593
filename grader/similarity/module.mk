# grader/similarity: which submissions of a class share code (issue 20):
# the C tokenizer (sim_token.h), k-gram winnowing (sim_winnow.h), a
# submission's sources (sim_source.h), the class's index and scores
# (sim_index.h; sim_compare.c compares, within a memory budget) and its
# JSON record (sim_report.h). No process, no printing but
# sim_report_print's; see docs/similarity.md.
GRADER_SIM_SRCS := grader/similarity/sim_token.c grader/similarity/sim_winnow.c \
                   grader/similarity/sim_source.c grader/similarity/sim_index.c \
                   grader/similarity/sim_compare.c \
                   grader/similarity/sim_report.c grader/similarity/sim_spool.c
GRADER_LIB_SRCS += $(GRADER_SIM_SRCS)
LIB_SRCS        += $(GRADER_SIM_SRCS)

# `make bench-similarity`: warpgrade against SIM and Dolos on the test set
# and a synthetic class (tests/bench/bench-similarity.sh); `make
# deps-similarity` installs the two anchors.
.PHONY: bench-similarity deps-similarity
bench-similarity: $(BUILD_BIN)/grade
	sh tests/bench/bench-similarity.sh $(B)
deps-similarity:
	sh tests/bench/sim-deps.sh $(B)
