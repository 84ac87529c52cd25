#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# Every record knows its run, its place and its time (exitmon(8), "Run,
# seq and time"): live, with one and two shards, in CSV and JSON lines,
# every record written has a seq of 1 .. last_seq with no gap and no
# repeat, the summary's last_seq = written + unwritten and its run is every
# row's; time_ns falls within the run's wall-clock window; two starts have
# two run ids; systemd's INVOCATION_ID is the run id only for the process
# systemd started; a record counted unwritten (a full disk) is a gap, never
# a number used again; a replay numbers its records from 1, new run id each
# time, and gives them its packets' own times; an older exitmon's CSV file
# (no run, seq, time_ns) is appended to under a new header row that
# exitstat reads, any other header still refused, JSON lines as they are.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmseq$$
bin=$(tagbin "$TAG")
burst() { for ((i = 0; i < $1; i++)); do "$bin"; done; }
now_ns() { date +%s%N; }

# seqcheck FILE SUMMARY T0 T1 SHARDS: the rules above, one line of figures;
# exit 0 when they hold.
seqcheck() {
	python3 - "$@" <<'PY'
import csv, json, re, sys
path, summ, t0, t1, shards = sys.argv[1:]
t0, t1, shards = int(t0), int(t1), int(shards)
kv = dict(l.rstrip('\n').split('=', 1) for l in open(summ))
with open(path, encoding='latin-1', newline='') as f:
    data = f.read()
if data.startswith('{') or not data:
    rows = [json.loads(l) for l in data.splitlines()]
else:
    rows = list(csv.DictReader(data.splitlines()))
bad = []
run = kv['run']
last, written, unwritten = int(kv['last_seq']), int(kv['written']), int(kv['unwritten'])
if not re.fullmatch('[0-9a-f]{32}', run):
    bad.append('summary run %r' % run)
if any(r['run'] != run for r in rows):
    bad.append('a row of another run')
seqs = [int(r['seq']) for r in rows]
times = [int(r['time_ns']) for r in rows]
if len(set(seqs)) != len(seqs):
    bad.append('a seq repeated')
missing = set(range(1, last + 1)) - set(seqs)
if seqs and (min(seqs) < 1 or max(seqs) > last):
    bad.append('a seq out of 1..last_seq')
if len(rows) != written:
    bad.append('%d rows, written=%d' % (len(rows), written))
if last != written + unwritten:
    bad.append('last_seq %d != written + unwritten %d' % (last, written + unwritten))
if len(missing) != unwritten:
    bad.append('%d gaps, unwritten=%d' % (len(missing), unwritten))
if times and not (t0 <= min(times) and max(times) <= t1):
    bad.append('time_ns %d..%d outside %d..%d' % (min(times), max(times), t0, t1))
if shards == 1 and (seqs != sorted(seqs) or times != sorted(times)):
    bad.append('one shard: seq or time_ns not in file order')
print('rows=%d last_seq=%d written=%d unwritten=%d gaps=%d run=%s %s' %
      (len(rows), last, written, unwritten, len(missing), run, '; '.join(bad) or 'ok'))
sys.exit(1 if bad else 0)
PY
}

# 1. Live: every record (no filter), one and two shards, CSV and JSON lines.
for c in "1 csv" "2 csv" "2 jsonl"; do
	set -- $c; shards=$1 fmt=$2 name=live$1$2
	t0=$(now_ns)
	start_exitmon $name -f $fmt --shards $shards || nok "$name: collector ready"
	burst 300 & b1=$!
	( for i in $(seq 4); do python3 -c 'import threading
for _ in range(50):
    t = threading.Thread(target=lambda: None); t.start(); t.join()'; done ) & b2=$!
	wait $b1 $b2
	sleep 0.3
	stop_exitmon; rc=$?
	t1=$(now_ns)
	out=$(seqcheck "$T/$name.out" "$T/$name.sum" "$t0" "$t1" "$shards"); r=$?
	diag "$name: $out"
	check "$name: exit 0" [ "$rc" -eq 0 ]
	check "$name: seq 1..N, no gap, no repeat; last_seq = written; one run; time_ns in the run's window" \
		[ $r -eq 0 ]
	check "$name: at least the 500 exits of the test ($(kv "$T/$name.sum" written))" \
		[ "$(kv "$T/$name.sum" written)" -ge 500 ]
	check "$name: none unwritten" [ "$(kv "$T/$name.sum" unwritten)" -eq 0 ]
done
check "two starts, two run ids" [ "$(kv "$T/live1csv.sum" run)" != "$(kv "$T/live2csv.sum" run)" ]
check "--shards 2: summary says shards=2" [ "$(kv "$T/live2csv.sum" shards)" = 2 ]

# The metrics: the run id and the last seq, at exit.
start_exitmon met -f csv --comm "$TAG" --metrics "$T/met.prom" || nok "metrics: collector ready"
burst 20
sleep 0.3
stop_exitmon
check "metrics: exitmon_run_info names the run" \
	grep -qx "exitmon_run_info{run=\"$(kv "$T/met.sum" run)\"} 1" "$T/met.prom"
check "metrics: exitmon_last_seq = the summary's last_seq ($(kv "$T/met.sum" last_seq))" \
	grep -qx "exitmon_last_seq $(kv "$T/met.sum" last_seq)" "$T/met.prom"
check "metrics: 20 records, last_seq 20" [ "$(kv "$T/met.sum" last_seq)" -eq 20 ]
if command -v promtool >/dev/null; then
	check "metrics: promtool accepts them" sh -c "promtool check metrics < '$T/met.prom' >/dev/null 2>&1"
else
	ok "# SKIP promtool not installed"
fi

# 2. systemd's invocation id: taken when systemd started this very process
# (SYSTEMD_EXEC_PID is its pid), lowercased; not by a process it started.
INV=5A8C2F0E1B3D4C6E8F9A0B1C2D3E4F50
sh -c 'INVOCATION_ID=$1 SYSTEMD_EXEC_PID=$$ exec "$0" -o /dev/null --duration 0.2 --summary "$2"' \
	"$EXITMON" "$INV" "$T/inv.sum" 2>"$T/inv.err"
check "INVOCATION_ID of the process systemd started is the run id" \
	[ "$(kv "$T/inv.sum" run)" = "$(echo "$INV" | tr A-F a-f)" ]
INVOCATION_ID=$INV SYSTEMD_EXEC_PID=1 "$EXITMON" -o /dev/null --duration 0.2 \
	--summary "$T/inv2.sum" 2>/dev/null
check "INVOCATION_ID inherited by a child of the service: a random run id" \
	sh -c "[ '$(kv "$T/inv2.sum" run)' != '$(echo "$INV" | tr A-F a-f)' ] &&
	       echo '$(kv "$T/inv2.sum" run)' | grep -qx '[0-9a-f]\{32\}'"
sh -c 'INVOCATION_ID=not-an-id SYSTEMD_EXEC_PID=$$ exec "$0" -o /dev/null --duration 0.2 --summary "$1"' \
	"$EXITMON" "$T/inv3.sum" 2>"$T/inv3.err"
check "an INVOCATION_ID that is no id: said, and a random run id" \
	sh -c "grep -q 'INVOCATION_ID is not 32 hex digits' '$T/inv3.err' &&
	       echo '$(kv "$T/inv3.sum" run)' | grep -qx '[0-9a-f]\{32\}'"
"$EXITMON" -o /dev/null --duration 0.2 --run-id 00112233445566778899AABBCCDDEEFF \
	--summary "$T/fixed.sum" 2>/dev/null
check "--run-id fixes it, lowercased" \
	[ "$(kv "$T/fixed.sum" run)" = 00112233445566778899aabbccddeeff ]
"$EXITMON" -o /dev/null --duration 0.2 --run-id 0011 2>"$T/badid.err"; rc=$?
check "--run-id of 4 digits: usage error (exit $rc)" [ $rc -eq 2 ]

# 3. A gap is a record counted unwritten: a full disk, then space again.
if small_disk "$T/full"; then
	t0=$(now_ns)
	start_exitmon full -f csv --comm "$TAG" -o "$T/full/out.csv"
	burst 10
	disk_full_episode "$T/full" "$T/full.err" --lose burst 20
	burst 20	# and records after the recovery
	sleep 0.3
	stop_exitmon
	t1=$(now_ns)
	out=$(seqcheck "$T/full/out.csv" "$T/full.sum" "$t0" "$t1" 1); r=$?
	diag "disk full: $out"
	check "disk full: records were counted unwritten ($(kv "$T/full.sum" unwritten))" \
		[ "$(kv "$T/full.sum" unwritten)" -gt 0 ]
	check "disk full: the unwritten are exactly the gaps in 1..last_seq, no seq repeated" \
		[ $r -eq 0 ]
	check "disk full: the records after it carry seq past the gap" \
		[ "$(tail -n 1 "$T/full/out.csv" | cut -d, -f2)" -eq "$(kv "$T/full.sum" last_seq)" ]
	umount "$T/full"
else
	nok "cannot mount a small tmpfs for the gap test"
fi

# 4. Replay: its own run each time, seq from 1, the packets' own times.
D=$TOP/tests/data
for n in 1 2; do
	"$EXITMON" --replay "$D/real-v16.pcap" -f jsonl -o "$T/rp$n.jsonl" \
		--summary "$T/rp$n.sum" 2>/dev/null
done
check "replay: a new run id each time" [ "$(kv "$T/rp1.sum" run)" != "$(kv "$T/rp2.sum" run)" ]
check "replay: seq 1..34, last_seq 34" \
	sh -c "[ \"\$(python3 -c 'import json,sys; print(\",\".join(str(json.loads(l)[\"seq\"]) for l in open(sys.argv[1])))' '$T/rp1.jsonl')\" = \"$(seq -s, 34)\" ] &&
	       [ '$(kv "$T/rp1.sum" last_seq)' -eq 34 ]"
python3 - "$D/real-v16.pcap" "$T/rp1.jsonl" > "$T/times" <<'PY'
import json, struct, sys
data = open(sys.argv[1], 'rb').read()
pos, stamps = 24, []
while pos + 16 <= len(data):
    sec, usec, incl, _ = struct.unpack_from('=IIII', data, pos)
    stamps.append(sec * 10**9 + usec * 1000)
    pos += 16 + incl
got = sorted({json.loads(l)['time_ns'] for l in open(sys.argv[2])})
print('ok' if got and set(got) <= set(stamps) else 'differ', len(got), len(stamps))
PY
check "replay: every time_ns is a packet's timestamp ($(cat "$T/times"))" grep -q '^ok' "$T/times"
# A nanosecond pcap: the same records at the nanosecond.
python3 - "$D/real-v16.pcap" "$T/ns.pcap" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('=I', data, 0, 0xa1b23c4d)
pos = 24
while pos + 16 <= len(data):
    sec, usec, incl, _ = struct.unpack_from('=IIII', data, pos)
    struct.pack_into('=I', data, pos + 4, usec * 1000 + 7)
    pos += 16 + incl
open(sys.argv[2], 'wb').write(data)
PY
"$EXITMON" --replay "$D/real-v16.pcap" --run-id $GOLDEN_RUN -f csv -o "$T/us.csv" 2>/dev/null
"$EXITMON" --replay "$T/ns.pcap" --run-id $GOLDEN_RUN -f csv -o "$T/ns.csv" 2>/dev/null
nscheck() {
	python3 - "$1" "$2" <<'PY'
import csv, sys
us, ns = (list(csv.reader(open(p, encoding='latin-1', newline=''))) for p in sys.argv[1:])
ok = len(us) == len(ns) > 1 and us[0] == ns[0] and all(
    int(b[2]) == int(a[2]) + 7 and a[:2] + a[3:] == b[:2] + b[3:]
    for a, b in zip(us[1:], ns[1:]))
sys.exit(0 if ok else 1)
PY
}
check "replay of a nanosecond pcap: time_ns to the nanosecond, all else the same" \
	nscheck "$T/us.csv" "$T/ns.csv"
# 5. After an upgrade: a CSV file an older exitmon wrote (its header without
# run, seq, time_ns, else the same) takes a new header row and the records
# after it, said in one line at start; exitstat reads all its rows, old and
# new; a second start appends no other header; the service starts on it
# live; any other header is still refused; JSON lines need nothing.
EXITSTAT=$TOP/exitstat
older_of() { sed -E 's/^[^,]*,[^,]*,[^,]*,//' "$1"; }	# run, seq, time_ns cut
replay_to() { # replay_to FMT FILE ERR: the real capture appended to FILE
	"$EXITMON" --replay "$D/real-v16.pcap" --run-id $GOLDEN_RUN -f "$1" -o "$2" 2>"$3"
}
replay_to csv "$T/new.csv" /dev/null
older_of "$T/new.csv" >"$T/old.csv"
cp "$T/old.csv" "$T/up.csv"
replay_to csv "$T/up.csv" "$T/up.err"; rc=$?
check "upgrade: an older exitmon's CSV file is appended to (exit $rc)" [ $rc -eq 0 ]
check "upgrade: the file is the older records, a new header row, the new records" \
	sh -c "cat '$T/old.csv' '$T/new.csv' | cmp -s - '$T/up.csv'"
diag "upgrade: $(grep 'older exitmon' "$T/up.err")"
check "upgrade: said once, in one line, with the rotation" \
	sh -c "[ \$(grep -c 'older exitmon' '$T/up.err') -eq 1 ] &&
	       grep -q \"up.csv begins with an older exitmon's header (without run,seq,time_ns): a new header row is appended.*rotating the file starts it clean\" '$T/up.err'"
"$EXITSTAT" --list -f csv "$T/up.csv" >"$T/up.list" 2>"$T/up.stat.err"; rc=$?
"$EXITSTAT" --list -f csv "$T/new.csv" >"$T/new.list" 2>/dev/null
upcount() {
	python3 - "$T/up.list" "$T/new.list" "$GOLDEN_RUN" <<'PY'
import csv, sys
up, new = (list(csv.DictReader(open(p, encoding='latin-1', newline=''))) for p in sys.argv[1:3])
old_rows = [r for r in up if r['run'] == '' and r['seq'] == '' and r['time_ns'] == '']
new_rows = [r for r in up if r['run'] == sys.argv[3]]
strip = lambda rows: [{k: v for k, v in r.items() if k not in ('run', 'seq', 'time_ns')} for r in rows]
ok = len(new) > 1 and len(up) == 2 * len(new) and old_rows + new_rows == up and \
     new_rows == new and strip(old_rows) == strip(new)
print(len(up), len(old_rows), len(new_rows), len(new))
sys.exit(0 if ok else 1)
PY
}
uc=$(upcount); urc=$?
check "upgrade: exitstat reads every row, the older ones under the first header and the new ones under the second (rows, older, new, of a new file: $uc)" \
	sh -c "[ $rc -eq 0 ] && [ ! -s '$T/up.stat.err' ] && [ $urc -eq 0 ]"
"$EXITSTAT" -f csv "$T/up.csv" >"$T/up.summ" 2>/dev/null
# The new records again under another run (a file named twice is read
# once, and the same run's records twice count once).
OTHER_RUN=ffffffffffffffffffffffffffffffff
sed "s/^$GOLDEN_RUN,/$OTHER_RUN,/" "$T/new.csv" >"$T/new-copy.csv"
"$EXITSTAT" -f csv "$T/new.csv" "$T/new-copy.csv" >"$T/new2.summ" 2>/dev/null
check "upgrade: exitstat's summary of it is that of the new records twice" \
	sh -c "[ -s '$T/up.summ' ] && cmp -s '$T/up.summ' '$T/new2.summ'"
replay_to csv "$T/up.csv" "$T/up2.err"; rc=$?
check "upgrade, a second start: exit 0, no header row more, its records under the new one" \
	sh -c "[ $rc -eq 0 ] && { cat '$T/old.csv' '$T/new.csv'; tail -n +2 '$T/new.csv'; } | cmp -s - '$T/up.csv'"
check "upgrade, a second start: says the new header is in force, once" \
	sh -c "[ \$(grep -c 'older exitmon' '$T/up2.err') -eq 1 ] &&
	       grep -q 'records go on under the new header row an earlier start appended.*rotating the file starts it clean' '$T/up2.err'"
# The service's case: a live start on the older file.
cp "$T/old.csv" "$T/lup.out"
start_exitmon lup -f csv --comm "$TAG" || nok "upgrade, live: collector ready"
burst 5
sleep 0.3
stop_exitmon; rc=$?
check "upgrade, live: exit 0, the older file kept, a new header, then its 5 records" \
	sh -c "[ $rc -eq 0 ] && head -n $(wc -l <"$T/old.csv") '$T/lup.out' | cmp -s - '$T/old.csv' &&
	       [ \"\$(sed -n $(($(wc -l <"$T/old.csv") + 1))p '$T/lup.out')\" = \"\$(head -1 '$T/new.csv')\" ] &&
	       [ \$(tail -n +$(($(wc -l <"$T/old.csv") + 2)) '$T/lup.out' | grep -c \"^[0-9a-f]\{32\},[0-9]*,[0-9]*,pid,.*,$TAG,\") -eq 5 ]"
check "upgrade, live: said at start" grep -q "lup.out begins with an older exitmon's header" "$T/lup.err"
# Any other header: refused as before, the file left as it was.
sed '1s/,comm,/,/' "$T/old.csv" >"$T/other.csv"
cp "$T/other.csv" "$T/other.kept"
replay_to csv "$T/other.csv" "$T/other.err"; rc=$?
check "another header (a column fewer): refused, exit 8, file untouched (exit $rc)" \
	sh -c "[ $rc -eq 8 ] && cmp -s '$T/other.csv' '$T/other.kept' &&
	       grep -q 'other columns' '$T/other.err' && ! grep -q 'older exitmon' '$T/other.err'"
cp "$T/new.csv" "$T/sub.csv"
"$EXITMON" --replay "$D/real-v16.pcap" -f csv -F type,pid,comm -o "$T/sub.csv" 2>"$T/sub.err"; rc=$?
check "a file of every column appended to with --fields type,pid,comm: refused, exit 8 (exit $rc)" \
	sh -c "[ $rc -eq 8 ] && cmp -s '$T/sub.csv' '$T/new.csv'"
# JSON lines: older records without the three keys, newer ones after them.
replay_to jsonl "$T/new.jsonl" /dev/null
sed -E 's/^\{"run":"[0-9a-f]*","seq":[0-9]*,"time_ns":[0-9]*,/{/' "$T/new.jsonl" >"$T/old.jsonl"
cp "$T/old.jsonl" "$T/up.jsonl"
replay_to jsonl "$T/up.jsonl" "$T/upj.err"; rc=$?
check "JSON lines: an older exitmon's file is appended to as it is, nothing said (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && ! grep -q '\"run\"' '$T/old.jsonl' && ! grep -q 'older exitmon' '$T/upj.err' &&
	       cat '$T/old.jsonl' '$T/new.jsonl' | cmp -s - '$T/up.jsonl'"
"$EXITSTAT" -f csv "$T/up.jsonl" >"$T/upj.summ" 2>"$T/upj.stat.err"; rc=$?
sed "s/\"run\":\"$GOLDEN_RUN\"/\"run\":\"$OTHER_RUN\"/" "$T/new.jsonl" >"$T/new-copy.jsonl"
"$EXITSTAT" -f csv "$T/new.jsonl" "$T/new-copy.jsonl" >"$T/newj2.summ" 2>/dev/null
check "JSON lines: exitstat reads all its records, old and new" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 68 records read' '$T/upj.stat.err' &&
	       [ \$(grep -vc '^exitstat: 68 records read' '$T/upj.stat.err') -eq 0 ] &&
	       [ -s '$T/upj.summ' ] && cmp -s '$T/upj.summ' '$T/newj2.summ'"
done_testing
