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

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(PKGS))
TEST_CFLAGS := $(shell pkg-config --cflags $(TEST_PKGS))
TEST_LIBS := $(shell pkg-config --libs $(TEST_PKGS))

VERSION := 0.1.0
WARN := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS_ALL := -std=c11 $(OPT) -g $(WARN) -D_XOPEN_SOURCE=700 \
  -DCAIRN_VERSION='"$(VERSION)"' -DCAIRN_SHARE_DIR='"$(PREFIX)/share/cairn"' \
  -iquote interpreter $(PKG_CFLAGS) $(SAN) $(CFLAGS)
LDFLAGS_ALL := $(SAN) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm

CORE_SRC := $(filter-out interpreter/main.c,$(wildcard interpreter/*.c))
CORE_OBJ := $(CORE_SRC:interpreter/%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/%)

.PHONY: all test play asan install clean bench

all: $(BUILD)/cairn cairn

cairn: $(BUILD)/cairn
	@ln -sf $(BUILD)/cairn cairn

$(BUILD)/cairn: $(BUILD)/main.o $(BUILD)/libcairn.a
	@echo "LINK $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(BUILD)/libcairn.a: $(CORE_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(BUILD)/%.o: interpreter/%.c $(wildcard interpreter/*.h) | $(BUILD)
	@echo "CC $<"
	@$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(BUILD)/test_%: tests/unit/test_%.c tests/unit/testutil.h $(BUILD)/libcairn.a
	@echo "LINK $@"
	@$(CC) $(CFLAGS_ALL) $(TEST_CFLAGS) -iquote tests/unit -o $@ $< $(BUILD)/libcairn.a $(LDFLAGS_ALL) $(LIBS) $(TEST_LIBS)

$(BUILD):
	@mkdir -p $(BUILD)

# make test: unit tests (cmocka), then every shipped ruleset's own tests,
# then the REPL transcripts. tools/run-tests prints one summary line.
test: $(BUILD)/cairn $(TEST_BIN)
	@BUILD=$(BUILD) tools/run-tests

play: $(BUILD)/cairn
	@tools/play

asan:
	$(MAKE) BUILD=build-asan OPT=-O1 SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test

install: $(BUILD)/cairn
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/cairn $(DESTDIR)$(PREFIX)/share/doc/cairn
	install -m 755 $(BUILD)/cairn $(DESTDIR)$(PREFIX)/bin/cairn
	cp -R rulesets schemas $(DESTDIR)$(PREFIX)/share/cairn/
	install -d $(DESTDIR)$(PREFIX)/share/cairn/lua
	cp -R interpreter/lua/. $(DESTDIR)$(PREFIX)/share/cairn/lua/
	cp -R docs/. README.md LICENSE $(DESTDIR)$(PREFIX)/share/doc/cairn/

# make bench: tools/bench/*.c (the harness and the native-C Connect Four
# baseline, tools/bench/connect4.c) into build/bench; docs/bench.md.
BENCH_SRC := $(wildcard tools/bench/*.c)
BENCH_OBJ := $(BENCH_SRC:tools/bench/%.c=$(BUILD)/bench-obj/%.o)

bench: $(BUILD)/bench
	@$(BUILD)/bench

$(BUILD)/bench: $(BENCH_OBJ) $(BUILD)/libcairn.a
	@echo "LINK $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(BUILD)/bench-obj/%.o: tools/bench/%.c tools/bench/bench.h $(wildcard interpreter/*.h)
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

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_BUILD)/libcairn.a
	@echo "LINK $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_BUILD)/libcairn.a $(LIBS)

clean:
	rm -rf build build-asan cairn
