# accelscope - one non-recursive Makefile.
#   make            build ./accelscope
#   make run        install missing build dependencies, build, start the TUI
#   make check      install missing dependencies, build, run the test suites (also under ASan+UBSan)
#   make check-cpus the CLI and TUI under qemu-x86_64 as other CPUs (no AES-NI, no AVX, no SHA, max)
#   make bench      benchmark scripts (ratios measured side by side)
#   make fuzz       libFuzzer over the parsers of outside input (clang; not in check or CI)
#   make install / uninstall / clean
# Overridable: CC CFLAGS LDFLAGS PREFIX DESTDIR CROSS_COMPILE PKG_CONFIG

CROSS_COMPILE ?=
ifneq ($(CROSS_COMPILE),)
CC := $(CROSS_COMPILE)gcc
AR := $(CROSS_COMPILE)ar
endif
ifneq ($(CROSS_COMPILE),)
# Cross builds read only the target's .pc files (Debian multiarch: i686 -> i386-linux-gnu).
PKG_CONFIG ?= PKG_CONFIG_LIBDIR=/usr/lib/$(shell $(CC) -print-multiarch)/pkgconfig:/usr/share/pkgconfig pkg-config
else
PKG_CONFIG ?= pkg-config
endif
PREFIX ?= /usr/local
DESTDIR ?=
CFLAGS ?= -O2 -g
LDFLAGS ?=
VERSION := 0.1.0

TRIPLE := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(filter x86_64%,$(TRIPLE)),)
ASMDIR := x86_64
else ifneq ($(filter i386-% i486-% i586-% i686-%,$(TRIPLE)),)
ASMDIR := x86
else ifneq ($(filter aarch64%,$(TRIPLE)),)
ASMDIR := aarch64
else
ASMDIR := none
endif

# Sanitizer builds go to their own tree: `make SAN=1` -> build/san/
ifeq ($(SAN),1)
BUILD ?= build/san$(if $(CROSS_COMPILE),-$(CROSS_COMPILE:-=))
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD ?= build/$(if $(CROSS_COMPILE),$(CROSS_COMPILE:-=),native)
SANFLAGS :=
endif

REQ_PKGS := libcrypto ncursesw
# Optional: used where present (Debian has no libcpuid for arm64)
OPT_PKGS := libcpuid libkcapi
have = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo yes)
OPT_FOUND := $(foreach p,$(OPT_PKGS),$(if $(call have,$(p)),$(p)))
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(REQ_PKGS) $(OPT_FOUND) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(REQ_PKGS) $(OPT_FOUND) 2>/dev/null)
HAVE_DEFS := $(foreach p,$(OPT_FOUND),-DHAVE_$(shell echo $(p) | tr a-z A-Z))

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# _FILE_OFFSET_BITS=64: 32-bit builds read directories and files with 64-bit offsets. Under
# qemu-i386 (kernels without IA32) ext4 hands out 64-bit directory cookies, and a 32-bit
# readdir() fails on them with EOVERFLOW: the results folder looked empty (t_csvread).
ALL_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -DACCELSCOPE_VERSION='"$(VERSION)"' \
              $(HAVE_DEFS) $(PKG_CFLAGS) $(SANFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lpthread -lm

# The layers: each directory compiles with only the include paths it may use. The core (src/)
# sees itself; backends see the core's contract headers (impl, algo, cpu...) and the asm
# kernels' declarations; the TUI and the entry point (ui/main.c) see the core; tests see all.
$(BUILD)/src/%.o: INC := -iquote src
$(BUILD)/backends/%.o: INC := -iquote src -iquote backends -iquote asm
$(BUILD)/ui/%.o: INC := -iquote src -iquote ui
$(BUILD)/asm/%.o: INC := -iquote asm
TEST_INC := -iquote src -iquote ui -iquote backends -iquote asm -iquote tests

CORE_SRC := $(wildcard src/*.c backends/*.c backends/*/*.c)
ASM_SRC := $(wildcard asm/$(ASMDIR)/*.S)
UI_SRC := $(wildcard ui/*.c)
TEST_SRC := $(wildcard tests/t_*.c)

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o) $(ASM_SRC:%.S=$(BUILD)/%.o)
UI_OBJ := $(UI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
CORE_LIB := $(BUILD)/libaccelscope.a
BIN := $(BUILD)/accelscope

.PHONY: all run check check-cpus check-kernel check-cross fuzz bench screenshots deps print-libs \
        install uninstall clean tests
all: accelscope

accelscope: $(BIN)
	@if [ "$(BUILD)" = "build/native" ]; then ln -sf $(BIN) accelscope; fi

$(BIN): $(UI_OBJ) $(CORE_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(UI_OBJ) $(CORE_LIB) $(LIBS)

$(CORE_LIB): $(CORE_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(INC) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.S
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(INC) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(CORE_LIB) $(wildcard tests/*.h tests/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $(ALL_LDFLAGS) -o $@ $< $(CORE_LIB) $(LIBS)

tests: $(TEST_BIN) $(BIN)

# libFuzzer harnesses (tests/fuzz/run.sh builds them with clang into build/fuzz/).
$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -fsanitize=fuzzer $(ALL_LDFLAGS) -o $@ $< $(CORE_LIB) $(LIBS)

-include $(CORE_OBJ:.o=.d) $(UI_OBJ:.o=.d)

DEPS_PROFILE ?= check
deps:
	@sh tests/install-deps.sh $(DEPS_PROFILE)

run:
	@sh tests/install-deps.sh build
	@$(MAKE) --no-print-directory accelscope
	./accelscope

# The suites: unit tests (native and ASan+UBSan), CLI end to end, TUI in tmux.
check: deps
	@$(MAKE) --no-print-directory accelscope tests
	@$(MAKE) --no-print-directory SAN=1 tests
	@sh tests/run.sh build/native build/san

check-kernel: deps
	@$(MAKE) --no-print-directory accelscope
	@sh tests/kernel/run.sh

check-cross:
	@sh tests/cross/run.sh

# The CLI and a short TUI pass under qemu-x86_64 as other CPU models (tests/cpus/run.sh).
check-cpus: deps
	@sh tests/cpus/run.sh

# Not in check nor CI: a few minutes per parser (FUZZ_TIME=seconds per target, default 120).
fuzz:
	@sh tests/fuzz/run.sh

# The libraries a program linked against libaccelscope.a needs here (the optional ones found):
# for the bench scripts that link their own harness with an older tree's kernels.
print-libs:
	@echo $(LIBS)

bench: deps
	@$(MAKE) --no-print-directory accelscope tests
	@sh tests/bench/run.sh

screenshots:
	@sh tests/install-deps.sh screenshots
	@$(MAKE) --no-print-directory accelscope
	@sh tests/screenshots.sh

install: accelscope
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/accelscope
	install -m 644 src/accelscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/accelscope.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/accelscope $(DESTDIR)$(PREFIX)/share/man/man1/accelscope.1

clean:
	rm -rf build accelscope
