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
ALL_CFLAGS  := -std=gnu11 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude \
               -DEXITMON_VERSION='"$(VERSION)"' -D_GNU_SOURCE \
               $(shell $(PKG_CONFIG) --cflags $(PKGS))
LIBS        := $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm -lpthread
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)

B           := build
ifeq ($(V),1)
Q :=
else
Q := @
endif

PROGRAMS    := exitmon exitgen exitsweep
MAIN_SRCS   := $(wildcard src/*_main.c) tools/exitsweep/exitsweep_main.c
LIB_SRCS    := $(filter-out $(MAIN_SRCS),$(wildcard src/*.c tools/exitsweep/*.c))
LIB_OBJS    := $(LIB_SRCS:%.c=$(B)/%.o)
UNIT_SRCS   := $(wildcard tests/unit/test_*.c)
UNIT_BINS   := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
MANPAGES    := man/exitmon.8 man/exitgen.1 man/exitsweep.1

.PHONY: all check unit e2e lint-man install clean bench soak fuzz deps demo test
all: $(PROGRAMS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(B)/libexitmon.a: $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)$(AR) rcs $@ $^

exitmon: $(B)/src/exitmon_main.o $(B)/libexitmon.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

exitgen: $(B)/src/exitgen_main.o $(B)/libexitmon.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

exitsweep: $(B)/tools/exitsweep/exitsweep_main.o $(B)/libexitmon.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/tests/%: $(B)/tests/unit/%.o $(B)/libexitmon.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

# Every tier: unit tests (no privileges), man page lint, end-to-end tests
# against the real kernel (they skip, exit 77, only where taskstats or
# CAP_NET_ADMIN is truly absent).
check: all unit sanitize fuzz-smoke lint-man e2e

unit: $(UNIT_BINS)
	$(Q)set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

lint-man:
	$(Q)out=$$(mandoc -Tlint -Wwarning $(wildcard $(MANPAGES)) 2>&1); \
	  if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "man pages: lint clean"

e2e: all
	$(Q)EXITMON_TOP=$(CURDIR) prove -v tests/e2e/

bench: all
	$(Q)tools/bench.sh

soak: all
	$(Q)tools/soak.sh

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man1
	install -m 755 exitmon $(DESTDIR)$(SBINDIR)/exitmon
	install -m 755 exitgen exitsweep $(DESTDIR)$(BINDIR)/
	install -m 644 man/exitmon.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 $(filter %.1,$(wildcard $(MANPAGES))) $(DESTDIR)$(MANDIR)/man1/
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/logrotate.d
	sed 's|/usr/local/sbin/exitmon|$(SBINDIR)/exitmon|' systemd/exitmon.service \
	  > $(DESTDIR)$(UNITDIR)/exitmon.service
	chmod 644 $(DESTDIR)$(UNITDIR)/exitmon.service
	install -m 644 systemd/exitmon.logrotate $(DESTDIR)$(SYSCONFDIR)/logrotate.d/exitmon

deps:
	$(Q)tools/deps.sh

# The README's two commands.  Each installs what is missing first, then
# re-reads this Makefile so pkg-config sees the new libraries.
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	./exitsweep --quick

test: deps
	$(Q)$(MAKE) --no-print-directory check

clean:
	rm -rf $(B) $(PROGRAMS)

include tests/fuzz/fuzz.mk

-include $(shell find $(B) -name '*.d' 2>/dev/null)
