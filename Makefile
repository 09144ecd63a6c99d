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
	-Wno-format-nonliteral -Werror=int-conversion
ifeq ($(CI),true)
WARNINGS += -Werror
endif
# Libraries come from pkg-config where they ship a .pc file (libaio does not); a missing pkg-config
# falls back to the plain -l names, and scripts/deps.sh says what to install.
PKGS := liburing jansson blkid libmicrohttpd nettle libxxhash numa zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -luring -ljansson -lblkid -lmicrohttpd -lnettle -lxxhash -lnuma -lz)
IOWL_CPPFLAGS = -Iinclude -Isrc -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 $(PKG_CFLAGS)
IOWL_CFLAGS = -std=gnu11 -pthread -fno-common $(WARNINGS) $(SAN)
LIBS = $(PKG_LIBS) -laio -lpthread -lm

# src/cluster/mpi.c is built only into iowl-mpi (see MPI below); the plain build links single.c.
MPI_SRC := src/cluster/mpi.c
LIB_SRC := $(sort $(filter-out src/main.c $(MPI_SRC),$(shell find src -name '*.c')))
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

.PHONY: format format-check FORCE all run test unit func asan ubsan tsan fio-ref install uninstall clean deps fuzz bench iowl-mpi iowl-mpich

all: iowl $(if $(filter 1,$(MPI)),iowl-mpi)

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

# MPI (optional: make MPI=1, or make iowl-mpi): iowl-mpi is iowl with src/cluster/mpi.c linked
# before libiowl.a, so the archive's single-process cluster (single.o) is never pulled in.
# make test builds it (after scripts/deps.sh may have installed it) where mpicc and mpi.h are
# found (Debian: libopenmpi-dev), but not under ASan or TSan, whose reports about the MPI
# library's own memory and threads are not iowl's: the tests/func/mpi_* tests skip there.
MPICC ?= mpicc
MPI_OK := $(if $(findstring address,$(SAN))$(findstring thread,$(SAN)),,1)

$(O)/src/cluster/mpi.o: src/cluster/mpi.c $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(say) MPICC $<
	$(Q)OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS) \
		-MMD -MP -c -o $@ $<

$(O)/iowl-mpi: $(O)/src/main.o $(O)/src/cluster/mpi.o $(O)/libiowl.a
	$(say) LINK $@
	$(Q)OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC) $(IOWL_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

iowl-mpi: $(O)/iowl-mpi
	@cp $< $@

# The same with MPICH where it is installed beside Open MPI (Debian: libmpich-dev, whose
# mpicc.mpich stays out of the way of Open MPI's mpicc): iowl-mpich, for mpirun.mpich.
MPICC_MPICH ?= mpicc.mpich

$(O)/mpich/mpi.o: src/cluster/mpi.c $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(say) MPICC '$< (MPICH)'
	$(Q)MPICH_CC=$(CC) $(MPICC_MPICH) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS) \
		-MMD -MP -c -o $@ $<

$(O)/iowl-mpich: $(O)/src/main.o $(O)/mpich/mpi.o $(O)/libiowl.a
	$(say) LINK $@
	$(Q)MPICH_CC=$(CC) $(MPICC_MPICH) $(IOWL_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

iowl-mpich: $(O)/iowl-mpich
	@cp $< $@

$(O)/tests/%: tests/unit/%.c $(O)/libiowl.a $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(say) TEST $@
	$(Q)$(CC) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS) -MMD -MP -o $@ $< \
		$(O)/libiowl.a $(LDFLAGS) -lcmocka $(LIBS)

# pngcheck (the screenshots of tests/func/report_browser.sh) inflates PNG data with zlib.
$(O)/helpers/pngcheck: LIBS += -lz

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

# libFuzzer over the job-file parser and option checks, and over the vdbench parameter-file
# reader and its translation (clang), FUZZ_TIME seconds each, in scratch directories so that
# fuzzed includes find nothing; the seeds are every job and parameter file we ship.
FUZZ_TIME ?= 60
FUZZ_CC ?= clang
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_SRC) $(DEPS_STAMP)
	@mkdir -p build-fuzz
	$(say) FUZZ $@
	$(Q)$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(IOWL_CPPFLAGS) -o $@ $< $(LIB_SRC) $(LIBS)

fuzz: build-fuzz/fuzz_jobfile build-fuzz/fuzz_vdbench
	@rm -rf build-fuzz/run && mkdir -p build-fuzz/run/corpus
	@cp jobs/*.ini build-fuzz/run/corpus/
	@for f in tests/bad/*/job.ini; do [ -f "$$f" ] && cp "$$f" "build-fuzz/run/corpus/$$(basename $$(dirname $$f)).ini"; done; true
	cd build-fuzz/run && ASAN_OPTIONS=detect_leaks=1 ../fuzz_jobfile -max_total_time=$(FUZZ_TIME) \
		-max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus
	@rm -rf build-fuzz/vrun && mkdir -p build-fuzz/vrun/corpus
	@cp tests/vdbench/*.vdb build-fuzz/vrun/corpus/
	@for f in tests/vdbench/bad/*/param.vdb; do [ -f "$$f" ] && cp "$$f" "build-fuzz/vrun/corpus/$$(basename $$(dirname $$f)).vdb"; done; true
	cd build-fuzz/vrun && ASAN_OPTIONS=detect_leaks=1 ../fuzz_vdbench -max_total_time=$(FUZZ_TIME) \
		-max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus

# The compile commands of every source file, for clangd and clang-tidy (no bear needed): the same
# flags the build uses.
compile_commands.json: Makefile FORCE
	$(say) GEN $@
	$(Q)dir=$$(pwd); first=1; { echo '['; \
	for f in src/main.c $(LIB_SRC) $(UNIT_SRC) $(HELPER_SRC) $(BENCH_SRC); do \
		[ $$first = 1 ] || echo ','; first=0; \
		printf '  { "directory": "%s", "file": "%s",\n    "command": "%s -c -o /dev/null %s" }' \
			"$$dir" "$$f" "$(CC) $(IOWL_CPPFLAGS) $(CPPFLAGS) $(IOWL_CFLAGS) $(CFLAGS)" "$$f"; \
	done; echo; echo ']'; } > $@

run: iowl
	@sh scripts/run.sh ./iowl

unit: $(UNIT_BIN)
func: $(O)/iowl $(HELPER_BIN) $(SHIM_LIB)

# The suite runs its tests in parallel (TEST_JOBS at once; they wait on devices and timers more than
# they compute), each recording its outcome under $(O)/results; tests/summary.sh then adds them up.
# They start slowest first (tests/order.sh: the previous run's times, else a list measured here).
# fio's version is asked once for them all (IOWL_FIO_VERSION, read by tests/lib.sh's have_fio).
FUNC_SRC := $(sort $(wildcard tests/func/*.sh))
TEST_NAMES := $(FUNC_SRC:tests/func/%.sh=func/%) $(UNIT_SRC:tests/unit/%.c=unit/%)
TEST_JOBS ?= 6
RES := $(O)/results

test: $(UNIT_BIN) $(O)/iowl $(HELPER_BIN) $(SHIM_LIB)
	@sh scripts/test-deps.sh
	@if [ -n "$(MPI_OK)" ] && printf '\043include <mpi.h>\nint main(void){return 0;}\n' | \
		$(MPICC) -x c -o /dev/null - >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) O=$(O) $(O)/iowl-mpi; fi
	@if [ -n "$(MPI_OK)" ] && printf '\043include <mpi.h>\nint main(void){return 0;}\n' | \
		$(MPICC_MPICH) -x c -o /dev/null - >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) O=$(O) $(O)/iowl-mpich; fi
	@order=$$(sh tests/order.sh $(RES) $(TEST_NAMES)) && rm -rf $(RES) && \
	IOWL_FIO_VERSION=$$(fio --version 2>/dev/null || true) && export IOWL_FIO_VERSION && \
	MAKEFLAGS= $(MAKE) --no-print-directory -k -j$(TEST_JOBS) -f $(firstword $(MAKEFILE_LIST)) \
		O=$(O) $$(for t in $$order; do printf '%s ' $(RES)/$$t; done) || true
	@sh tests/summary.sh $(RES) $(TEST_NAMES)

$(RES)/unit/%: FORCE
	@sh tests/run-one.sh unit $(O)/tests/$* $@

$(RES)/func/%: FORCE
	@IOWL=$(O)/iowl HELPERS=$(O)/helpers SHIMS=$(O)/shim sh tests/run-one.sh func tests/func/$*.sh $@

FORCE:

# fio's side of the comparisons with fio, stored so that make test need not start fio for each
# (tests/fio-diff/ref, tests/data/fio-examples.ref): after changing a case, tests/fio-diff/run.sh
# or tests/helpers/fdsum.c, or with another fio; until then the tests run fio live where it differs.
# Likewise fio's answers the tests know (tests/data/fio-kept.ref, tests/lib.sh's fio_kept).
fio-ref: $(O)/iowl $(HELPER_BIN)
	IOWL=$(O)/iowl HELPERS=$(O)/helpers SHIMS=$(O)/shim sh tests/fio-diff/run.sh --ref
	IOWL=$(O)/iowl HELPERS=$(O)/helpers SHIMS=$(O)/shim sh tests/func/fio_examples.sh --ref
	rm -f tests/data/fio-kept.ref
	for t in $$(grep -l 'fio_kept\|same_as_fio' tests/func/*.sh); do \
		IOWL_FIO_KEEP=1 IOWL=$(O)/iowl HELPERS=$(O)/helpers SHIMS=$(O)/shim sh $$t || exit 1; done
	LC_ALL=C sort -k2,2 -k1,1 -o tests/data/fio-kept.ref tests/data/fio-kept.ref

asan:
	$(MAKE) O=build-asan SAN="-fsanitize=address -fno-omit-frame-pointer" CFLAGS="-O1 -g" test

ubsan:
	$(MAKE) O=build-ubsan SAN="-fsanitize=undefined -fno-sanitize-recover=undefined" CFLAGS="-O1 -g" test

# ThreadSanitizer: a race report fails the test that ran into it (halt_on_error, exit code 66).
# IOWL_TSAN: tests/run-one.sh skips the (single-threaded) unit tests and waits longer for a test.
# TSAN_TESTS="func/a func/b" runs only those (CI runs them all).
tsan:
	IOWL_TSAN=1 TSAN_OPTIONS="halt_on_error=1 exitcode=66 $(TSAN_OPTIONS)" \
		$(MAKE) O=build-tsan SAN="-fsanitize=thread" CFLAGS="-O1 -g" \
		$(if $(TSAN_TESTS),TEST_NAMES="$(TSAN_TESTS)") test

# make install: the binary, the man page, the bash completion and the example jobs; DESTDIR for
# staged installs (packages), PREFIX for the place.
DATADIR ?= $(PREFIX)/share
COMPDIR ?= $(DATADIR)/bash-completion/completions
JOBS_SRC := $(sort $(wildcard jobs/*.ini))

install: $(O)/iowl
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR) \
		$(DESTDIR)$(DATADIR)/iowl/jobs
	install -m 0755 $(O)/iowl $(DESTDIR)$(BINDIR)/iowl
	install -m 0644 man/iowl.1 $(DESTDIR)$(MANDIR)/man1/iowl.1
	install -m 0644 contrib/iowl.bash-completion $(DESTDIR)$(COMPDIR)/iowl
	install -m 0644 $(JOBS_SRC) $(DESTDIR)$(DATADIR)/iowl/jobs/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/iowl $(DESTDIR)$(MANDIR)/man1/iowl.1 $(DESTDIR)$(COMPDIR)/iowl
	rm -f $(JOBS_SRC:jobs/%=$(DESTDIR)$(DATADIR)/iowl/jobs/%)
	-rmdir $(DESTDIR)$(DATADIR)/iowl/jobs $(DESTDIR)$(DATADIR)/iowl 2>/dev/null

# Formatting: new and changed C lines follow .clang-format (scripts/check-format.sh says which).
format-check:
	@sh scripts/check-format.sh

format:
	@sh scripts/check-format.sh fix

clean:
	rm -rf build build-asan build-ubsan build-tsan build-fuzz iowl iowl-mpi iowl-mpich compile_commands.json

-include $(shell find $(O) -name '*.d' 2>/dev/null)
