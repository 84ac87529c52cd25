#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --capture stores the raw messages; --replay parses them without
# privileges and gives the same records, in every format.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmcap$$
bin=$(tagbin "$TAG")
start_exitmon cap -f csv --comm "$TAG" --capture "$T/cap.pcap" || nok "collector ready"
for i in 1 2 3 4 5; do "$bin"; done
python3 -c 'import threading; t=threading.Thread(target=lambda: 0); t.start(); t.join()'
sleep 0.2
stop_exitmon
check "capture written" [ -s "$T/cap.pcap" ]
check "pcap magic and netlink link type" \
	[ "$(od -An -tx4 -N4 "$T/cap.pcap" | tr -d ' ')" = a1b2c3d4 -a \
	  "$(od -An -tu4 -j20 -N4 "$T/cap.pcap" | tr -d ' ')" = 253 ]
chmod 644 "$T/cap.pcap"
mkdir -m 1777 "$T/pub"
# Given the live run's id, the replay is the live file byte for byte: the
# same seq (the same records pass the same filter, in the same order) and
# time_ns (the packets' times, which the live run wrote to the microsecond).
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$EXITMON" --replay "$T/cap.pcap" --run-id "$(kv "$T/cap.sum" run)" -f csv \
	--comm "$TAG" --summary "$T/pub/rep.sum" \
	> "$T/rep.out" 2>"$T/rep.err"; rc=$?
check "replay as nobody exits 0" [ "$rc" -eq 0 ]
check "replay gives the same records (run, seq and time_ns too)" cmp -s "$T/cap.out" "$T/rep.out"
check "replay summary: 5 matched" [ "$(kv "$T/pub/rep.sum" matched)" -eq 5 ]
"$EXITMON" --replay "$T/cap.pcap" -f csv > "$T/all.out" 2>/dev/null
check "capture holds other exits too (python's thread and tgid)" \
	[ "$(grep -c "^${ROW}tgid," "$T/all.out")" -ge 1 ]
for fmt in text jsonl; do
	"$EXITMON" --replay "$T/cap.pcap" -f $fmt --comm "$TAG" > "$T/rep.$fmt" 2>/dev/null
	check "replay -f $fmt: 5 records" [ "$(grep -c "$TAG" "$T/rep.$fmt")" -eq 5 ]
done
# Thousands of records: the capture is written in many chunks, one at the
# end of each receive batch, and replays to the very same CSV.
t0=$(date +%s.%N)
start_exitmon many -f csv --comm "${TAG}m" --capture "$T/many.pcap" || nok "collector ready"
"$EXITGEN" --shape thread --workers 2 --rate max --count 3000 --tag "${TAG}m" -q
sleep 0.3
stop_exitmon
t1=$(date +%s.%N)
# Each packet's time is when its receive call returned (one clock read per
# call): inside the run, and never earlier than a packet before it.
check "capture times: inside the run, in order" python3 - "$T/many.pcap" "$t0" "$t1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
t0, t1, o, last, n = float(sys.argv[2]), float(sys.argv[3]), 24, 0.0, 0
while o + 16 <= len(d):
    sec, usec, cl, _ = struct.unpack_from("<IIII", d, o)
    t = sec + usec / 1e6
    if not (t0 <= t <= t1 and t >= last and usec < 1000000):
        sys.exit(f"packet {n}: {t} outside {t0}..{t1} or before {last}")
    last, o, n = t, o + 16 + cl, n + 1
sys.exit(0 if n >= 1000 else f"only {n} packets")
PY
"$EXITMON" --replay "$T/many.pcap" --run-id "$(kv "$T/many.sum" run)" -f csv \
	--comm "${TAG}m" > "$T/many.rep" 2>/dev/null
diag "live: $(kv "$T/many.sum" matched) of 3000 matched, $(kv "$T/many.sum" dropped) dropped"
check "records live, no capture error" \
	[ "$(kv "$T/many.sum" matched)" -gt 0 -a "$(kv "$T/many.sum" capture_errors)" -eq 0 ]
check "the capture of thousands replays to the same CSV" cmp -s "$T/many.out" "$T/many.rep"
# A capture cut off mid-packet (collector killed) still replays.
head -c -7 "$T/cap.pcap" > "$T/cut.pcap"
"$EXITMON" --replay "$T/cut.pcap" -f csv > /dev/null 2>"$T/cut.err"; rc=$?
check "truncated capture replays (exit 0)" [ "$rc" -eq 0 ]
check "and says it ends in a partial packet" grep -q "partial packet" "$T/cut.err"
printf 'not a capture' > "$T/bad.pcap"
"$EXITMON" --replay "$T/bad.pcap" 2>"$T/bad.err"; rc=$?
check "a file that is not a capture: exit 2" [ "$rc" -eq 2 ]
done_testing
