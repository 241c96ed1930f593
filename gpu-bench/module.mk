# gpu-bench: build and run coalescing.cu on a GPU and judge its rows.
#
# `make all` builds only gpu-check (C + jansson): student laptops and the CPU
# CI have no nvcc. The CUDA programs are built by the GPU targets alone:
#   make gpu-build    build/bin/devquery and build/bin/coalescing (nvcc)
#   make gpu-bench    gpu-bench/run.sh: build, devquery, coalescing --json
#                     under a timeout, gpu-check, table + reports in
#                     build/gpu-bench/. run.sh exits 77 when there is no
#                     usable GPU; this target turns that skip into success
#                     (after printing the one-line reason) unless
#                     REQUIRE_GPU=1, where it is a failure (exit 99).
# Variables: NVCC, NVCCFLAGS, GPU_SMS, GPU_PTX, GPU_ARCH (overrides the
# choice below), COALESCING=FILE (a student's variant of coalescing.cu),
# COALESCING_BIN / DEVQUERY_BIN (stand-in programs, for tests),
# GPU_TIMEOUT (seconds coalescing may run), REQUIRE_GPU=1.

PROGS += gpu-check
GPUC_LIB_SRCS := gpu-bench/gpucheck.c gpu-bench/gpucheck_judge.c \
                 gpu-bench/gpucheck_out.c gpu-bench/gpucheck_plot.c
gpu-check_SRCS = gpu-bench/gpucheck_main.c $(GPUC_LIB_SRCS) grader/lib/escape.c \
                 grader/lib/strbuf.c
LDLIBS_gpu-check = $(JANSSON_LIBS) -lm
LIB_SRCS += $(GPUC_LIB_SRCS)

NVCC        ?= /usr/local/cuda/bin/nvcc
NVCCFLAGS   ?= -O3
# SASS for every discrete architecture CUDA 13 still supports (it dropped
# sm_70 and older), plus compute_90 PTX the driver can JIT for anything newer.
# sm_87/sm_88 boards run the sm_86 SASS (same major, newer minor).
GPU_SMS     ?= 75 80 86 89 90
GPU_PTX     ?= 90
GPU_TIMEOUT ?= 120
COALESCING  ?= gpu-bench/coalescing.cu
GPU_BOUNDS  ?= gpu-bench/bounds.json
REQUIRE_GPU ?=
COALESCING_BIN ?=
DEVQUERY_BIN   ?=

# Deferred (=): nvidia-smi runs only when a GPU target needs the flags.
GPU_PRESENT = $(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && echo y)
GPU_FAT     = $(foreach s,$(GPU_SMS),-gencode arch=compute_$(s),code=sm_$(s)) \
              -gencode arch=compute_$(GPU_PTX),code=compute_$(GPU_PTX)
GPU_ARCH   ?= $(if $(GPU_PRESENT),-arch=native,$(GPU_FAT))

GB_DIR := $(B)/gpu-bench

# The compiler, flags and source feed a stamp rewritten only when they
# change, so switching COALESCING= or gaining a GPU (-arch=native) rebuilds.
$(GB_DIR)/nvcc.flags: gpu-bench-force
	@mkdir -p $(@D)
	@printf '%s\n' '$(NVCC) $(NVCCFLAGS) $(strip $(GPU_ARCH)) $(COALESCING)' \
	    | cmp -s - $@ || printf '%s\n' \
	    '$(NVCC) $(NVCCFLAGS) $(strip $(GPU_ARCH)) $(COALESCING)' > $@

$(BUILD_BIN)/devquery: gpu-bench/devquery.cu $(GB_DIR)/nvcc.flags
	@mkdir -p $(@D)
	@$(LOGCMD) $(NVCC) $(NVCCFLAGS) $(GPU_ARCH) -o $@ $<

$(BUILD_BIN)/coalescing: $(COALESCING) $(GB_DIR)/nvcc.flags
	@mkdir -p $(@D)
	@$(LOGCMD) $(NVCC) $(NVCCFLAGS) $(GPU_ARCH) -o $@ $<

.PHONY: gpu-build gpu-bench gpu-bench-force
gpu-bench-force:

gpu-build: $(BUILD_BIN)/devquery $(BUILD_BIN)/coalescing

# run.sh calls back into make for gpu-build and gpu-check, so it also works
# on its own (sh gpu-bench/run.sh --source FILE).
gpu-bench:
	@B='$(B)' NVCC='$(NVCC)' COALESCING='$(COALESCING)' \
	    COALESCING_BIN='$(COALESCING_BIN)' DEVQUERY_BIN='$(DEVQUERY_BIN)' \
	    GPU_TIMEOUT='$(GPU_TIMEOUT)' GPU_BOUNDS='$(GPU_BOUNDS)' \
	    REQUIRE_GPU='$(REQUIRE_GPU)' MAKE='$(MAKE)' sh gpu-bench/run.sh; \
	rc=$$?; \
	if [ $$rc -eq 77 ] && [ '$(REQUIRE_GPU)' != 1 ]; then exit 0; fi; \
	exit $$rc
