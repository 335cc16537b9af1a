# Makefile for cairn: build, test, play, asan, install, clean, bench.
# Every library comes from a Debian package found with pkg-config; when one is
# missing, tools/install-deps installs it (see README).

PREFIX ?= /usr/local
BUILD ?= build
CC ?= cc
OPT ?= -O2
PKGS := yaml-0.1 lua5.4 libedit
TEST_PKGS := cmocka

# Install what pkg-config cannot find, once, before anything is compiled.
MISSING := $(shell for m in $(PKGS) $(TEST_PKGS); do pkg-config --exists $$m 2>/dev/null || echo $$m; done)
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
PKG_LIBS := $(shell pkg-config --libs $(PKGS))
ifneq ($(.SHELLSTATUS),0)
$(error pkg-config --libs $(PKGS) failed; run tools/install-deps)
endif
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
# play` or `make install`. WERROR=-Werror (or WERROR=) overrides.
ifneq ($(filter test asan,$(MAKECMDGOALS)),)
WERROR ?= -Werror
endif
WARN := -Wall -Wextra $(WERROR) -Wno-unused-parameter
CFLAGS_ALL := -std=c11 $(OPT) -g $(WARN) -D_XOPEN_SOURCE=700 \
  -DCAIRN_VERSION='"$(VERSION)"' -DCAIRN_SHARE_DIR='"$(PREFIX)/share/cairn"' \
  -iquote interpreter $(PKG_CFLAGS) $(SAN) $(CFLAGS)
LDFLAGS_ALL := $(SAN) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm

CORE_SRC := $(filter-out interpreter/main.c,$(wildcard interpreter/*.c))
CORE_OBJ := $(CORE_SRC:interpreter/%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/%)
SELFTEST_BIN := $(BUILD)/selftest/test_fails

# The flags every object was built with, in a file that changes only when
# they do: each object depends on it, so `make test` (with -Werror) never
# reuses objects a plain `make` built without it, and back.
FLAGS_STAMP := $(BUILD)/flags
FLAGS_NOW := $(CC) $(CFLAGS_ALL) $(TEST_CFLAGS) | $(LDFLAGS_ALL) $(LIBS) $(TEST_LIBS)
ifneq ($(MAKECMDGOALS),clean)
ifneq ($(file <$(FLAGS_STAMP)),$(FLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif
endif

.PHONY: all test play asan asan-full valgrind faults install clean bench cairn

# Every target that builds cairn leaves ./cairn, the program the README's
# commands run (a link to build/cairn; make asan's own binary stays in
# build-asan/).
all: $(BUILD)/cairn cairn

cairn: $(BUILD)/cairn
	@if [ "$(BUILD)" = build ]; then ln -sfn $(BUILD)/cairn cairn; fi

$(BUILD)/cairn: $(BUILD)/main.o $(BUILD)/libcairn.a $(FLAGS_STAMP)
	@echo "LINK $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $(BUILD)/main.o $(BUILD)/libcairn.a $(LIBS)

$(BUILD)/libcairn.a: $(CORE_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(BUILD)/%.o: interpreter/%.c $(wildcard interpreter/*.h) $(FLAGS_STAMP) | $(BUILD)
	@echo "CC $<"
	@$(CC) $(CFLAGS_ALL) -c -o $@ $<

# the fuzz harnesses built plainly (cc, no libFuzzer) with a main that
# replays files: make test replays tests/fuzz/crashes/ with them
REPLAY_BIN := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz-replay/%,$(wildcard tests/fuzz/fuzz_*.c))

$(BUILD)/fuzz-replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c tests/fuzz/fuzz_game.h $(BUILD)/libcairn.a $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) -Wno-missing-field-initializers -Wno-format-truncation -o $@ $< tests/fuzz/replay_main.c $(BUILD)/libcairn.a $(LDFLAGS_ALL) $(LIBS)

$(BUILD)/test_%: tests/unit/test_%.c tests/unit/testutil.h $(BUILD)/libcairn.a $(FLAGS_STAMP)
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) $(TEST_CFLAGS) -iquote tests/unit -o $@ $< $(BUILD)/libcairn.a $(LDFLAGS_ALL) $(LIBS) $(TEST_LIBS)

# the always-failing cmocka binary of the runner's self-test (tests/runner)
$(SELFTEST_BIN): tests/runner/test_fails.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) $(TEST_CFLAGS) -o $@ $< $(LDFLAGS_ALL) $(TEST_LIBS)

$(BUILD):
	@mkdir -p $(BUILD)

# make test: unit tests (cmocka), then every shipped ruleset's own tests,
# then the REPL transcripts and the runner's self-test. tools/run-tests
# prints one summary line; built with -Werror (see WERROR).
test: all $(TEST_BIN) $(SELFTEST_BIN) $(REPLAY_BIN) $(BUILD)/faults
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
	@$(CC) $(CFLAGS_ALL) -iquote tests/faults -o $@ tests/faults/faults.c tests/faults/failalloc.c \
	  $(BUILD)/libcairn.a $(LDFLAGS_ALL) $(FAULTS_WRAP) $(LIBS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/cairn $(DESTDIR)$(PREFIX)/share/doc/cairn
	install -m 755 $(BUILD)/cairn $(DESTDIR)$(PREFIX)/bin/cairn
	cp -R rulesets schemas $(DESTDIR)$(PREFIX)/share/cairn/
	install -d $(DESTDIR)$(PREFIX)/share/cairn/lua
	cp -R interpreter/lua/. $(DESTDIR)$(PREFIX)/share/cairn/lua/
	cp -R docs/. README.md LICENSE $(DESTDIR)$(PREFIX)/share/doc/cairn/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/cairn/editors
	install -m 644 docs/cairn.1 $(DESTDIR)$(PREFIX)/share/man/man1/cairn.1
	cp -R editors/. $(DESTDIR)$(PREFIX)/share/cairn/editors/

# make bot-strength, make bot-speed: the bots' strength table (about an hour of CPU, under
# nice) and their CPU time per decision (docs/bots.md); neither is part of make test.
.PHONY: bot-strength bot-speed
bot-strength: all
	@tools/bot-strength
bot-speed: all $(BUILD)/libcairn.a
	@tools/bot-speed

# make bench: tools/bench/*.c (the harness and the native-C Connect Four
# baseline, tools/bench/connect4.c) into build/bench; docs/bench.md.
BENCH_SRC := $(wildcard tools/bench/*.c)
BENCH_OBJ := $(BENCH_SRC:tools/bench/%.c=$(BUILD)/bench-obj/%.o)

bench: all $(BUILD)/bench
	@$(BUILD)/bench

$(BUILD)/bench: $(BENCH_OBJ) $(BUILD)/libcairn.a
	@echo "LINK $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(BUILD)/bench-obj/%.o: tools/bench/%.c tools/bench/bench.h $(wildcard interpreter/*.h) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@echo "CC $<"
	@$(CC) $(CFLAGS_ALL) -c -o $@ $<

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
  -iquote interpreter $(PKG_CFLAGS) $(FUZZ_SAN)
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

$(FUZZ_BUILD)/obj/%.o: interpreter/%.c $(wildcard interpreter/*.h)
	@mkdir -p $(@D)
	@echo "CC $< (fuzz)"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/libcairn.a: $(FUZZ_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_game.h $(FUZZ_BUILD)/libcairn.a
	@echo "LINK $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_BUILD)/libcairn.a $(LIBS)

clean:
	rm -rf build build-asan build-faults cairn
