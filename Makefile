# warpgrade: the top-level build.
#
# Every output lands under $(B) (default build/); binaries in $(B)/bin.
# Each component describes itself in *.mk files (reference/, grader/,
# gpu-bench/, tests/), included below, by appending to these lists:
#   PROGS        program names built by `all` into $(BUILD_BIN) and installed;
#                NAME_SRCS lists each one's sources (recursively expanded,
#                so later files may still add to the lists it names) and
#                LDLIBS_NAME its libraries
#   LIB_SRCS     sources linked into the unit-test runner (no main())
#   HELPERS      bounded helper programs used by the tests ($(B)/helpers/NAME)
# Unit tests: tests/unit/check_<module>.c exports make_<module>_suite(); the list
# of suites is generated from the file names, so adding a file adds a suite.
# End-to-end tests: every tests/e2e/test_*.sh is run by tests/run-e2e.sh.

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
DATADIR    ?= $(PREFIX)/share/warpgrade
DESTDIR    ?=
CC         ?= cc
PKG_CONFIG ?= pkg-config
B          ?= build
BUILD_BIN  := $(B)/bin
VERSION    := 1.0.0

CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wvla -Wwrite-strings -Wformat=2
ifeq ($(DEVELOPER),1)
WARN    += -Werror
endif
# Hardening, as isolate builds itself: grade runs as root and builds
# sandboxes, so its own memory errors must not become exploits. HARDEN=0
# turns it off (the sanitizer build does: ASan and FORTIFY do not mix).
HARDEN  ?= 1
ifeq ($(HARDEN),1)
HARDEN_CFLAGS  := -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 \
                  -fstack-protector-strong -fstack-clash-protection -fPIE
HARDEN_LDFLAGS := -pie -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack
endif
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS   := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
CHECK_CFLAGS   := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS     := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -DWG_VERSION='"$(VERSION)"' -I. \
             $(WARN) $(HARDEN_CFLAGS) $(JANSSON_CFLAGS) $(CFLAGS)

PROGS    :=
LIB_SRCS :=
HELPERS  :=

.PHONY: all test clean install uninstall deps regen bench bench-reference \
        sanitize fuzz fuzz-smoke check-unit test-e2e helpers
all:

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))

# The compiler's command lines go to $(BUILD_LOG), not the terminal (its
# messages still do): `make V=1` prints them as well. A recipe runs a
# command as `@$(LOGCMD) COMMAND...`.
BUILD_LOG := $(B)/build-commands.log
ifeq ($(V),1)
LOGCMD = sh -c 'printf "%s\n" "$$*" | tee -a $(BUILD_LOG); exec "$$@"' logcmd
else
LOGCMD = sh -c 'printf "%s\n" "$$*" >> $(BUILD_LOG); exec "$$@"' logcmd
endif

include reference/module.mk
include $(sort $(wildcard grader/*/*.mk gpu-bench/*.mk)) tests/committed-suites.mk
$(foreach p,$(PROGS),$(eval $(BUILD_BIN)/$(p): $$(call obj,$$($(p)_SRCS))))
BINS := $(addprefix $(BUILD_BIN)/,$(PROGS))
include tests/module.mk

all: $(BINS)

# Each component may append its own benchmark targets to BENCH_TARGETS.
bench: bench-reference $(BENCH_TARGETS)
bench-reference: $(BUILD_BIN)/reference
	sh tests/bench/bench-reference.sh $(BUILD_BIN)/reference $(B)/bench

# What the objects and programs are made with (compiler, flags, VERSION),
# written only when it changes: a new VERSION or CFLAGS rebuilds
# everything, as the nvcc rule's stamp does for the GPU stage.
# (Expanded once, here: a target-specific ALL_CFLAGS, as the unit tests'
# objects have, would otherwise leak into the stamp through its prerequisite.)
FLAGS_STAMP := $(B)/gen/build-flags
FLAGS_LINE  := $(CC) $(CPPFLAGS) $(ALL_CFLAGS) | $(HARDEN_LDFLAGS) $(LDFLAGS) $(LDLIBS)
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(FLAGS_LINE)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
.PHONY: FORCE
FORCE:

# GNU order: CPPFLAGS before CFLAGS (ALL_CFLAGS ends with CFLAGS).
$(B)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(LOGCMD) $(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Link rule shared by every program: prerequisites are its objects.
$(BUILD_BIN)/%: $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(LOGCMD) $(CC) $(CFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS_$*) $(LDLIBS)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

clean:
	rm -rf $(B) dist

# The reference goes to LIBEXECDIR: a program called "reference" has no
# place on everyone's PATH.
LIBEXECDIR ?= $(PREFIX)/libexec/warpgrade
INSTALL_BINS := $(filter-out $(BUILD_BIN)/reference,$(BINS))
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(LIBEXECDIR)
	install -m 755 $(INSTALL_BINS) $(DESTDIR)$(BINDIR)/
	install -m 755 $(BUILD_BIN)/reference $(DESTDIR)$(LIBEXECDIR)/
	cp -R public-tests $(DESTDIR)$(DATADIR)/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(INSTALL_BINS)))
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(LIBEXECDIR)

# The build needs the first six; the end-to-end tests also use python3 (to
# read JSON reports), zip and unzip (the Gradescope zip), xmllint from
# libxml2-utils (the JUnit schema check), chromium (the HTML page in a
# headless browser: tests/e2e/test_html.sh) and pgrep from procps (the
# batch's graders and keepers: test_batch_safety, test_batch_workers).
DEB_PACKAGES := check libjansson-dev libsubunit-dev pkg-config gcc make \
                python3 zip unzip libxml2-utils chromium procps
deps:
	@sh tests/deps.sh $(DEB_PACKAGES)
	@echo "deps: also, for two tests that skip without them:"
	@echo "deps:   make deps-lint     action-validator from npm (needs npm), for test_workflows_lint"
	@echo "deps:   make deps-cluster  $(DEB_CLUSTER_PACKAGES), for test_cluster_slurm"

# The workflow linter, from the npm registry, pinned, into $(B)/npm
# (tests/e2e/test_workflows_lint.sh finds it there).
ACTION_VALIDATOR ?= @action-validator/cli@0.6.0 @action-validator/core@0.6.0
.PHONY: deps-lint deps-cluster
deps-lint:
	@command -v npm >/dev/null 2>&1 || sh tests/deps.sh npm
	npm install --prefix $(B)/npm --no-audit --no-fund --no-save $(ACTION_VALIDATOR)

# A one-node Slurm for tests/e2e/test_cluster_slurm.sh: not in `deps`
# because it is heavy (Slurm's daemons, clients and plugins, some 60 MB
# with munge) and only that test uses it; the test configures and starts
# its own daemons in a private folder and stops them, so nothing of the
# packages' services is used.
DEB_CLUSTER_PACKAGES := slurm-wlm munge
deps-cluster:
	@sh tests/deps.sh $(DEB_CLUSTER_PACKAGES)

# A sanitizer build is a whole second build tree, so the normal one is never
# mixed with instrumented objects. It runs the unit tests and the end-to-end
# tests whose programs run free of the grader's memory limit (an ASan
# runtime reserves terabytes of address space, so a sanitized program cannot
# start under RLIMIT_AS): the reference on every suite case, the CLIs.
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
             -fno-sanitize-recover=all
SAN_E2E   := reference suites wrong_solutions wrong_blind gpu_check gpu_plot grade_cli grade_hide sandbox check_env \
             grade_submissions batch grade_build reports_private
sanitize:
	$(MAKE) B=$(B)/asan HARDEN=0 CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
	    check-unit test-e2e E2E="$(SAN_E2E)"
