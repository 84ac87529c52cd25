#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The smaller edges of issue 11: exact integers in metrics, --capture only
# appends to a netlink pcap, an oversized packet in a replay is skipped and
# counted, a stalled pipe reader never gets half a record, a deleted output
# is not counted as written, --replay refuses live-only options, --comm
# refuses an invalid glob, a failed start leaves no file, a signal ends a
# long --interval at once.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmed$$
tagged=$(tagbin "$TAG")

# Metrics: a Unix time and byte counts printed exactly.
"$EXITMON" -o /dev/null --metrics "$T/m.prom" --duration 0.3 2>/dev/null
now=$(date +%s)
st=$(sed -n 's/^exitmon_start_time_seconds //p' "$T/m.prom")
check "start time is a plain number ($st)" grep -Eq '^exitmon_start_time_seconds [0-9]{10}\.[0-9]+$' "$T/m.prom"
check "start time within 5 s of now" awk -v s="$st" -v n="$now" 'BEGIN { exit !(s > n - 5 && s <= n + 1) }'
check "receive buffer in whole bytes" grep -Eq '^exitmon_receive_buffer_bytes [0-9]+$' "$T/m.prom"
check "no exponent anywhere" sh -c "! grep -v '^#' '$T/m.prom' | grep -q 'e[+-]'"

# Appending records to a file that holds other columns, or another format:
# refused before anything is written (a header must describe every row).
REAL=$(dirname "$0")/../data/real-v16.pcap
"$EXITMON" --replay "$REAL" -f csv -o "$T/two.csv" -F pid,comm --count 2 2>/dev/null
cp "$T/two.csv" "$T/two.orig"
for opts in "-f csv" "-f csv -F comm,pid" "-f jsonl" "-f text"; do
	"$EXITMON" --replay "$REAL" $opts -o "$T/two.csv" --count 2 2> "$T/cols.err"; rc=$?
	check "append $opts to a pid,comm CSV: exit 8 (got $rc), untouched, said" \
		sh -c "[ $rc -eq 8 ] && cmp -s '$T/two.csv' '$T/two.orig' && grep -q 'other columns' '$T/cols.err'"
done
"$EXITMON" --replay "$REAL" -f csv -F pid,comm -o "$T/two.csv" --count 2 2>/dev/null; rc=$?
check "append the same columns: exit 0 (got $rc), one header, 4 rows" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^pid,comm\$' '$T/two.csv') = 1 ] && [ \$(wc -l < '$T/two.csv') = 5 ]"
"$EXITMON" --replay "$REAL" -f jsonl -o "$T/two.jsonl" --count 2 2>/dev/null
"$EXITMON" --replay "$REAL" -f jsonl -F pid -o "$T/two.jsonl" --count 2 2>/dev/null; rc=$?
check "JSON lines append JSON lines of other columns (exit $rc)" [ $rc -eq 0 ]
"$EXITMON" --replay "$REAL" -f csv -o "$T/two.jsonl" --count 2 2>/dev/null; rc=$?
check "CSV onto JSON lines: exit 8 (got $rc)" [ $rc -eq 8 ]

# --replay of what is not a capture says what it is.
printf 'type,pid\n' > "$T/notcap.csv"
printf '\n\r\r\n01234567890123456789' > "$T/ng.pcapng"
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack(">IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 253))' > "$T/be.pcap"
for f in "notcap.csv:not a pcap file" "ng.pcapng:a pcapng file.*editcap" "be.pcap:big-endian pcap"; do
	"$EXITMON" --replay "$T/${f%%:*}" -o /dev/null 2> "$T/nc.err"; rc=$?
	check "--replay ${f%%:*}: exit 2 (got $rc), says ${f#*:}" \
		sh -c "[ $rc -eq 2 ] && grep -q 'cannot read capture.*${f#*:}' '$T/nc.err'"
done

# --capture onto a file that is not a netlink pcap.
printf 'type,pid\npid,1\n' > "$T/data.csv"; cp "$T/data.csv" "$T/data.orig"
"$EXITMON" --capture "$T/data.csv" -o /dev/null --duration 0.3 2> "$T/e1"; rc=$?
check "--capture onto a CSV: exit 8 (got $rc), untouched" \
	sh -c "[ $rc -eq 8 ] && cmp -s '$T/data.csv' '$T/data.orig' && grep -q 'not a netlink pcap' '$T/e1'"
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("=IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))' > "$T/eth.pcap"
cp "$T/eth.pcap" "$T/eth.orig"
"$EXITMON" --capture "$T/eth.pcap" -o /dev/null --duration 0.3 2>/dev/null; rc=$?
check "--capture onto an Ethernet pcap: exit 8 (got $rc), untouched" \
	sh -c "[ $rc -eq 8 ] && cmp -s '$T/eth.pcap' '$T/eth.orig'"
"$EXITMON" --capture "$T/ok.pcap" -o /dev/null --duration 0.2 2>/dev/null
"$EXITMON" --capture "$T/ok.pcap" -o /dev/null --duration 0.2 2>/dev/null; rc=$?
check "--capture appends to its own kind (exit $rc)" [ $rc -eq 0 ]

# An oversized packet first, then a real capture: skipped, counted, the
# rest replayed.  The file's snaplen is tcpdump's (262144): above it, such
# a length is a damaged header (71-exitstat-inputs.t).
"$EXITMON" --capture "$T/real.pcap" --comm "$TAG" -o /dev/null --duration 1 2>/dev/null &
p=$!; sleep 0.5; for i in 1 2 3; do "$tagged"; done; wait $p
python3 - "$T/real.pcap" "$T/big.pcap" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
big = struct.pack("=IIII", 0, 0, 70000, 70000) + b"\0" * 70000
open(sys.argv[2], "wb").write(data[:16] + struct.pack("=I", 262144) + data[20:24] + big + data[24:])
PY
"$EXITMON" --replay "$T/real.pcap" --comm "$TAG" -f csv --summary "$T/r1.sum" > "$T/r1.csv" 2>/dev/null
"$EXITMON" --replay "$T/big.pcap" --comm "$TAG" -f csv --summary "$T/r2.sum" > "$T/r2.csv" 2> "$T/e2"; rc=$?
check "oversized packet: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... every record after it replayed ($(kv "$T/r2.sum" matched) of $(kv "$T/r1.sum" matched))" \
	[ "$(kv "$T/r2.sum" matched)" = "$(kv "$T/r1.sum" matched)" -a "$(kv "$T/r1.sum" matched)" -ge 3 ]
check "... counted as truncated" [ "$(kv "$T/r2.sum" truncated)" = 1 ]
check "... and said" grep -q "larger than 65535 bytes skipped" "$T/e2"

# A pipe reader that stalls past the end of the run: whole lines or none.
mkfifo "$T/fifo"
( exec 3< "$T/fifo"; sleep 6; cat <&3 > "$T/piped.jsonl" ) &	# opens, stalls
reader=$!
wait_fifo_reader $reader
"$EXITMON" -f jsonl --comm "$TAG" -o "$T/fifo" --summary "$T/pipe.sum" \
	--duration 2 2> "$T/pipe.err" &
p=$!
sleep 0.6
"$EXITGEN" --shape process --rate max --count 3000 --tag "$TAG" -q 2>/dev/null
wait $p; wait $reader
python3 - "$T/piped.jsonl" > "$T/pipe.check" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
lines = raw.split(b"\n")
bad = sum(1 for l in lines[:-1] if l and not isinstance(json.loads(l), dict))
print(len(lines) - 1, "whole" if raw.endswith(b"\n") and bad == 0 else "partial")
PY
read -r nlines whole < "$T/pipe.check"
written=$(kv "$T/pipe.sum" written)
check "stalled reader: every line whole ($nlines lines, $whole)" [ "$whole" = whole ]
check "... written ($written) is what the reader got" [ "$written" = "$nlines" ]
check "... the rest counted unwritten ($(kv "$T/pipe.sum" unwritten))" \
	[ "$(kv "$T/pipe.sum" unwritten)" -gt 0 ]

# A deleted output: rm, then SIGHUP.
"$EXITMON" -f csv --comm "$TAG" -o "$T/del.csv" --summary "$T/del.sum" \
	--pidfile "$T/del.pid" 2> "$T/del.err" &
p=$!; _pids="$_pids $p"
wait_file "$T/del.pid" 10
for i in 1 2 3; do "$tagged"; done; sleep 0.3
rm "$T/del.csv"
"$tagged"; sleep 0.3
kill -HUP $p; sleep 0.3
"$tagged"; "$tagged"; sleep 0.3
kill -TERM $p; wait $p
check "deleted output: written = records in the file ($(kv "$T/del.sum" written))" \
	[ "$(kv "$T/del.sum" written)" = "$(grep -c "$TAG" "$T/del.csv")" ]
check "... the 4 in the deleted file unwritten ($(kv "$T/del.sum" unwritten))" \
	[ "$(kv "$T/del.sum" unwritten)" = 4 ]
check "... and said" grep -q "was deleted while open: the 4 records" "$T/del.err"

# --replay and live-only options; an invalid glob.
for o in "--shards 2" "--rcvbuf 1M" "--interval 5" "--duration 1" --no-self-check; do
	"$EXITMON" --replay "$T/real.pcap" $o -o /dev/null 2> "$T/e3"; rc=$?
	check "--replay with $o: exit 2 (got $rc)" \
		sh -c "[ $rc -eq 2 ] && grep -q 'only to a live collector' '$T/e3'"
done
for g in '[' 'ab[c' '[[:alpha:]' 'x\'; do
	"$EXITMON" --replay "$T/real.pcap" --comm "$g" -o /dev/null 2>/dev/null; rc=$?
	check "--comm '$g': exit 2 (got $rc)" [ $rc -eq 2 ]
done
for g in '\[' '[]x]' '[!a-z]*' '[[:digit:]]' 'make*'; do
	"$EXITMON" --replay "$T/real.pcap" --comm "$g" -o /dev/null 2>/dev/null; rc=$?
	check "--comm '$g' is fine (exit $rc)" [ $rc -eq 0 ]
done

# A failed start leaves no file behind.
mkdir -m 1777 "$T/pub"
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	--bounding-set=-all "$EXITMON" -f csv -o "$T/pub/f3.csv" \
	--capture "$T/pub/f3.pcap" 2>/dev/null; rc=$?
check "no capability: exit 3 (got $rc), no file created" \
	[ $rc -eq 3 -a ! -e "$T/pub/f3.csv" -a ! -e "$T/pub/f3.pcap" ]
"$EXITMON" -f csv -o "$T/f8.csv" --capture "$T/no/such/dir/c.pcap" 2>/dev/null; rc=$?
check "unwritable capture: exit 8 (got $rc), no records file" [ $rc -eq 8 -a ! -e "$T/f8.csv" ]
"$EXITMON" -f csv -o "$T/f7.csv" --capture "$T/f7.pcap" --metrics "$T/no/m.prom" \
	--duration 1 2>/dev/null; rc=$?
check "unwritable metrics: exit 8 (got $rc), nothing created" \
	[ $rc -eq 8 -a ! -e "$T/f7.csv" -a ! -e "$T/f7.pcap" ]

# A capture on a full disk: the reason, once, and when it works again.
if small_disk "$T/full"; then
	"$EXITMON" --capture "$T/full/c.pcap" -o /dev/null --comm "$TAG" \
		--pidfile "$T/cf.pid" 2> "$T/cf.err" &
	p=$!; _pids="$_pids $p"
	wait_file "$T/cf.pid" 10
	# More packets a try than the slack of the capture's last page holds.
	disk_full_episode "$T/full" "$T/cf.err" "$EXITGEN" --shape process \
		--rate max --count 50 --tag "$TAG" -q
	kill -TERM $p; wait $p
	[ -s "$T/cf.err" ] && sed 's/^/# /' "$T/cf.err" | head -5
	check "capture on a full disk: the reason" \
		grep -q "writing capture .* failed: No space left on device" "$T/cf.err"
	check "... and the recovery" grep -q "writing capture .* works again" "$T/cf.err"
	umount "$T/full"
else
	nok "cannot mount a small tmpfs for the capture disk-full test"
fi

# A signal ends a long --interval at once.
"$EXITMON" --interval 20000 -o /dev/null --pidfile "$T/int.pid" 2>/dev/null &
p=$!; _pids="$_pids $p"
wait_file "$T/int.pid" 10
t0=$(date +%s%N); kill -INT $p; wait $p; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "SIGINT with --interval 20000: exit 0 in ${ms} ms (< 1500)" [ $rc -eq 0 -a $ms -lt 1500 ]
# --replay - reads standard input, as exitstat - does
"$EXITMON" --replay - --run-id $GOLDEN_RUN -f csv -o "$T/stdin.csv" < "$REAL" 2>/dev/null; rc=$?
check "--replay - < a capture: exit 0 (got $rc), the same CSV as its golden" \
	sh -c "[ $rc -eq 0 ] && cmp -s '$T/stdin.csv' '$(dirname "$REAL")/real-v16.csv'"
done_testing
