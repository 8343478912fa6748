# Quarry's everyday commands. CMake does the building; this file installs
# what CMake needs and names the steps.
#
#   make run               install, build, index corpus/, answer queries from stdin
#   make test              build and run the test suite
#   make test SANITIZE=1   the same under ASan and UBSan, in build-sanitize/
#   make bench             build, then time indexing beside Xapian's scriptindex
#   make fuzz              build the libFuzzer targets with clang and run each
#                          for FUZZ_SECONDS (60), in build-fuzz/
#   make deps | build | format | clean

MAKEFLAGS += --no-print-directory
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := build

# Debian 12 packages needed to build and test.
DEB_PACKAGES := build-essential cmake pkg-config libxapian-dev libicu-dev libcli11-dev \
  nlohmann-json3-dev zlib1g-dev libxxhash-dev libgtest-dev libreadline-dev libjemalloc-dev \
  xapian-tools

# Peer tools and measuring tools the benchmarks compare against.
BENCH_PACKAGES := time python3 python3-xapian xapian-omega xapian-tools hyperfine

# The compiler and runtime of the libFuzzer targets.
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev
FUZZ_TARGETS := analyzer query_parser jsonl_reader
FUZZ_SECONDS ?= 60

# Any value but empty or 0 turns the sanitizers on. Each configuration has
# its own build folder, so switching between them never forces a rebuild.
SANITIZE ?=
ifneq ($(filter-out 0,$(SANITIZE)),)
  BUILD_DIR := build-sanitize
  CMAKE_OPTIONS := -DQUARRY_SANITIZE=ON
  TEST_ENV := UBSAN_OPTIONS=print_stacktrace=1
else
  BUILD_DIR := build
  CMAKE_OPTIONS := -DQUARRY_SANITIZE=OFF
  TEST_ENV :=
endif

JOBS := $(shell nproc)
CORPUS_INDEX := $(BUILD_DIR)/corpus-index

.PHONY: deps build run test sanitize bench fuzz clean format

deps:
	@missing=; \
	for p in $(DEB_PACKAGES) $(EXTRA_PACKAGES); do \
	  case "$$(dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null)" in \
	    *' ok installed') ;; \
	    *) missing="$$missing $$p" ;; \
	  esac; \
	done; \
	[[ -z "$$missing" ]] && exit 0; \
	sudo=; \
	if [[ "$$(id -u)" -ne 0 ]]; then \
	  if ! command -v sudo >/dev/null; then \
	    echo "make deps: missing Debian packages:$$missing; run make deps as root" >&2; \
	    exit 1; \
	  fi; \
	  sudo=sudo; \
	fi; \
	echo "make deps: installing$$missing$${sudo:+ with sudo}" >&2; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq update && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends \
	  $$missing >/dev/null

# Configuring is keyed on the cache alone: later changes to CMakeLists.txt
# are picked up by `cmake --build` itself. A failed first configure leaves a
# cache behind, which .DELETE_ON_ERROR removes so that the next run retries.
.DELETE_ON_ERROR:
$(BUILD_DIR)/CMakeCache.txt: | deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  $(CMAKE_OPTIONS) >/dev/null

# CMake's make gets a clean environment: inheriting our MAKEFLAGS under
# `make -jN` would tie it to a jobserver it cannot use. The "Built target"
# lines are dropped so that an up-to-date build prints nothing.
build: deps $(BUILD_DIR)/CMakeCache.txt
	@env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake --build $(BUILD_DIR) -j$(JOBS) $(TARGETS) \
	  | sed -u '/^\[ *[0-9]*%\] Built target /d'

# `run` needs the two programs only, not the test suite.
# The sample index is made afresh each time: it takes a moment, and a build
# folder may hold one written by an older version.
run:
	@$(MAKE) build TARGETS="--target quarry-index quarry"
	@rm -rf $(CORPUS_INDEX)
	@$(BUILD_DIR)/indexer/quarry-index --db $(CORPUS_INDEX) corpus
	@$(BUILD_DIR)/query/quarry --db $(CORPUS_INDEX)

test: build
	@$(TEST_ENV) ctest --test-dir $(BUILD_DIR) --output-on-failure -j2

sanitize:
	@$(MAKE) test SANITIZE=1

bench:
	@$(MAKE) build EXTRA_PACKAGES="$(BENCH_PACKAGES)"
	@bench/index-reuters
	@bench/query-throughput
	@bench/eval-time

# Each target runs on its seeds (tests/fuzz-seeds/<target>/) and keeps what
# it finds in build-fuzz/corpus/<target>/; a crash is saved in build-fuzz/
# and stops the run.
fuzz:
	@$(MAKE) deps EXTRA_PACKAGES="$(FUZZ_PACKAGES)"
	@[[ -f build-fuzz/CMakeCache.txt ]] || CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUARRY_FUZZ=ON -DQUARRY_BUILD_TESTS=OFF >/dev/null
	@env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake --build build-fuzz -j$(JOBS) \
	  --target $(FUZZ_TARGETS:%=%_fuzzer) | sed -u '/^\[ *[0-9]*%\] Built target /d'
	@for target in $(FUZZ_TARGETS); do \
	  mkdir -p build-fuzz/corpus/$$target; \
	  echo "make fuzz: $$target for $(FUZZ_SECONDS) s" >&2; \
	  build-fuzz/fuzz/$${target}_fuzzer -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=build-fuzz/ build-fuzz/corpus/$$target tests/fuzz-seeds/$$target \
	    || exit 1; \
	done

clean:
	@rm -rf build build-sanitize build-fuzz

format:
	@find . \( -path './build*' -o -path ./.git \) -prune -o \
	  -type f \( -name '*.cc' -o -name '*.h' \) -print0 | xargs -0 -r clang-format -i
