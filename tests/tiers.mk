# SPDX-License-Identifier: GPL-2.0-or-later
# The test tiers: every target that runs tests, and its variables.
# Included last from the main Makefile, after tests/fuzz/fuzz.mk (whose
# SANITIZE_BINS and FUZZ_SMOKE_BINS check-build names); uses the main
# Makefile's configuration (UNIT_BINS, MANPAGES, JOBS, VERSION, B, Q).
#
#   tier          what it proves (what it needs)
#   unit          the library's and programs' functions, cmocka (nothing)
#   sanitize      unit tests, fuzz seeds, a replay under ASan+UBSan (clang)
#   fuzz-smoke    each fuzz target from its seeds, bounded (clang libFuzzer)
#   lint-man      the man pages are mandoc -Tlint clean (mandoc)
#   lint-layout   every include and call arrow down, names and guards by file
#                 (tools/include-graph over the built objects; python3)
#   lint-deps     every tool a tier's tests look up (command -v) is installed
#                 by that tier's deps step (tools/deps-lint; no network)
#   lint-licence  every source file says GPL-2.0-or-later on an SPDX line
#                 (tools/licence-lint; git)
#   instr-gate    exitmon --replay's instructions per record, per case, rose
#                 no more than 2% over tests/bench/instr-baseline (valgrind)
#   e2e           the programs on the real kernel, tests/e2e/: each file once,
#                 the busy tier's beside an exit-heavy load (root, taskstats)
#   check         all nine, the package built beside the fuzz smoke (root)
#   check-build   builds all that check runs, in parallel (libraries, clang)
#   test          deps, check-build, check: CI's first step (in the Makefile)
#   test-busy     e2e's second half alone: the "# tier: busy" files under
#                 an exit-heavy load (root)
#   test-kernels  tests/kernels/ in Debian's 6.1 to 7.x under QEMU (a download once)
#   test-systemd  the package's unit under a real systemd, QEMU (root)
#   test-fleet    a fleet in network namespaces: rsyslog, PostgreSQL, Prometheus (root)
#
# sanitize and fuzz-smoke are defined in tests/fuzz/fuzz.mk.  test-kernels
# test-systemd and test-fleet install what they need first (tools/deps.sh
# GOAL: what make test needs and their own).
#
# A privileged test skips (exit 77) only where taskstats or CAP_NET_ADMIN
# is truly absent; CI (.ci/run: test, test-kernels, test-systemd,
# test-fleet) fails on any skip.

.PHONY: unit lint-man lint-layout lint-deps lint-licence instr-gate instr-baseline e2e check check-build fuzz-smoke-beside-deb deb-prebuild \
        test-busy test-kernels test-kernels-rig test-kernels-suite test-systemd test-fleet

unit: $(UNIT_BINS)
	$(Q)set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

lint-layout: all
	$(Q)tools/include-graph

# A test that finds a tool missing skips or fails, on a new machine only:
# each lookup held to the package lists of tools/deps.sh.
lint-deps:
	$(Q)tools/deps-lint

lint-licence:
	$(Q)tools/licence-lint

# The collector's performance gate: callgrind's instructions per record of
# exitmon --replay, per case, against the committed baseline; a rise of
# more than 2% fails (tests/bench/instr-gate.sh: cases, input, toolchain).
# No privileges, no taskstats, seconds.  instr-baseline rewrites the
# baseline from this build: commit it saying why the counts moved.
instr-gate: exitmon
	$(Q)tests/bench/instr-gate.sh
instr-baseline: exitmon
	$(Q)tests/bench/instr-gate.sh --write

lint-man:
	$(Q)out=$$(mandoc -Tlint -Wwarning $(wildcard $(MANPAGES)) 2>&1); \
	  if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "man pages: lint clean"

# tests/kernels/ holds the tier that boots other kernels (test-kernels)
# and one test of its BTF checker that needs no guest, run here.
KERNEL_SELF_TEST := tests/kernels/20-btf-check-self.t
# Each e2e file runs once: the files that meet no other's exits quietly,
# then the busy tier (test-busy, below) beside its load, which is where
# its files are put to the test (quietly too would add their minutes to CI
# and prove less).  Both halves run; the target fails if either did.
E2E_QUIET = $(filter-out $(BUSY_TESTS),$(wildcard tests/e2e/*.t))
e2e: all $(B)/bench/floor
	$(Q)rc=0; EXITMON_TOP=$(CURDIR) prove -v $(E2E_QUIET) $(KERNEL_SELF_TEST) || rc=1; \
	  $(MAKE) --no-print-directory test-busy || rc=1; exit $$rc

# Every tier: unit tests (no privileges), the sanitizers, man page lint,
# the layout, the deps lists, the licence lines, the instruction gate, end-to-end tests against the real
# kernel (they skip, exit 77, only where taskstats or CAP_NET_ADMIN is
# truly absent).
check: all unit sanitize fuzz-smoke-beside-deb lint-man lint-layout lint-deps lint-licence instr-gate e2e

# Side by side, where nothing measures time: the three fuzz smoke targets,
# and the package (80-deb-package.t, then make test-systemd, install the
# one built from the committed tree).  Building it here only saves time:
# where it cannot be built, 80-deb-package.t builds it again and says why.
fuzz-smoke-beside-deb:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) fuzz-smoke deb-prebuild
deb-prebuild:
	$(Q)if [ "$$(id -u)" = 0 ] && command -v dpkg-buildpackage >/dev/null; then \
	  tools/mkdeb.sh $(VERSION) >/dev/null 2>&1 || \
	  echo "make deb failed here: 80-deb-package.t will build it again and show why"; fi

# What check runs, built ahead (make test builds it with -j$(JOBS)).
check-build: all $(UNIT_BINS) $(B)/bench/floor $(SANITIZE_BINS) $(FUZZ_SMOKE_BINS)

# The e2e tests beside an exit-heavy load of other work (tools/busy-load.sh),
# as on a machine building kernels: taskstats sends every exit on the
# machine to every listener.  The unit tier needs no load.  Only the files
# that count exits or records, or keep a schedule: the ones other exits and
# a short CPU can break (the whole tier, BUSY_TESTS=tests/e2e/, would add
# its 5 minutes and more again to CI for files that never meet an exit).
# Such a file says so itself, with the line "# tier: busy" near its top.
BUSY_TESTS ?= $(sort $(shell grep -lx '# tier: busy' tests/e2e/*.t))
test-busy: all $(B)/bench/floor
	$(Q)EXITMON_TOP=$(CURDIR) tools/busy-load.sh prove -v $(BUSY_TESTS)

# Inside Debian's kernels 6.1, 6.12, 6.19 and the newest 7.x, booted under
# QEMU by tools/kernel-run (KERNELS="6.1 7" to choose); fetched once and
# cached (tools/kernel-fetch, which locks its cache).  Never more than two
# guests at once: the real-kernels suite boots two at a time by itself, and
# the other files (one guest each) run one after the other before it: the
# rig's own test now keeps a host CPU busy with instruction-clock guests
# (one TCG thread each), and beside it the sweep's 7.3 guest once ran its
# clock 6.3 hours ahead in 2 minutes and timed its runs out (CI, 5 December).
# Guests under TCG also die now and then as exitprobe attaches
# (30-real-kernels.t retries).
#
# Two steps, one after the other (-j1), both always run (-k), and the tier
# fails if either does: test-kernels-rig, the other files one at a time,
# then test-kernels-suite, 30-real-kernels.t alone.
KERNEL_SUITE     := tests/kernels/30-real-kernels.t
KERNEL_RIG_TESTS := $(filter-out $(KERNEL_SELF_TEST) $(KERNEL_SUITE),\
                    $(wildcard tests/kernels/*.t))
test-kernels:
	$(Q)tools/deps.sh kernels
	$(Q)$(MAKE) --no-print-directory all $(B)/bench/floor
	$(Q)$(MAKE) --no-print-directory -j1 -k test-kernels-rig test-kernels-suite
test-kernels-rig:
	$(Q)EXITMON_TOP=$(CURDIR) prove -v $(KERNEL_RIG_TESTS)
test-kernels-suite:
	$(Q)EXITMON_TOP=$(CURDIR) prove -v $(KERNEL_SUITE)

# The Debian package and its unit under a real systemd (PID 1 in a QEMU
# guest of Debian's 6.1 with a bookworm root filesystem; as root: the root
# filesystem is made once with debootstrap and cached).
test-systemd:
	$(Q)tools/deps.sh systemd
	$(Q)$(MAKE) --no-print-directory all deb
	$(Q)EXITMON_TOP=$(CURDIR) prove -v tests/systemd/

# A fleet on this machine (tests/fleet/): hosts and a hub as network
# namespaces, each host's exitmon JSON lines shipped by its own rsyslogd
# (imfile, omrelp, a disk-assisted queue) to the hub's (imrelp, ompgsql)
# into a PostgreSQL made for the test, node_exporter and Prometheus beside;
# the snippets of examples/ used as they are.  Root; starts and stops all
# it runs, never the machine's services.
test-fleet:
	$(Q)tools/deps.sh fleet
	$(Q)$(MAKE) --no-print-directory all
	$(Q)EXITMON_TOP=$(CURDIR) prove -v tests/fleet/
