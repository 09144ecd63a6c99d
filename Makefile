# SPDX-License-Identifier: MIT
# iowl build: plain make, a dependency probe, unit and functional tests, sanitizer builds.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
O ?= build
CC ?= cc

CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla -Wwrite-strings -Wformat=2 -Wno-unused-parameter \
	-Wno-format-nonliteral
ifeq ($(CI),true)
WARNINGS += -Werror
endif
IOWL_CPPFLAGS = -Iinclude -Isrc -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64
IOWL_CFLAGS = -std=gnu11 -pthread -fno-common $(WARNINGS) $(SAN)
LIBS = -luring -laio -ljansson -lblkid -lpthread -lm

LIB_SRC := $(sort $(filter-out src/main.c,$(shell find src -name '*.c')))
LIB_OBJ := $(LIB_SRC:%.c=$(O)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)
HELPER_SRC := $(sort $(wildcard tests/helpers/*.c))
HELPER_BIN := $(HELPER_SRC:tests/helpers/%.c=$(O)/helpers/%)
SHIM_SRC := $(sort $(wildcard tests/shim/*.c))
SHIM_LIB := $(SHIM_SRC:tests/shim/%.c=$(O)/shim/%.so)
DEPS_STAMP := $(O)/.deps-ok

# Quiet by default; make V=1 shows every command.
ifeq ($(V),1)
Q =
say = @true
else
Q = @
say = @printf '  %-6s %s\n'
endif

.PHONY: all run test unit func asan ubsan install uninstall clean deps fuzz bench

all: iowl

$(DEPS_STAMP): scripts/deps.sh
	@sh scripts/deps.sh
	@mkdir -p $(O) && touch $@

deps: $(DEPS_STAMP)

$(O)/%.o: %.c $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(O)/libiowl.a: $(LIB_OBJ)
	@rm -f $@
	$(say) AR $@
	$(Q)$(AR) rcs $@ $^

$(O)/iowl: $(O)/src/main.o $(O)/libiowl.a
	$(say) LINK $@
	$(Q)$(CC) $(IOWL_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

iowl: $(O)/iowl
	@cp $< $@

$(O)/tests/%: tests/unit/%.c $(O)/libiowl.a $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(say) TEST $@
	$(Q)$(CC) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS) -MMD -MP -o $@ $< \
		$(O)/libiowl.a $(LDFLAGS) -lcmocka $(LIBS)

$(O)/helpers/%: tests/helpers/%.c $(O)/libiowl.a $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS) -MMD -MP -o $@ $< \
		$(O)/libiowl.a $(LDFLAGS) $(LIBS)

BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(O)/bench/%)

$(O)/bench/%: bench/%.c $(O)/libiowl.a $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS) -MMD -MP -o $@ $< \
		$(O)/libiowl.a $(LDFLAGS) $(LIBS)

# Micro-benchmarks (not tests): they print timings; bench/vs-fio.sh compares with fio.
bench: $(BENCH_BIN)
	$(O)/bench/gen_bench

# LD_PRELOAD fault injectors for the functional tests: built without sanitizers.
$(O)/shim/%.so: tests/shim/%.c
	@mkdir -p $(dir $@)
	$(say) SHIM $@
	$(Q)$(CC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC -o $@ $< -ldl

run: iowl
	./iowl jobs/quick.ini

unit: $(UNIT_BIN)
func: $(O)/iowl $(HELPER_BIN) $(SHIM_LIB)

test: $(UNIT_BIN) $(O)/iowl $(HELPER_BIN) $(SHIM_LIB)
	@IOWL=$(O)/iowl HELPERS=$(O)/helpers SHIMS=$(O)/shim sh tests/run.sh $(UNIT_BIN)

asan:
	$(MAKE) O=build-asan SAN="-fsanitize=address -fno-omit-frame-pointer" CFLAGS="-O1 -g" test

ubsan:
	$(MAKE) O=build-ubsan SAN="-fsanitize=undefined -fno-sanitize-recover=undefined" CFLAGS="-O1 -g" test

install: iowl
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 iowl $(DESTDIR)$(BINDIR)/iowl
	install -m 0644 man/iowl.1 $(DESTDIR)$(MANDIR)/man1/iowl.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/iowl $(DESTDIR)$(MANDIR)/man1/iowl.1

clean:
	rm -rf build build-asan build-ubsan build-fuzz iowl

-include $(shell find $(O) -name '*.d' 2>/dev/null)
