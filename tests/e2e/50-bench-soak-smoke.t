#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench and make soak are commands, not timed tests: run both tiny, so
# they keep working, and check what they print (not how fast).
. "$(dirname "$0")/lib.sh"
need_taskstats

BENCH_PARTS="rate floor replay" BENCH_FORMATS="csv jsonl text" "$TOP/tools/bench.sh" 1 3000 > "$T/bench.out" 2> "$T/bench.err"; rc=$?
check "bench runs (exit $rc)" [ "$rc" -eq 0 ]
sed 's/^/# /' "$T/bench.out"
for row in "none" "exitmon (default, CSV)" "exitmon --wakeup"; do
	check "bench reports '$row'" grep -q "^$row " "$T/bench.out"
done
check "bench: no record lost at this size" \
	awk '/^exitmon (\(default|--wakeup)/ { if ($(NF-1) != 0) bad = 1 } END { exit bad }' "$T/bench.out"
for row in csv jsonl text csv-fields capture capture-floor; do
	check "bench: $row against the floor listener, none lost, both ratios" \
		awk -v f="$row" '$1 == f && /\(/ { seen = 1; if ($6 != 0 || $7 <= 0) bad = 1 } END { exit bad || !seen }' "$T/bench.out"
done
check "bench: the capture-floor row is explained" grep -q '^(capture-floor: ' "$T/bench.out"
for fmt in csv jsonl text; do
	check "bench: $fmt replayed, instructions per record counted" \
		awk -v f="$fmt" '$1 == f && !/\(/ && NF == 4 { seen = 1; if ($4 <= 0) bad = 1 } END { exit bad || !seen }' "$T/bench.out"
done

BENCH_PARTS=split BENCH_FORMATS="csv jsonl text" "$TOP/tools/bench.sh" 1 2000 > "$T/split.out" 2> "$T/split.err"; rc=$?
check "bench's split part runs (exit $rc)" [ "$rc" -eq 0 ]
sed 's/^/# /' "$T/split.out"
for row in parse csv-format csv-file csv-floor jsonl-format jsonl-file jsonl-floor \
	text-format text-file text-floor; do
	check "bench split: a '$row' row with both ratios, none lost" \
		awk -v r="$row" '$1 == r && /\(/ { seen = 1; if ($6 != 0 || $4 <= 0 || $7 <= 0) bad = 1 } END { exit bad || !seen }' "$T/split.out"
done
check "bench split: the FORMAT-floor rows are explained" grep -q '^(FORMAT-floor: ' "$T/split.out"

# The peers part: without a kernel source it says what to install and
# skips (exit 0, no table); with one (linux-source-6.1 or $KERNEL_SRC) it
# builds getdelays and procacct once (cached in build/bench/peers) and
# reports all four listeners.
KERNEL_SRC= LINUX_SOURCE_GLOB="$T/none/*" BENCH_PEERS_DIR="$T/peers" BENCH_PARTS=peers \
	"$TOP/tools/bench.sh" 1 1000 > "$T/nopeers.out" 2> "$T/nopeers.err"; rc=$?
check "bench peers without a kernel source: skipped (exit $rc)" [ "$rc" -eq 0 ]
check "bench peers without a kernel source: says what to install" \
	grep -q 'peers skipped: .*linux-source-6.1' "$T/nopeers.err"
check "bench peers without a kernel source: no table" [ ! -s "$T/nopeers.out" ]
if [ -n "${KERNEL_SRC:-}" ] || ls /usr/src/linux-source-*.tar.* >/dev/null 2>&1; then
	BENCH_PARTS=peers "$TOP/tools/bench.sh" 1 2000 > "$T/peers.out" 2> "$T/peers.err"; rc=$?
	check "bench's peers part runs (exit $rc)" [ "$rc" -eq 0 ]
	sed 's/^/# /' "$T/peers.out"
	# exitmon and the floor drop nothing at this size; the kernel's tools,
	# a recv per record, may on a busy machine: their drops are counted
	for row in floor:0 exitmon:0 getdelays:n procacct:n; do
		check "bench peers: a '${row%:*}' row with CPU, a ratio, drops counted" \
			awk -v r="${row%:*}" -v d="${row#*:}" 'index($1, r) == 1 && /\(/ { seen = 1
				if ($(NF-4) <= 0 || $(NF-2) <= 0 || $NF !~ /^[0-9]+$/ || (d == 0 && $NF != 0)) bad = 1 }
				END { exit bad || !seen }' "$T/peers.out"
	done
else
	diag "no kernel source (linux-source-6.1): the peers part's run is not tested"
fi

"$TOP/tools/soak.sh" 20000 > "$T/soak.out" 2> "$T/soak.err"; rc=$?
check "soak runs and passes its own checks (exit $rc)" [ "$rc" -eq 0 ]
sed 's/^/# /' "$T/soak.out"
check "soak reports loss, RSS and CPU" \
	[ "$(grep -c -e '^records received' -e '^collector RSS' -e '^collector CPU' "$T/soak.out")" -eq 3 ]
done_testing
