# Makefile for cairn: build, test, play, asan, install, clean, bench.
# Every library comes from a Debian package found with pkg-config; when one is
# missing, tools/install-deps installs it (see README).

PREFIX ?= /usr/local
BUILD ?= build
CC ?= cc
OPT ?= -O2
PKGS := yaml-0.1 lua5.4 libedit json-c libmicrohttpd libqrencode
TEST_PKGS := cmocka

# the commands make test runs besides cairn (tools/install-deps installs them)
TEST_TOOLS := zsh parallel luacheck

# Install what pkg-config cannot find, once, before anything is compiled
# (and for make test, the tools it runs).
MISSING := $(shell for m in $(PKGS) $(TEST_PKGS); do pkg-config --exists $$m 2>/dev/null || echo $$m; done)
ifneq ($(filter test,$(MAKECMDGOALS)),)
MISSING += $(shell for c in $(TEST_TOOLS); do command -v $$c >/dev/null 2>&1 || echo $$c; done)
endif
ifneq ($(strip $(MISSING)),)
$(info cairn: missing libraries: $(MISSING); running tools/install-deps)
INSTALL_DEPS_STATUS := $(shell tools/install-deps >&2; echo $$?)
ifneq ($(INSTALL_DEPS_STATUS),0)
$(error tools/install-deps failed; install $(MISSING) by hand)
endif
endif
$(FLAGS_STAMP):
	@$(shell mkdir -p $(@D))$(file >$@,$(FLAGS_NOW))true

# $(shell) drops the exit status: read it from .SHELLSTATUS after each call,
# or a failing pkg-config would leave the flags empty and the build would
# fail later with a confusing missing header.
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
ifneq ($(.SHELLSTATUS),0)
$(error pkg-config --cflags $(PKGS) failed; run tools/install-deps)
endif
# libmicrohttpd is opened when a game is first served, not linked: linked,
# its GnuTLS start-up cost every cairn process 2-3 ms of CPU
# (interpreter/serve/serve_mhd.c). Its headers come from its -dev package as
# the others', and the file to open is its SONAME, read from the library.
LINKED_PKGS := $(filter-out libmicrohttpd,$(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(LINKED_PKGS))
ifneq ($(.SHELLSTATUS),0)
$(error pkg-config --libs $(LINKED_PKGS) failed; run tools/install-deps)
endif
MHD_SONAME := $(shell objdump -p "$$(pkg-config --variable=libdir libmicrohttpd)/libmicrohttpd.so" 2>/dev/null | awk '/SONAME/ {print $$2}')
TEST_CFLAGS := $(shell pkg-config --cflags $(TEST_PKGS))
ifneq ($(.SHELLSTATUS),0)
$(error pkg-config --cflags $(TEST_PKGS) failed; run tools/install-deps)
endif
TEST_LIBS := $(shell pkg-config --libs $(TEST_PKGS))
ifneq ($(.SHELLSTATUS),0)
$(error pkg-config --libs $(TEST_PKGS) failed; run tools/install-deps)
endif

VERSION := 0.1.0
# -Werror is the project's own gate (make test, make asan, and so CI), not a
# user's build: a newer compiler's new warning must not stop `make`, `make
# play` or `make install`. WERROR=-Werror (or WERROR=) overrides. An object
# is built the same way either way (the flag changes no code), so `make` and
# `make test` share every object; what a compile warned is kept beside its
# object (*.warn), and `make test` fails on any of them, reused or new.
ifneq ($(filter test asan,$(MAKECMDGOALS)),)
WERROR ?= -Werror
endif
WARN := -Wall -Wextra -Wno-unused-parameter
CFLAGS_ALL := -std=c11 $(OPT) -g $(WARN) -D_XOPEN_SOURCE=700 \
  -DCAIRN_VERSION='"$(VERSION)"' -DCAIRN_SHARE_DIR='"$(PREFIX)/share/cairn"' \
  -DCAIRN_MHD_SONAME='"$(or $(MHD_SONAME),libmicrohttpd.so.12)"' \
  $(PKG_CFLAGS) $(SAN) $(CFLAGS)
LDFLAGS_ALL := $(SAN) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm

# The interpreter's folders, one per layer (docs/architecture.md). A folder's
# files may include headers of their own folder and of the folders below it,
# and nothing else: each folder is compiled with only those include paths, so
# an upward #include fails to compile. CAIRN_FOLDER_<name> is defined for a
# folder's own files: a *_internal.h refuses every other includer.
LAYERS := base load sandbox engine play serve repl sim dev
BELOW_base :=
BELOW_load := base
BELOW_sandbox := base
BELOW_engine := load sandbox base
BELOW_play := engine load sandbox base
BELOW_serve := play engine load sandbox base
BELOW_repl := serve play engine load sandbox base
BELOW_sim := play engine load sandbox base
BELOW_dev := play engine load sandbox base
layer_flags = -iquote interpreter/$(1) $(foreach b,$(BELOW_$(1)),-iquote interpreter/$(b)) -DCAIRN_FOLDER_$(1)
# main.c, the tests, the fuzz harnesses and the bench sit above every folder
ALL_INCLUDES := $(foreach l,$(LAYERS),-iquote interpreter/$(l))

CORE_SRC := $(foreach l,$(LAYERS),$(wildcard interpreter/$(l)/*.c))
CORE_OBJ := $(CORE_SRC:interpreter/%.c=$(BUILD)/obj/%.o)
MAIN_OBJ := $(BUILD)/obj/main.o
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/%)
SELFTEST_BIN := $(BUILD)/selftest/test_fails

# The flags every object was built with, in a file that changes only when
# they do: each object depends on it, so a change of CC, OPT, SAN or CFLAGS
# rebuilds everything. WERROR is not among them (see above).
FLAGS_STAMP := $(BUILD)/flags
FLAGS_NOW := $(CC) $(CFLAGS_ALL) $(TEST_CFLAGS) | $(LDFLAGS_ALL) $(LIBS) $(TEST_LIBS)
ifneq ($(MAKECMDGOALS),clean)
ifneq ($(file <$(FLAGS_STAMP)),$(FLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif
endif

.PHONY: all test play asan asan-full valgrind faults install uninstall clean bench bench-bots cairn layout warnings

# Every target that builds cairn leaves ./cairn, the program the README's
# commands run (a link to build/cairn; make asan's own binary stays in
# build-asan/).
all: $(BUILD)/cairn cairn

cairn: $(BUILD)/cairn
	@if [ "$(BUILD)" = build ] && [ "$$(readlink cairn)" != build/cairn ]; then ln -sfn $(BUILD)/cairn cairn; fi

$(BUILD)/cairn: $(MAIN_OBJ) $(BUILD)/libcairn.a $(FLAGS_STAMP)
	@echo "LINK $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $(MAIN_OBJ) $(BUILD)/libcairn.a $(LIBS)

$(BUILD)/libcairn.a: $(CORE_OBJ)
	@rm -f $@
	@ar rcs $@ $^

# One compile: header dependencies generated beside the object (-MMD -MP),
# the compiler's warnings kept in OBJ.warn (and shown). $(1): the object,
# $(2): the source, $(3): the include flags.
compile = mkdir -p $(dir $(1)) && echo "CC $(2)" && \
  $(CC) $(CFLAGS_ALL) $(WERROR) $(3) -MMD -MP -c -o $(1) $(2) 2>$(1:.o=.warn); \
  st=$$?; cat $(1:.o=.warn) >&2; exit $$st

define LAYER_RULE
$(BUILD)/obj/$(1)/%.o: interpreter/$(1)/%.c $(FLAGS_STAMP)
	@$$(call compile,$$@,$$<,$(call layer_flags,$(1)))
endef
$(foreach l,$(LAYERS),$(eval $(call LAYER_RULE,$(l))))

$(MAIN_OBJ): interpreter/main.c $(FLAGS_STAMP)
	@$(call compile,$@,$<,$(ALL_INCLUDES) -DCAIRN_FOLDER_main)

-include $(CORE_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)

# make test fails on a warning of any object, also one that a plain `make`
# compiled earlier and this run reused.
warnings: $(CORE_OBJ) $(MAIN_OBJ)
	@w=$$(find $(BUILD)/obj -name '*.warn' -size +0c | sort); \
	if [ -n "$$w" ]; then for f in $$w; do cat "$$f"; done; \
	echo "make test: the compiler warned in $$(echo $$w | wc -w) file(s) (-Werror)"; exit 1; fi

# make layout: every header compiles alone with only its folder's include
# paths (an upward #include in a header that only upper folders use would
# otherwise pass), and tools/check-layout checks the include graph and that
# an upward include fails to compile. Part of make test.
HEADERS := $(foreach l,$(LAYERS),$(wildcard interpreter/$(l)/*.h))
HEADER_STAMPS := $(HEADERS:interpreter/%.h=$(BUILD)/headers/%.ok)
define HEADER_RULE
$(BUILD)/headers/$(1)/%.ok: interpreter/$(1)/%.h $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	@$$(CC) $$(CFLAGS_ALL) -Werror $(call layer_flags,$(1)) -fsyntax-only -x c $$< && touch $$@
endef
$(foreach l,$(LAYERS),$(eval $(call HEADER_RULE,$(l))))

layout: $(HEADER_STAMPS)
	@CC="$(CC)" LAYER_FLAGS_CMD="$(MAKE) -s --no-print-directory print-layer-flags" tools/check-layout

# the include flags of one folder (LAYER=engine), for tools/check-layout
.PHONY: print-layer-flags
print-layer-flags:
	@echo $(CFLAGS_ALL) $(call layer_flags,$(LAYER))

# the fuzz harnesses built plainly (cc, no libFuzzer) with a main that
# replays files: make test replays tests/fuzz/crashes/ with them
REPLAY_BIN := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz-replay/%,$(wildcard tests/fuzz/fuzz_*.c))

$(BUILD)/fuzz-replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c tests/fuzz/fuzz_game.h $(BUILD)/libcairn.a $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) $(WERROR) $(ALL_INCLUDES) -Wno-missing-field-initializers -Wno-format-truncation -o $@ $< tests/fuzz/replay_main.c $(BUILD)/libcairn.a $(LDFLAGS_ALL) $(LIBS)

$(BUILD)/test_%: tests/unit/test_%.c $(wildcard tests/unit/*.h) $(BUILD)/libcairn.a $(FLAGS_STAMP)
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) $(WERROR) $(TEST_CFLAGS) $(ALL_INCLUDES) -iquote tests/unit -o $@ $< $(BUILD)/libcairn.a $(LDFLAGS_ALL) $(LIBS) $(TEST_LIBS)

# the always-failing cmocka binary of the runner's self-test (tests/runner)
$(SELFTEST_BIN): tests/runner/test_fails.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) $(WERROR) $(TEST_CFLAGS) -o $@ $< $(LDFLAGS_ALL) $(TEST_LIBS)

$(BUILD):
	@mkdir -p $(BUILD)

# make test: unit tests (cmocka), then every shipped ruleset's own tests,
# then the REPL transcripts and the runner's self-test. tools/run-tests
# prints one summary line; built with -Werror (see WERROR).
test: all warnings layout $(TEST_BIN) $(SELFTEST_BIN) $(REPLAY_BIN) $(BUILD)/faults
	@$(MAKE) --no-print-directory -q $(BUILD)/cairn $(CORE_OBJ) || \
	  { echo "make test: a plain make would rebuild what make test built (the objects' flags differ)"; exit 1; }
	@BUILD=$(BUILD) UNIT_TESTS="$(TEST_BIN)" SELFTEST_FAIL_BIN=$(SELFTEST_BIN) tools/run-tests

play: all
	@BUILD=$(BUILD) tools/play

# make asan: the whole of make test in an ASan + UBSan build, the rulesets'
# smoke play at `cairn check --cover each` (every seat count and option value
# once: 10 Himalaya games, not 144), so that CI can run it too (.ci/run).
# Sanitizers make cairn 5-10 times slower: the CPU limit of one cairn check
# (limits.h, 10 min), meant for a plain build, is raised for them, or
# Himalaya's smoke play (about 2.5 CPU-minutes plain) trips it.
ASAN_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_TEST := CAIRN_CHECK_CPU_MS=3600000 $(MAKE) BUILD=build-asan OPT=-O1 SAN="$(ASAN_SAN)" test
asan: all
	SMOKE_COVER=each $(ASAN_TEST)

# make asan-full: the same with the whole smoke matrix (every seat count and
# option combination of every ruleset, as make test plays it): about 15
# CPU-minutes, most of it Himalaya's 144 smoke games under ASan.
asan-full: all
	$(ASAN_TEST)

# make valgrind: every unit test binary and `cairn test` of every shipped
# ruleset (its scenarios, Lua unit tests and golden playthroughs) under
# valgrind's memcheck: any leak or error fails (tools/valgrind; not part of
# make test: about 25 minutes of CPU time; docs/testing.md).
valgrind: all $(TEST_BIN)
	@BUILD=$(BUILD) tools/valgrind

# make faults: allocation failure at every site of a short game of each
# shipped ruleset (tests/faults: start, ten decisions, undo, save, load,
# reload), in an ASan build whose malloc, calloc, realloc, strdup and strndup
# are wrapped at link time to fail the Nth call (Lua's allocations too,
# through the sandbox allocator). FAULTS_K caps the failure points per step
# (0: every one; past K they are sampled). Not part of make test (minutes);
# make test runs a small k on connect4. See docs/testing.md.
FAULTS_K ?= 0
FAULTS_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
FAULTS_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

faults:
	@$(MAKE) --no-print-directory BUILD=build-faults OPT=-O1 SAN="$(FAULTS_SAN)" build-faults/faults
	@ASAN_OPTIONS=detect_leaks=1 build-faults/faults -k $(FAULTS_K) $(FAULTS_ARGS)

$(BUILD)/faults: tests/faults/faults.c tests/faults/failalloc.c tests/faults/failalloc.h $(BUILD)/libcairn.a $(FLAGS_STAMP)
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) $(WERROR) $(ALL_INCLUDES) -iquote tests/faults -o $@ tests/faults/faults.c tests/faults/failalloc.c \
	  $(BUILD)/libcairn.a $(LDFLAGS_ALL) $(FAULTS_WRAP) $(LIBS)

# make install: exactly the shipped (git-tracked) files, the binary, the man
# page and the shell completion, each listed in share/cairn/installed-files;
# make uninstall removes what that list names (tools/install).
install: all
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" BUILD="$(BUILD)" tools/install install

uninstall:
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" BUILD="$(BUILD)" tools/install uninstall

# make bot-strength, make bot-speed: the bots' strength table (about an hour of CPU, under
# nice) and their CPU time per decision (docs/bots.md); neither is part of make test.
.PHONY: bot-strength bot-speed bot-mistakes
bot-strength: all
	@tools/bot-strength
bot-speed: all $(BUILD)/libcairn.a
	@tools/bot-speed
# make decision-latency: how long the REPL's default mcts makes a person wait, p50/p99 per
# shipped game, on all cores (docs/bots.md, Every core)
.PHONY: decision-latency
decision-latency: all $(BUILD)/libcairn.a
	@tools/decision-latency
# make bot-mistakes: the bots' mistake rates on the Connect Four position suite (docs/bots.md)
bot-mistakes: all $(BUILD)/libcairn.a
	@tools/bot-mistakes

# make report-check: `cairn sim --report` pages opened in headless Chromium (Debian's chromium
# package), checked to render (docs/simulation.md); not part of make test.
.PHONY: report-check
report-check: all
	@tools/check-report

# make slurm-rehearsal: the Slurm recipe (docs/cluster/slurm-array.sh) on a one-node Slurm
# started on 127.0.0.1 (Debian's slurm-wlm, as root), 2 shards merged and compared byte for
# byte with one run (tools/slurm-rehearsal; docs/simulation.md); not part of make test.
.PHONY: slurm-rehearsal
slurm-rehearsal: all
	@BUILD=$(BUILD) tools/slurm-rehearsal

# make docker-rehearsal: the Dockerfile built (no network: base images made from this
# machine's packages) and its image run as the Kubernetes Job runs it, 2 shards merged and
# compared with one run (tools/docker-rehearsal, Debian's docker.io, as root); not in make test.
.PHONY: docker-rehearsal
docker-rehearsal:
	@tools/docker-rehearsal

# make serve-browser-check: the seats' pages of `cairn serve` driven in headless Chromium
# (Debian's chromium package, installed by tools/install-deps --browser when missing): a
# Himalaya month with three pages and the console (docs/serve.md); not part of make test.
.PHONY: serve-browser-check
serve-browser-check: all
	@command -v chromium >/dev/null 2>&1 || tools/install-deps --browser
	@BUILD=$(BUILD) tools/check-serve-browser himalaya 3

# make bench: tools/bench/*.c (the harness and the native-C Connect Four
# baseline, tools/bench/connect4.c) into build/bench; docs/bench.md.
BENCH_SRC := $(wildcard tools/bench/*.c)
BENCH_OBJ := $(BENCH_SRC:tools/bench/%.c=$(BUILD)/bench-obj/%.o)

bench: all $(BUILD)/bench
	@$(BUILD)/bench

# make bench-bots: make bench's bot section alone (mcts against a plain-Lua UCT)
bench-bots: all $(BUILD)/bench
	@BENCH_BOTS_ONLY=1 $(BUILD)/bench

$(BUILD)/bench: $(BENCH_OBJ) $(BUILD)/libcairn.a
	@echo "LINK $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(BUILD)/bench-obj/%.o: tools/bench/%.c tools/bench/bench.h $(HEADERS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@echo "CC $<"
	@$(CC) $(CFLAGS_ALL) $(WERROR) $(ALL_INCLUDES) -c -o $@ $<

# make fuzz: the libFuzzer harnesses (tests/fuzz/fuzz_*.c) built with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer into build-fuzz/, each run
# for FUZZ_SECONDS on seeds taken from the repo's own files, then one summary
# line per harness. make fuzz-regress runs every corpus once, no mutation: a
# quick smoke check (not part of make test). See docs/fuzzing.md.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -O1 -g -Wall -Wextra -Wno-unused-parameter -D_XOPEN_SOURCE=700 \
  -DCAIRN_VERSION='"$(VERSION)"' -DCAIRN_SHARE_DIR='"$(PREFIX)/share/cairn"' \
  $(PKG_CFLAGS) $(FUZZ_SAN)
FUZZ_OBJ := $(CORE_SRC:interpreter/%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: fuzz fuzz-regress fuzz-build

fuzz:
	@FUZZ_CC="$(FUZZ_CC)" tools/fuzz check
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_SECONDS="$(FUZZ_SECONDS)" tools/fuzz run

fuzz-regress:
	@FUZZ_CC="$(FUZZ_CC)" tools/fuzz check
	@$(MAKE) --no-print-directory fuzz-build
	@tools/fuzz regress

fuzz-build: $(FUZZ_BIN)

define FUZZ_LAYER_RULE
$(FUZZ_BUILD)/obj/$(1)/%.o: interpreter/$(1)/%.c
	@mkdir -p $$(@D)
	@echo "CC $$< (fuzz)"
	@$$(FUZZ_CC) $$(FUZZ_CFLAGS) $(call layer_flags,$(1)) -MMD -MP -fsanitize=fuzzer-no-link -c -o $$@ $$<
endef
$(foreach l,$(LAYERS),$(eval $(call FUZZ_LAYER_RULE,$(l))))
-include $(FUZZ_OBJ:.o=.d)

$(FUZZ_BUILD)/libcairn.a: $(FUZZ_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_game.h $(FUZZ_BUILD)/libcairn.a
	@echo "LINK $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) $(ALL_INCLUDES) -fsanitize=fuzzer -o $@ $< $(FUZZ_BUILD)/libcairn.a $(LIBS)

clean:
	rm -rf build build-asan build-faults cairn
