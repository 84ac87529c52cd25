#!/bin/bash
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
for fmt in csv jsonl text; do
	check "bench: $fmt against the floor listener, none lost" \
		awk -v f="$fmt" '$1 == f && /\(/ { seen = 1; if ($NF != 0) bad = 1 } END { exit bad || !seen }' "$T/bench.out"
	check "bench: $fmt replayed, instructions per record counted" \
		awk -v f="$fmt" '$1 == f && !/\(/ && NF == 4 { seen = 1; if ($4 <= 0) bad = 1 } END { exit bad || !seen }' "$T/bench.out"
done

BENCH_PARTS=split BENCH_FORMATS="csv jsonl text" "$TOP/tools/bench.sh" 1 2000 > "$T/split.out" 2> "$T/split.err"; rc=$?
check "bench's split part runs (exit $rc)" [ "$rc" -eq 0 ]
sed 's/^/# /' "$T/split.out"
for row in parse csv-format csv-file jsonl-format jsonl-file text-format text-file; do
	check "bench split: a '$row' row with a ratio, none lost" \
		awk -v r="$row" '$1 == r && /\(/ { seen = 1; if ($NF != 0 || $4 <= 0) bad = 1 } END { exit bad || !seen }' "$T/split.out"
done

"$TOP/tools/soak.sh" 20000 > "$T/soak.out" 2> "$T/soak.err"; rc=$?
check "soak runs and passes its own checks (exit $rc)" [ "$rc" -eq 0 ]
sed 's/^/# /' "$T/soak.out"
check "soak reports loss, RSS and CPU" \
	[ "$(grep -c -e '^records received' -e '^collector RSS' -e '^collector CPU' "$T/soak.out")" -eq 3 ]
done_testing
