#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults: a full disk, a reader that stops or goes away, a SIGKILL.  The
# collector keeps receiving and counting, reports what it could not write,
# recovers, and leaves whole records only.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmflt$$
bin=$(tagbin "$TAG")
burst() { for ((i = 0; i < $1; i++)); do "$bin"; done; }

# whole_csv FILE: every line a complete record (39 columns, ends in \n)
# whole_csv FILE [cut]: every row has the header's fields (with cut: or
# one more, how a restart ends a line a killed run cut, at most once).
whole_csv() {
	python3 - "$@" <<'PY'
import csv, sys
data = open(sys.argv[1], newline='', encoding='latin-1').read()
rows = list(csv.reader(data.splitlines()))
n = len(rows[0]) if rows else 0
cut = [r for r in rows if len(r) == n + 1] if len(sys.argv) > 2 else []
sys.exit(0 if data.endswith('\n') and rows and len(cut) <= 1 and
         all(len(r) == n for r in rows if r not in cut) else 1)
PY
}

# 1. Disk full, then space again.
if small_disk "$T/full"; then
	start_exitmon full -f csv --comm "$TAG" -o "$T/full/out.csv"
	# start_exitmon's -o comes first; ours overrides it (last one wins).
	disk_full_episode "$T/full" "$T/full.err" --lose burst 20
	burst 20	# and records after the recovery
	sleep 0.3
	stop_exitmon; rc=$?
	s=$T/full.sum
	diag "disk full: matched=$(kv $s matched) written=$(kv $s written) unwritten=$(kv $s unwritten)"
	check "disk full: collector exits 0" [ "$rc" -eq 0 ]
	check "disk full: records not written are counted" [ "$(kv $s unwritten)" -gt 0 ]
	check "disk full: written + unwritten = matched" \
		[ $(( $(kv $s written) + $(kv $s unwritten) )) -eq "$(kv $s matched)" ]
	check "disk full: nothing dropped by the socket" [ "$(kv $s dropped)" -eq 0 ]
	check "disk full: written count matches the file" \
		[ "$(grep -c ",$TAG," "$T/full/out.csv")" -eq "$(kv $s written)" ]
	check "disk full: the file holds whole records only" whole_csv "$T/full/out.csv"
	check "disk full: recovered, the last records are written" \
		[ "$(kv $s written)" -ge 20 ]
	check "disk full: reported on stderr" grep -q "could not be written" "$T/full.err"
	umount "$T/full"
else
	nok "cannot mount a small tmpfs for the disk-full test"
fi

# 2. A reader that stops reading: the collector keeps receiving.
mkfifo "$T/fifo"
( exec cat "$T/fifo" > "$T/fifo.out" ) &
reader=$!
_pids="$_pids $reader"
wait_fifo_reader $reader
"$EXITMON" -f csv --comm "$TAG" --pidfile "$T/st.pid" --summary "$T/st.sum" \
	-o "$T/fifo" 2>"$T/st.err" &
mon=$!
wait_file "$T/st.pid"
kill -STOP $reader
burst 300
sleep 0.3
kill -USR1 $mon
sleep 0.3
check "stalled reader: collector still receives everything" \
	grep -q "matched=300 .*dropped=0" "$T/st.err"
kill -CONT $reader
sleep 0.3
kill -TERM $mon; wait $mon; rc=$?
check "stalled reader: exit 0" [ "$rc" -eq 0 ]
wait $reader
check "stalled reader: all 300 records arrive once it reads again" \
	[ "$(grep -c ",$TAG," "$T/fifo.out")" -eq 300 ]
check "stalled reader: whole records" whole_csv "$T/fifo.out"

# 3. A reader that goes away (EPIPE): counted, not fatal.
"$EXITMON" -f csv --comm "$TAG" --pidfile "$T/ep.pid" --summary "$T/ep.sum" \
	2>"$T/ep.err" | head -c 1 > /dev/null &
wait_file "$T/ep.pid"
burst 50
sleep 0.3
burst 50
sleep 0.3
kill -TERM "$(cat "$T/ep.pid")"
wait
check "reader gone: collector ran to the end and wrote its summary" \
	[ "$(kv "$T/ep.sum" matched)" -eq 100 ]
check "reader gone: records it could not write are counted" \
	[ "$(kv "$T/ep.sum" unwritten)" -gt 0 ]

# 4. SIGKILL in the middle of heavy output: whole records, replayable capture.
start_exitmon kill -f csv --capture "$T/kill.pcap"
python3 - <<'PY' &
import threading
for _ in range(3000):
    t = threading.Thread(target=lambda: None); t.start(); t.join()
PY
gen=$!
sleep 0.4
kill -KILL "$MON_PID"
wait "$gen"
wait "$MON_PID" 2>/dev/null
# A restart appending to the same file never cuts it back: a cut last line
# is ended as a row of one field more than the header, which no reader
# takes for a record.
cp "$T/kill.out" "$T/kill.before"
"$EXITMON" -f csv -o "$T/kill.out" --duration 0.3 2>"$T/kill2.err"; rc=$?
check "after SIGKILL: restart appends fine" [ "$rc" -eq 0 ]
check "after SIGKILL: the file as the killed run left it, then more" \
	cmp -s -n "$(stat -c %s "$T/kill.before")" "$T/kill.before" "$T/kill.out"
check "after SIGKILL: whole records, and a cut line only as one more field" \
	whole_csv "$T/kill.out" cut
"$EXITMON" --replay "$T/kill.pcap" -f csv > "$T/kill.replay" 2>"$T/kill.rerr"; rc=$?
check "after SIGKILL: the capture replays" [ "$rc" -eq 0 ]
check "after SIGKILL: replayed records are whole" whole_csv "$T/kill.replay"

# A cut last line is ended at open, never cut back, and said so.
"$EXITMON" --replay "$(dirname "$0")/../data/real-v16.pcap" -f csv --count 1 \
	> "$T/whole.csv" 2>/dev/null
{ cat "$T/whole.csv"; printf 'pid,424242,42'; } > "$T/partial.csv"
cp "$T/partial.csv" "$T/partial.before"
"$EXITMON" -f csv -o "$T/partial.csv" --duration 0.2 2>"$T/partial.err"
ncols=$(head -1 "$T/whole.csv" | tr ',' '\n' | wc -l)
cut_ended() {
	cmp -s -n "$(stat -c %s "$T/partial.before")" "$T/partial.before" "$1" &&
	[ "$(sed -n 3p "$1")" = "pid,424242,42$(printf "%$((ncols - 2))s" | tr ' ' ,)" ]
}
check "cut line ended with commas to one field more than the header" cut_ended "$T/partial.csv"
check "and said so" grep -q "ended in a line cut short (13 bytes" "$T/partial.err"
"$TOP/exitstat" "$T/partial.csv" > /dev/null 2>"$T/partial.stat"
check "exitstat passes over it as one damaged line" \
	grep -q ": 1 malformed lines skipped" "$T/partial.stat"
done_testing
