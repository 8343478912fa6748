# Quarry's everyday commands. CMake does the building; this file installs
# what CMake needs and names the steps.
#
#   make run                  install, build, index corpus/, answer queries from stdin
#   make test                 everything CI checks, stopping at the first failure:
#                             formatting, the release build and every test, then the
#                             ASan+UBSan build and the fast tests
#   make test SANITIZE=1      the ASan+UBSan build and the fast tests alone, in build-sanitize/
#   make test SANITIZE=thread the ThreadSanitizer build and the tests of the thread pools
#                             (batch queries, parallel index builds, the server), in build-tsan/
#   make bench                build, then time indexing beside Xapian's scriptindex
#   make fuzz                 build the libFuzzer targets with clang and run each
#                             for FUZZ_SECONDS (60), in build-fuzz/
#   make format               reformat the sources; make check-format only checks
#   make install              the programs, manual pages and shell completion under
#                             PREFIX (/usr/local), below DESTDIR when set
#   make deb                  the Debian package, build/quarry_<version>-1_<arch>.deb
#   make deps | build | clean

MAKEFLAGS += --no-print-directory
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := build

# Debian 12 packages needed to build and test: libcld2-dev, Chrome's Compact
# Language Detector 2, for the language of an article's text; libboost-dev
# for quarry serve (Beast and Asio, header-only); chromium, its driver and
# Selenium for the search page's browser tests; help2man for the manual
# pages, man-db to check them, bash-completion and zsh to try the
# completion, dpkg-dev for the package's dependencies.
DEB_PACKAGES := build-essential cmake pkg-config libxapian-dev libicu-dev libcld2-dev libcli11-dev \
  nlohmann-json3-dev zlib1g-dev libxxhash-dev libzstd-dev libgtest-dev libreadline-dev libjemalloc-dev \
  xapian-tools clang-format libboost-dev chromium chromium-driver python3-selenium \
  help2man man-db bash-completion zsh dpkg-dev

# Peer tools and measuring tools the benchmarks compare against; libexttextcat-dev
# is the language identifier bench/language-id measures beside CLD2.
BENCH_PACKAGES := time python3 python3-xapian xapian-omega xapian-tools hyperfine wrk \
  default-jdk-headless liblucene8-java libjackson2-databind-java python3-zstandard \
  libexttextcat-dev

# The compiler and runtime of the libFuzzer targets.
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev
FUZZ_TARGETS := analyzer query_parser jsonl_reader http
FUZZ_SECONDS ?= 60

# SANITIZE=thread builds with ThreadSanitizer; any other value but empty or 0
# with AddressSanitizer and UndefinedBehaviorSanitizer. Each configuration
# has its own build folder, so switching between them never forces a rebuild.
# The builds here use Debian 12's gcc, on which Quarry has no warnings, so
# warnings are errors; CMake's own default leaves them warnings, for other
# compilers.
SANITIZE ?=
ifeq ($(SANITIZE),thread)
  BUILD_DIR := build-tsan
  BUILD_TYPE := RelWithDebInfo
  CMAKE_OPTIONS := -DQUARRY_TSAN=ON
  # The first race fails its test. Xapian, ICU and Boost are not built with
  # TSan; the one report that comes from them, ICU's data initialized once
  # under atomics TSan does not see, is suppressed (tests/tsan.supp).
  TEST_ENV := TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/tests/tsan.supp"
  # The batch runner's and the parallel build's threads, the server's I/O
  # thread, workers and shared cache, and the programs that run them (-j);
  # the rest of the suite is single-threaded.
  CTEST_OPTIONS := -LE slow -R '^(BatchTest|BatchCli|Vocabulary|IndexWriter|ConcurrentIndexTest|Server[A-Za-z]*Test|ResponseCache)\.'
else ifneq ($(filter-out 0,$(SANITIZE)),)
  BUILD_DIR := build-sanitize
  BUILD_TYPE := RelWithDebInfo
  CMAKE_OPTIONS := -DQUARRY_SANITIZE=ON
  TEST_ENV := UBSAN_OPTIONS=print_stacktrace=1
  # The slow tests kill and flood the indexer for minutes; the release build
  # runs them, and they would take several times as long here.
  CTEST_OPTIONS := -LE slow
else
  BUILD_DIR := build
  # Release, as users and packages build it: GCC warns at -O3 of what it
  # does not see at -O2, and those warnings are errors here too.
  BUILD_TYPE := Release
  CMAKE_OPTIONS :=
  TEST_ENV :=
  CTEST_OPTIONS :=
endif
CMAKE_OPTIONS += -DQUARRY_WERROR=ON

JOBS := $(shell nproc)
CORPUS_INDEX := $(BUILD_DIR)/corpus-index

.PHONY: deps build run test check sanitize bench fuzz clean format check-format install deb

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

# Configuring is keyed on the cache and this file, which holds the options
# (cmake leaves an unchanged cache untouched, hence the touch): later changes
# to CMakeLists.txt are picked up by `cmake --build` itself. A failed
# configure leaves a cache behind, which .DELETE_ON_ERROR removes so that the
# next run retries.
.DELETE_ON_ERROR:
$(BUILD_DIR)/CMakeCache.txt: Makefile | deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  $(CMAKE_OPTIONS) >/dev/null
	@touch $@

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

# What is installed: the programs, their manual pages and quarry's shell
# completion (written from its option table), not the tests.
INSTALLED_TARGETS := --target quarry-index quarry quarry_man_page quarry-index_man_page \
  quarry_completion
PREFIX ?= /usr/local

install:
	@$(MAKE) build TARGETS="$(INSTALLED_TARGETS)"
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD_DIR) --prefix "$(PREFIX)"

# CPack installs under /usr into a folder of its own and packs that.
deb:
	@$(MAKE) build TARGETS="$(INSTALLED_TARGETS)"
	@cd $(BUILD_DIR) && cpack -G DEB

# Plain `make test` is what CI runs; with SANITIZE set it runs that one
# configuration. Each step starts only when the one before has passed.
ifeq ($(filter-out 0,$(SANITIZE)),)
test: check-format
	@$(MAKE) check
	@$(MAKE) check SANITIZE=1
else
test: check
endif

# One configuration: build it, run its tests.
check: build
	@$(TEST_ENV) ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS) $(CTEST_OPTIONS)

sanitize:
	@$(MAKE) test SANITIZE=1

bench:
	@$(MAKE) build EXTRA_PACKAGES="$(BENCH_PACKAGES)"
	@bench/index-reuters
	@bench/query-throughput
	@bench/eval-time

# Each target runs on its seeds (tests/fuzz-seeds/<target>/) and keeps what
# it finds in build-fuzz/corpus/<target>/; a crash is saved in build-fuzz/
# and stops the run. Once fixed, keep the crash in tests/fuzz-crashes/<target>/:
# `make test` replays it (fuzz/CMakeLists.txt). Warnings are errors there too:
# clang 14 has none on Quarry's code.
fuzz:
	@$(MAKE) deps EXTRA_PACKAGES="$(FUZZ_PACKAGES)"
	@[[ -f build-fuzz/CMakeCache.txt ]] || CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUARRY_FUZZ=ON -DQUARRY_BUILD_TESTS=OFF \
	  -DQUARRY_WERROR=ON >/dev/null
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
	@rm -rf build build-sanitize build-tsan build-fuzz

# The sources git knows of, new files included, so that a build folder or
# anything ignored is never reformatted; outside git, those beside the build
# folders.
SOURCES = $(shell git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' 2>/dev/null \
  || find . \( -path './build*' -o -path ./.git \) -prune -o -name '*.cc' -print -o -name '*.h' -print)

format:
	@clang-format -i $(SOURCES)

check-format: deps
	@clang-format --dry-run --Werror $(SOURCES) || \
	  { echo "make check-format: run make format" >&2; exit 1; }
