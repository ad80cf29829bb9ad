# Thin convenience wrapper around CMake; users may call cmake/ctest directly.
# `make test` and `make run` install missing Debian packages first (scripts/install-deps.sh).
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 600
NPROC      := $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
ifeq ($(CI),true)
  CMAKE_FLAGS += -DRFDSE_WERROR=ON
endif
# Open MPI refuses to run as root unless told; set it only when we are root.
ifeq ($(shell id -u),0)
  export OMPI_ALLOW_RUN_AS_ROOT := 1
  export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
endif

.PHONY: all deps build test test-asan fuzz run bench bench-gpgpusim figures clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(NPROC) -- --no-print-directory

# In CI the suite runs twice: the release build and an ASan+UBSan build.  The ASan run
# leaves out the tests labelled slow: the longest under ASan, scripts that drive whole
# rfdse runs (CLI, docs examples, growing sweeps, orphans, output targets), which the
# release run covers; their C paths are also under the ASan unit and MPI tests.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(NPROC)
ifeq ($(CI),true)
	@$(MAKE) --no-print-directory test-asan
endif

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DRFDSE_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(NPROC) -- --no-print-directory
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(NPROC) -LE slow
ifeq ($(CI),true)
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30
endif

# libFuzzer on the sweep loader and the results reader (clang), FUZZ_SECONDS per target;
# the corpus grows in $(FUZZ_BUILD)/fuzz-corpus from run to run (scripts/run-fuzz.sh).
fuzz: deps
	@cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DRFDSE_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(NPROC) --target fuzz_sweep fuzz_results fuzz_trace -- --no-print-directory
	@scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# `make run` builds only the program it runs (no tests, no benchmarks).
run: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(NPROC) --target rfdse -- --no-print-directory
	@scripts/run-default.sh $(BUILD)

bench: build
	@cmake --build $(BUILD) --target bench

# GPGPU-Sim beside rfdse on our micro-kernels (bench/gpgpusim/README.md); not part of
# `make test`, which checks only rfdse's side against the pinned numbers.  Needs a
# GPGPU-Sim tree you have built, with bench/gpgpusim/slow-banks.patch applied.
bench-gpgpusim:
	@test -n "$(GPGPUSIM_ROOT)" || { echo "make bench-gpgpusim: set GPGPUSIM_ROOT to a built GPGPU-Sim tree with bench/gpgpusim/slow-banks.patch applied (see bench/gpgpusim/README.md)"; exit 2; }
	@$(MAKE) --no-print-directory build
	bench/gpgpusim/run $(GPGPUSIM_ROOT) $(BUILD)/gpgpusim --jobs $(NPROC)
	bench/gpgpusim/compare --rfdse $(BUILD)/dse/rfdse --gpgpusim $(BUILD)/gpgpusim/gpgpusim.tsv

figures: build
	@scripts/make-figures.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
