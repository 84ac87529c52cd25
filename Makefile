# SPDX-License-Identifier: GPL-2.0-or-later
# exitmon -- taskstats exit-accounting monitor.  Plain make + pkg-config.
# `make V=1` shows the commands; `make install DESTDIR=... PREFIX=...`.
#
# Top to bottom: configuration, the build, install and the package (and
# deps, clean), the README's two commands (make demo, make test), then the
# test fragments: tests/tiers.mk holds every test tier (its first lines
# map them), tests/fuzz/fuzz.mk the fuzz and sanitizer builds,
# tests/bench/bench.mk the bench and soak commands.

# ---- Configuration ---------------------------------------------------------

VERSION     := 0.1.0
PREFIX      ?= /usr/local
SBINDIR     ?= $(PREFIX)/sbin
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DATADIR     ?= $(PREFIX)/share
DOCDIR      ?= $(DATADIR)/doc/exitmon
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
# The goals that install their own (tools/deps.sh GOAL) and need nothing first.
NO_PKG_GOALS := deps demo test test-kernels test-systemd test-fleet bench deb clean lint-man lint-deps lint-licence
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
# Builds run this many jobs side by side (make test's build, the fuzz
# smoke beside the package); the tests themselves run one at a time.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

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
# The headers a test source sees: the library's and every program's.
TEST_INC    := -Isrc/common $(addprefix -I,$(PROG_DIRS))
UNIT_SRCS   := $(wildcard tests/unit/test_*.c)
UNIT_BINS   := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
MANPAGES    := man/exitmon.8 man/exitprobe.8 man/exitgen.1 man/exitsweep.1 \
               man/exitstat.1

# ---- Build -----------------------------------------------------------------

.PHONY: all install deb deps demo test clean
all: $(PROGRAMS)

# -I of the source's own folder: a program's private headers.
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(dir $<) -MMD -MP -c $< -o $@

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

# The unit tests (tests/unit/test_*.c, cmocka): each linked with every
# program's library and the common one.
$(B)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_INC) -MMD -MP -c $< -o $@

PROG_LIBS   := $(foreach p,$(PROGRAMS),$(B)/lib$(p).a)
$(B)/tests/%: $(B)/tests/unit/%.o $(PROG_LIBS) $(B)/libcommon.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)
# Kept (not deleted as intermediate): check-build makes them, check reuses them.
.SECONDARY: $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%.o)

# Per-folder extra rules (generated sources and the like).
-include $(wildcard src/*/build.mk)

# What each object built so far includes (-MMD), so a header change
# rebuilds it.
-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- Install, package, dependencies, clean ---------------------------------

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
	install -d $(DESTDIR)$(DATADIR)/exitmon
	./exitmon --json-schema > $(DESTDIR)$(DATADIR)/exitmon/exits.schema.json
	chmod 644 $(DESTDIR)$(DATADIR)/exitmon/exits.schema.json
	install -d $(DESTDIR)$(DOCDIR)/examples
	install -m 644 $(wildcard examples/*) $(DESTDIR)$(DOCDIR)/examples/

# build/deb/exitmon_$(VERSION)_<arch>.deb, from git archive HEAD with
# tools/debian as debian/ (debhelper; README "Running it as a service").
deb:
	$(Q)tools/deps.sh deb
	$(Q)tools/mkdeb.sh $(VERSION)

# What make test needs (Debian packages; as root it installs them,
# otherwise says what to run).  Every goal a user may run first on a new
# machine (demo, test, bench, deb, test-kernels, test-systemd, test-fleet)
# asks tools/deps.sh for its own list before it builds anything.
deps:
	$(Q)tools/deps.sh test

clean:
	rm -rf $(B) $(PROGRAMS)

# ---- The README's two commands ---------------------------------------------
# Each installs what is missing first, then re-reads this Makefile so
# pkg-config sees the new libraries.

demo:
	$(Q)tools/deps.sh demo
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tools/demo.sh

# Every tier (tests/tiers.mk): everything they run is built first, in
# parallel, then the tests run one at a time (taskstats is machine-wide).
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) check-build
	$(Q)$(MAKE) --no-print-directory check

# ---- Test fragments --------------------------------------------------------
# In this order: fuzz.mk defines SANITIZE_BINS and FUZZ_SMOKE_BINS, which
# tiers.mk names as prerequisites (read as each rule is read).  All three
# use the configuration above (ALL_CFLAGS, LIBS, LIB_SRCS, UNIT_SRCS,
# UNIT_BINS, TEST_INC, CMOCKA_LIBS, JOBS, Q).

include tests/fuzz/fuzz.mk
include tests/bench/bench.mk
include tests/tiers.mk
