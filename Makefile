# exitmon -- taskstats exit-accounting monitor.  Plain make + pkg-config.
# `make V=1` shows the commands; `make install DESTDIR=... PREFIX=...`.

VERSION     := 0.1.0
PREFIX      ?= /usr/local
SBINDIR     ?= $(PREFIX)/sbin
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
SYSCONFDIR  ?= /etc
UNITDIR     ?= $(PREFIX)/lib/systemd/system

CC          ?= cc
PKG_CONFIG  ?= pkg-config
PKGS        := libnl-3.0 libnl-genl-3.0 libcap json-c
WARN        := -Wall -Wextra -Wformat=2 -Wshadow -Wmissing-prototypes \
               -Wstrict-prototypes
CFLAGS      ?= -O2 -g
# CI builds warning-free or not at all.
ifeq ($(CI),true)
EXTRA_CFLAGS += -Werror
endif
# pkg-config is asked quietly: on a fresh machine `make demo` and `make
# test` install the libraries first (tools/deps.sh) and then build in a
# make that reads this file again; a goal that needs them and finds them
# missing says so in one line.
PKG_MISSING := $(shell for p in $(PKGS) libbpf; do \
                 $(PKG_CONFIG) --exists $$p 2>/dev/null || echo $$p; done)
NO_PKG_GOALS := deps demo test test-kernels test-systemd deb clean lint-man
ifneq ($(PKG_MISSING),)
ifneq ($(filter-out $(NO_PKG_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error $(PKG_MISSING): not found by $(PKG_CONFIG); `make deps` (as root) installs what exitmon needs)
endif
endif
ALL_CFLAGS  := -std=gnu11 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude \
               -DEXITMON_VERSION='"$(VERSION)"' -D_GNU_SOURCE \
               $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIBS        := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lz -lm -lpthread
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)

B           := build
ifeq ($(V),1)
Q :=
else
Q := @
endif

# A folder per program over one shared library (src/common, headers in
# include/).  A program's private headers sit beside its sources; a folder
# may add its own rules in a build.mk (e.g. generated BPF skeletons).
PROGRAMS    := exitmon exitgen exitsweep exitstat exitprobe
exitmon_DIR   := src/exitmon
exitgen_DIR   := src/exitgen
exitsweep_DIR := src/exitsweep
exitstat_DIR  := src/exitstat
exitprobe_DIR := src/exitprobe
exitprobe_LIBS := $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null)
PROG_DIRS   := $(foreach p,$(PROGRAMS),$($(p)_DIR))
COMMON_SRCS := $(wildcard src/common/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(B)/%.o)
MAIN_SRCS   := $(foreach p,$(PROGRAMS),$($(p)_DIR)/$(p)_main.c)
# Everything but the mains: what the unit tests and sanitizer builds link.
LIB_SRCS    := $(COMMON_SRCS) $(filter-out $(MAIN_SRCS),\
               $(foreach d,$(PROG_DIRS),$(wildcard $(d)/*.c)))
TEST_INC    := -Isrc/common $(addprefix -I,$(PROG_DIRS))
UNIT_SRCS   := $(wildcard tests/unit/test_*.c)
UNIT_BINS   := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
# Kept (not deleted as intermediate): check-build makes them, check reuses them.
.SECONDARY: $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%.o)
MANPAGES    := man/exitmon.8 man/exitprobe.8 man/exitgen.1 man/exitsweep.1 \
               man/exitstat.1

.PHONY: all check check-build check-side deb-early unit e2e lint-man install clean bench bench-peers bench-exitstat soak fuzz deps demo test test-busy test-kernels test-systemd deb
all: $(PROGRAMS)

# -I of the source's own folder: a program's private headers.
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(dir $<) -MMD -MP -c $< -o $@

$(B)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_INC) -MMD -MP -c $< -o $@

$(B)/libcommon.a: $(COMMON_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# program P: its folder's objects as lib<P>.a (for unit tests), then P.
define program
$(1)_OBJS := $$(patsubst %.c,$(B)/%.o,$$(filter-out $$($(1)_DIR)/$(1)_main.c,$$(wildcard $$($(1)_DIR)/*.c)))
$(B)/lib$(1).a: $$($(1)_OBJS)
	@$$(if $$(Q),echo "  AR      $$@")
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^
$(1): $(B)/$$($(1)_DIR)/$(1)_main.o $(B)/lib$(1).a $(B)/libcommon.a
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $$(ALL_CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LIBS) $$($(1)_LIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call program,$(p))))

PROG_LIBS   := $(foreach p,$(PROGRAMS),$(B)/lib$(p).a)
$(B)/tests/%: $(B)/tests/unit/%.o $(PROG_LIBS) $(B)/libcommon.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

# Every tier: unit tests (no privileges), man page lint, end-to-end tests
# against the real kernel (they skip, exit 77, only where taskstats or
# CAP_NET_ADMIN is truly absent).
check: all unit sanitize check-side lint-man e2e

# Side by side, where nothing measures time: the three fuzz smoke targets,
# and the package (80-deb-package.t, then make test-systemd, install the
# one built from the committed tree).  Building it here only saves time:
# where it cannot be built, 80-deb-package.t builds it again and says why.
check-side:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) fuzz-smoke deb-early
deb-early:
	$(Q)if [ "$$(id -u)" = 0 ] && command -v dpkg-buildpackage >/dev/null; then \
	  tools/mkdeb.sh $(VERSION) >/dev/null 2>&1 || \
	  echo "make deb failed here: 80-deb-package.t will build it again and show why"; fi

unit: $(UNIT_BINS)
	$(Q)set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

lint-man:
	$(Q)out=$$(mandoc -Tlint -Wwarning $(wildcard $(MANPAGES)) 2>&1); \
	  if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "man pages: lint clean"

# tests/kernels/ holds the tier that boots other kernels (test-kernels)
# and one test of its BTF checker that needs no guest, run here.
KERNEL_TESTS := $(filter-out tests/kernels/20-btf-check-self.t,$(wildcard tests/kernels/*.t))
e2e: all $(B)/bench/floor
	$(Q)EXITMON_TOP=$(CURDIR) prove -v tests/e2e/ tests/kernels/20-btf-check-self.t

# The e2e tests beside an exit-heavy load of other work (tools/busy-load.sh),
# as on a machine building kernels: taskstats sends every exit on the
# machine to every listener.  The unit tier needs no load.  Only the files
# that count exits or records, or keep a schedule: the ones other exits and
# a short CPU can break (the whole tier, BUSY_TESTS=tests/e2e/, would add
# its 5 minutes and more again to CI for files that never meet an exit).
BUSY_TESTS ?= $(addprefix tests/e2e/,10-exitmon-threads.t \
	11-exitmon-processes.t 12-exitmon-loss.t 21-exitgen-rate.t \
	24-exitgen-lifecycle.t 25-exitgen-shapes-exitmon.t \
	27-exitgen-sync-work.t 31-hostile-comm-live.t 40-exitsweep.t \
	42-exitsweep-examples.t 70-exitstat-workloads.t)
test-busy: all $(B)/bench/floor
	$(Q)EXITMON_TOP=$(CURDIR) tools/busy-load.sh prove -v $(BUSY_TESTS)

# Inside Debian's kernels 6.1, 6.12, 6.19 and the newest 7.x, booted under
# QEMU by tools/kernel-run (KERNELS="6.1 7" to choose); fetched once and
# cached (tools/kernel-fetch, which locks its cache).  Never more than two
# guests at once: the real-kernels suite boots two at a time by itself, and
# the other files (one guest each) run side by side before it.  Nothing
# there is timed, but guests under TCG die now and then as exitprobe
# attaches (30-real-kernels.t retries), and a third guest on two CPUs
# only makes each one slower.
KERNEL_SUITE := tests/kernels/30-real-kernels.t
test-kernels: deps
	$(Q)tools/deps.sh kernels
	$(Q)$(MAKE) --no-print-directory all
	$(Q)EXITMON_TOP=$(CURDIR) prove -v -j2 $(filter-out $(KERNEL_SUITE),$(KERNEL_TESTS)); a=$$?; \
	  EXITMON_TOP=$(CURDIR) prove -v $(filter $(KERNEL_SUITE),$(KERNEL_TESTS)); b=$$?; \
	  [ $$a -eq 0 ] && [ $$b -eq 0 ]

# The Debian package and its unit under a real systemd (PID 1 in a QEMU
# guest of Debian's 6.1 with a bookworm root filesystem; as root: the root
# filesystem is made once with debootstrap and cached).
test-systemd: deps
	$(Q)tools/deps.sh systemd
	$(Q)$(MAKE) --no-print-directory all deb
	$(Q)EXITMON_TOP=$(CURDIR) prove -v tests/systemd/

bench: all $(B)/bench/floor
	$(Q)tools/bench.sh

# The floor listener bench.sh measures exitmon against (not installed).
$(B)/bench/floor: tests/bench/floor.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBS)
# The peers part of make bench alone: exitmon among the kernel's own
# sample listeners (getdelays, procacct), built from a kernel source if
# one is at hand (tools/bench-peers.sh), skipped if not.
bench-peers: all $(B)/bench/floor
	$(Q)BENCH_PARTS=peers tools/bench.sh
# exitstat's reading speed against awk on a 10-million-record CSV.
bench-exitstat: exitstat
	$(Q)tools/bench-exitstat.sh

soak: all
	$(Q)tools/soak.sh

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man1
	install -m 755 exitmon exitprobe $(DESTDIR)$(SBINDIR)/
	install -m 755 exitgen exitsweep exitstat $(DESTDIR)$(BINDIR)/
	install -m 644 man/exitmon.8 man/exitprobe.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 $(filter %.1,$(wildcard $(MANPAGES))) $(DESTDIR)$(MANDIR)/man1/
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/logrotate.d
	sed 's|/usr/local/sbin/exitmon|$(SBINDIR)/exitmon|' systemd/exitmon.service \
	  > $(DESTDIR)$(UNITDIR)/exitmon.service
	chmod 644 $(DESTDIR)$(UNITDIR)/exitmon.service
	install -m 644 systemd/exitmon.logrotate $(DESTDIR)$(SYSCONFDIR)/logrotate.d/exitmon

# build/deb/exitmon_$(VERSION)_<arch>.deb, from git archive HEAD with
# tools/debian as debian/ (debhelper; README "Running it as a service").
deb:
	$(Q)tools/mkdeb.sh $(VERSION)

deps:
	$(Q)tools/deps.sh

# The README's two commands.  Each installs what is missing first, then
# re-reads this Makefile so pkg-config sees the new libraries.
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tools/demo.sh

# Everything the tiers run is built first, in parallel (the tests then
# run one at a time: taskstats is machine-wide).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) check-build
	$(Q)$(MAKE) --no-print-directory check

clean:
	rm -rf $(B) $(PROGRAMS)

# Per-folder extra rules (generated sources and the like).
-include $(wildcard src/*/build.mk)

include tests/fuzz/fuzz.mk

check-build: all $(UNIT_BINS) $(B)/bench/floor $(SANITIZE_BINS) $(FUZZ_SMOKE_BINS)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
