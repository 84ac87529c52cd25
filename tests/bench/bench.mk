# SPDX-License-Identifier: GPL-2.0-or-later
# Measurement commands, not test tiers: `make check` runs none of them
# (tests/e2e/50-bench-soak-smoke.t runs bench.sh tiny so they keep
# working).  Included from the main Makefile; uses ALL_CFLAGS, LIBS, B and
# Q from it.  bench-format (the formats' ns per record) is in
# tests/fuzz/fuzz.mk.
#
#   bench           what exitmon costs the workload, and its CPU against
#                   the floor listener (tools/bench.sh); root, taskstats
#   bench-peers     bench's peers part alone
#   bench-exitstat  exitstat's reading speed against awk
#   soak            millions of exits with exitmon writing CSV: none lost,
#                   its RSS flat (tools/soak.sh); root, taskstats

.PHONY: bench bench-peers bench-exitstat soak

# Installs what it needs first (tools/deps.sh bench: the kernel source of
# the peers part among them), then builds in a make that sees it.
bench:
	$(Q)tools/deps.sh bench
	$(Q)$(MAKE) --no-print-directory all $(B)/bench/floor
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
