# SPDX-License-Identifier: MIT
# Thin wrappers over CMake. `make run` and `make test` each work alone on a
# fresh Debian 12 machine: they install what they need first.
BUILD      ?= build
BUILD_SAN  ?= build-sanitize
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=

.PHONY: all setup build run test check test-sanitize test-tsan clean

all: build

setup:
	@./scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

# The server with its default world (an FFT sea, the built-in harbour, 200
# boats of the built-in types on autopilot): snapshots on tcp://0.0.0.0:7700, requests on :7701,
# the web page, /ws/*, /metrics and /healthz on http://localhost:8080.
# Ctrl-C stops it cleanly. Extra flags: make run RUN_ARGS="--boats 500".
RUN_ARGS ?=
run: build
	./$(BUILD)/server/naval-server $(RUN_ARGS)

# A test whose tool is missing (node and npm, chromium, mono, python3's
# flatbuffers) fails naming it; NAVAL_SKIP opts parts out by name instead
# (web, browser, csharp, python; comma-separated), and they are skipped and
# named: make test NAVAL_SKIP=browser,csharp
NAVAL_SKIP ?=
export NAVAL_SKIP

# Release tests, the same suite under AddressSanitizer + UBSan, the
# threaded code under ThreadSanitizer, then every libFuzzer harness for
# FUZZ_SECONDS from its seeds.
test: check test-sanitize test-tsan fuzz
	@if [ -n "$(NAVAL_SKIP)" ]; then echo "make test: passed, but not all of it: NAVAL_SKIP=$(NAVAL_SKIP) skipped those parts (ctest's \"Not Run (Skipped)\" lines name the tests)"; fi

check: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-sanitize: setup
	cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DNAVAL_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_SAN) -j $(JOBS)
	ctest --test-dir $(BUILD_SAN) --output-on-failure -j $(JOBS)

# ThreadSanitizer build of the threaded code (separate: TSan excludes ASan).
# Not under it: test_server_units (the server's single-threaded parts, 215 s
# under TSan) and test_server_exposure (heap and connection caps, 115 s);
# both run in the release and sanitizer suites. Two at a time, as the other
# suites (250 s on a 2-core machine against about 350 s one at a time).
# Only the programs those tests run are built (a test whose program is
# missing from TSAN_TARGETS fails naming it).
BUILD_TSAN ?= build-tsan
TSAN_TESTS := test_jobs|test_keysort|test_world|test_ground|test_pairs_threads|test_view|test_ocean$$|test_ocean_grid|tool_naval_bench|test_edge|test_relay|test_server|tool_naval_server
TSAN_TARGETS := test_jobs test_keysort test_ground test_world test_world_lod test_ocean test_ocean_grid test_pairs \
  test_view test_edge test_relay test_server test_server_limits test_server_players test_server_view \
  test_server_faults test_server_edge test_server_lod test_server_resume test_server_restore test_server_record \
  test_server_damage test_server_agones naval-bench naval-server
test-tsan: setup
	cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=Debug -DNAVAL_TSAN=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_TSAN) -j $(JOBS) --target $(TSAN_TARGETS)
	ctest --test-dir $(BUILD_TSAN) -R '$(TSAN_TESTS)' -E 'test_server_units|test_server_exposure' --output-on-failure -j $(JOBS)

# The set-up on a plain Debian 12 without NodeSource (issue 32): a
# debootstrap root (cached in $(BUILD)/debian12-root, 0.6 GB), and in it
# scripts/setup.sh, `make build` with the web client and the TypeScript
# package, their tests and the page in chromium, `make run` serving the 3D
# page, and npm hidden: the tests fail naming it. Root only; about 6 min
# (tests/setup_debian12.sh). CI runs it after `make test`.
.PHONY: test-setup
test-setup: setup
	./tests/setup_debian12.sh $(BUILD)/debian12-root

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_TSAN) $(BUILD_FUZZ)

# libFuzzer harnesses (fuzz/): clang with ASan + UBSan in build-fuzz/, then
# each harness runs FUZZ_SECONDS from its committed seeds (fuzz/corpus/);
# any crash, leak, hang or sanitizer report fails (inputs kept in
# build-fuzz/artifacts/). JOBS harnesses at a time: about 11 x FUZZ_SECONDS
# / JOBS plus the build.
BUILD_FUZZ   ?= build-fuzz
FUZZ_SECONDS ?= 15
.PHONY: fuzz
fuzz: setup
	cmake -S . -B $(BUILD_FUZZ) -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
	  -DNAVAL_SANITIZE=ON -DNAVAL_FUZZ=ON -DNAVAL_BUILD_TESTS=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_FUZZ) --target naval_fuzzers -j $(JOBS)
	./fuzz/run.sh $(BUILD_FUZZ) $(FUZZ_SECONDS) $(JOBS)
