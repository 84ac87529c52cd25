#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitstat's inputs, without privileges, from the real v16 capture's CSV and
# JSON lines: standard input, gzip'd and rotated files; and bad input, each
# with one clear line and nothing silently miscounted: a truncated last
# line, a foreign CSV, a file from a newer exitmon, a non-UTF-8 comm, a
# malformed row; and hostile input: a line of 1 MiB, /dev/zero, an unclosed
# quote, damaged and cut-short gzip, a directory, JSON keys with arrays,
# uid 2^32, duplicate columns and keys, oversize and empty packets, pcaps
# that are not exitmon's.
. "$(dirname "$0")/lib.sh"
EXITSTAT=$TOP/exitstat
[ -x "$EXITSTAT" ] || { echo "Bail out! $EXITSTAT not built"; exit 1; }
D=$TOP/tests/data
cd "$T" || exit 1

"$EXITSTAT" -f csv "$D/real-v16.csv" >base.sum 2>base.err; rc=$?
check "the recorded CSV reads, exit 0" [ $rc -eq 0 ]
check "28 pid rows summed, 6 tgid rows counted" grep -q "28 pid rows summed, 6 tgid rows not summed" base.err
"$EXITSTAT" -f csv - <"$D/real-v16.csv" >stdin.sum 2>/dev/null
check "standard input (-) gives the same" cmp -s base.sum stdin.sum
"$EXITSTAT" -f csv <"$D/real-v16.jsonl" >stdin2.sum 2>/dev/null
check "no file at all reads standard input (JSON lines)" cmp -s base.sum stdin2.sum
gzip -c "$D/real-v16.csv" >one.csv.gz
"$EXITSTAT" -f csv one.csv.gz >gz.sum 2>/dev/null
check "a gzip'd file gives the same" cmp -s base.sum gz.sum
gzip -c "$D/real-v16.pcap" | "$EXITSTAT" -f csv >pcapgz.sum 2>/dev/null
check "a gzip'd pcap on standard input gives the same" cmp -s base.sum pcapgz.sum

# Rotated as logrotate leaves them (delaycompress): exits.csv, exits.csv.1,
# exits.csv.2.gz, each with its own header, each of another run (the same
# run's records twice are one record's, 76-exitstat-repeats.t).
RUN=0123456789abcdef0123456789abcdef
cp "$D/real-v16.csv" exits.csv
sed "s/^$RUN,/${RUN%?}1,/" "$D/real-v16.csv" >exits.csv.1
sed "s/^$RUN,/${RUN%?}2,/" "$D/real-v16.csv" | gzip -c >exits.csv.2.gz
"$EXITSTAT" -f csv exits.csv* >rot.sum 2>rot.err
check "rotated files: three times the records" grep -q "102 records read" rot.err
check "rotated files: three times the exits" \
	[ "$(grep ^total,, rot.sum | cut -d, -f3)" -eq $((3 * $(grep ^total,, base.sum | cut -d, -f3))) ]

# A truncated last line: reported, not counted.
head -c -20 "$D/real-v16.csv" >trunc.csv
"$EXITSTAT" -f csv trunc.csv >trunc.sum 2>trunc.err; rc=$?
check "truncated: exit 0" [ $rc -eq 0 ]
check "truncated: one line says so" grep -q "trunc.csv: the last line is cut short (no newline), not counted" trunc.err
check "truncated: 33 records, not 34" grep -q "^exitstat: 33 records read" trunc.err

# A foreign CSV: refused in one line, exit 1, no table.
printf 'name,size\na,1\n' >foreign.csv
"$EXITSTAT" foreign.csv >foreign.out 2>foreign.err; rc=$?
check "foreign CSV: exit 1" [ $rc -eq 1 ]
check "foreign CSV: one line, program name first" \
	[ "$(wc -l <foreign.err)" -eq 1 -a "$(cut -c1-23 foreign.err)" = "exitstat: foreign.csv: " ]
check "foreign CSV: no table" [ ! -s foreign.out ]
"$EXITSTAT" -f csv foreign.csv "$D/real-v16.csv" >mixed.sum 2>/dev/null; rc=$?
check "a foreign file among good ones: the good ones read, exit 1" \
	eval '[ $rc -eq 1 ] && cmp -s base.sum mixed.sum'

# A newer exitmon: extra columns / keys are named once and ignored.
sed '1s/$/,future_ns/; 2,$s/$/,7/' "$D/real-v16.csv" >newer.csv
"$EXITSTAT" -f csv newer.csv >newer.sum 2>newer.err
check "newer CSV: the note names the column" grep -q "newer.csv: 1 column this exitstat does not know (first: future_ns)" newer.err
check "newer CSV: the same summary" cmp -s base.sum newer.sum
sed 's/}$/,"future_ns":7}/' "$D/real-v16.jsonl" >newer.jsonl
"$EXITSTAT" -f csv newer.jsonl >newerj.sum 2>newerj.err
check "newer JSON: a note and the same summary" \
	eval 'grep -q future_ns newerj.err && cmp -s base.sum newerj.sum'

# A malformed row: counted and named.
sed '5s/,0,/,zz,/' "$D/real-v16.csv" >bad.csv
"$EXITSTAT" -f csv bad.csv >bad.sum 2>bad.err
check "malformed row: counted" grep -q "bad.csv: 1 malformed lines skipped" bad.err

# A non-UTF-8 comm (bytes FF FE) in CSV and JSON lines: kept as bytes,
# grouped on its own, written back escaped as exitmon writes it.
python3 - "$D/real-v16.csv" "$D/real-v16.jsonl" <<'PY'
import sys
c = open(sys.argv[1], 'rb').read().replace(b',sleep,', b',\xff\xfeodd,')
open('odd.csv', 'wb').write(c)
j = open(sys.argv[2], 'rb').read().replace(b'"sleep"', b'"\\u00ff\\u00feodd"')
open('odd.jsonl', 'wb').write(j)
PY
"$EXITSTAT" -f csv odd.csv >odd.sum 2>/dev/null
"$EXITSTAT" -f csv odd.jsonl >oddj.sum 2>/dev/null
check "non-UTF-8 comm: CSV and JSON lines agree" cmp -s odd.sum oddj.sum
check "non-UTF-8 comm: its bytes survive, 2 exits" python3 -c '
import csv, sys
rows = {r["comm"].encode("latin-1"): r for r in csv.DictReader(open("odd.sum", newline="", encoding="latin-1"))}
sys.exit(not (rows[b"\xff\xfeodd"]["exits"] == "2" and b"sleep" not in rows))'
"$EXITSTAT" -f jsonl odd.csv >odd.json 2>/dev/null
check "non-UTF-8 comm: JSON output is valid JSON with the same bytes" python3 -c '
import json, sys
rows = [json.loads(l) for l in open("odd.json")]
sys.exit(not any(r["comm"].encode("latin-1") == b"\xff\xfeodd" for r in rows))'
"$EXITSTAT" odd.csv >odd.txt 2>/dev/null
check "non-UTF-8 comm: the table shows escapes" grep -q '^\\xff\\xfeodd ' odd.txt

# ---- hostile input (issue #21): nothing lost around a bad line, packet or
# gzip member, every bad one counted, each early end said and in the status.
# The CSV rows as an older exitmon wrote them, without run, seq and
# time_ns (exitstat reads both): the damaged and cut gzip cases below hit
# the same bytes as when they were written.
python3 - "$D/real-v16.csv" "$D/real-v16.jsonl" <<'PY'
import re, sys
head, *rows = [re.sub(rb'^(run,seq,time_ns|[0-9a-f]{32},[0-9]+,[0-9]+),', b'', l)
               for l in open(sys.argv[1], 'rb').read().splitlines(keepends=True)]
jrows = open(sys.argv[2], 'rb').read().splitlines(keepends=True)
def many(src, n): return b''.join(src[i % len(src)] for i in range(n))
def w(name, data): open(name, 'wb').write(data)
long = b'pid,' + b'9' * (1 << 20) + b'\n'
w('long.csv', head + many(rows, 100) + long + many(rows, 6000))
w('long.jsonl', many(jrows, 100) + b'{"type":"pid","comm":"' + b'x' * (1 << 20) + b'"}\n' + many(jrows, 6000))
for after in (2900, 7900):
    w('quote%d.csv' % after, head + many(rows, 100) + b'pid,1,1,1,"evil,0,0\n' + many(rows, after))
w('big.csv', head + many(rows, 3000))
w('future.jsonl', b''.join(r.replace(b'}\n', b',"future":[1,{"a":[2,"]"]}],"later":{}}\n') for r in jrows))
w('uid.csv', head + b''.join(r.replace(b',sleep,0,', b',sleep,4294967296,') for r in rows))
cols = head.decode().rstrip('\n').split(',')
cols[cols.index('utime_us')] = 'cpu_run_virtual_ns'
w('dup.csv', (','.join(cols) + '\n').encode() + b''.join(rows))
w('dup.jsonl', jrows[0].replace(b'"utime_us":', b'"utime_us":1,"utime_us":') + b''.join(jrows[1:]))
PY
n_rows() { grep -c '' "$1"; }
"$EXITSTAT" -f csv long.csv >long.sum 2>long.err; rc=$?
check "a line of 1 MiB: skipped and counted, exit 0" \
	eval '[ $rc -eq 0 ] && grep -q "long.csv: 1 malformed lines skipped" long.err'
check "a line of 1 MiB: the 6,100 rows around it read" grep -q "^exitstat: 6100 records read" long.err
"$EXITSTAT" -f csv long.jsonl >/dev/null 2>longj.err; rc=$?
check "a JSON line of 1 MiB: skipped, the 6,100 around it read" \
	eval '[ $rc -eq 0 ] && grep -q "^exitstat: 6100 records read" longj.err && grep -q "1 malformed" longj.err'
"$EXITSTAT" /dev/zero >zero.out 2>zero.err; rc=$?
check "/dev/zero: exit 1, one line naming it, no table" \
	eval '[ $rc -eq 1 ] && [ "$(wc -l <zero.err)" -eq 1 ] && grep -q "^exitstat: /dev/zero: not exitmon" zero.err && [ ! -s zero.out ]'
for after in 2900 7900; do
	"$EXITSTAT" -f csv quote$after.csv >quote.sum 2>quote.err; rc=$?
	check "an unclosed quote, $after rows after it: only its row lost, exit 0" \
		eval '[ $rc -eq 0 ] && grep -q "^exitstat: $((100 + after)) records read" quote.err &&
		      grep -q "quote$after.csv: 1 malformed lines skipped" quote.err &&
		      ! grep -q "stopped mid-line" quote.err'
done

# A damaged gzip: the file and the place named, what came before kept and
# reported, exit status 3 (incomplete); alone or among others.
gzip -c big.csv >dmg.csv.gz
python3 -c '
import sys
b = bytearray(open("dmg.csv.gz", "rb").read())
for i in range(len(b) // 2, len(b) // 2 + 16): b[i] ^= 0xff
open("dmg.csv.gz", "wb").write(b)'
"$EXITSTAT" -f csv dmg.csv.gz >dmg.sum 2>dmg.err; rc=$?
check "damaged gzip alone: exit 3, a table of what was read" \
	eval '[ $rc -eq 3 ] && grep -q "^total,," dmg.sum'
check "damaged gzip: one line names the file and where" \
	grep -Eq "^exitstat: dmg.csv.gz: damaged gzip data after [0-9]+ records: the rest of the file is not read$" dmg.err
k=$(sed -n 's/.*damaged gzip data after \([0-9]*\) records.*/\1/p' dmg.err)
check "damaged gzip: most of the first half kept, as many as the note says" \
	eval '[ "$k" -gt 1000 ] && [ "$k" -lt 3000 ] && grep -q "^exitstat: $k records read" dmg.err'
"$EXITSTAT" -f csv "$D/real-v16.csv" dmg.csv.gz >/dev/null 2>dmg2.err; rc=$?
check "damaged gzip after a good file: exit 3, the total counts both" \
	eval '[ $rc -eq 3 ] && grep -q "^exitstat: $((k + 34)) records read" dmg2.err'
"$EXITSTAT" -f csv foreign.csv dmg.csv.gz >/dev/null 2>/dev/null; rc=$?
check "damaged gzip and a foreign file: exit 1 (the worse)" [ $rc -eq 1 ]
gzip -c big.csv >half.csv.gz; truncate -s $(($(stat -c %s half.csv.gz) / 2)) half.csv.gz
"$EXITSTAT" -f csv half.csv.gz >/dev/null 2>half.err; rc=$?
check "gzip cut in half: exit 3, said so, not 'stopped mid-line'" \
	eval '[ $rc -eq 3 ] && grep -q "half.csv.gz: the gzip data ends early after [0-9]* records (the file is cut short)" half.err &&
	      ! grep -q "mid-line" half.err'
gzip -c big.csv >short4.csv.gz; truncate -s -4 short4.csv.gz
"$EXITSTAT" -f csv short4.csv.gz >/dev/null 2>short4.err; rc=$?
check "gzip without its last 4 bytes: exit 3, said so, every row read" \
	eval '[ $rc -eq 3 ] && grep -q "short4.csv.gz: the gzip data ends early after 3000 records" short4.err'
# Damage in one gzip member costs no later one (issue 34, item 3): three
# members of 1,000 rows (logrotate's and cat's), the middle one damaged,
# cut in half, or after garbage bytes: the first and last members read
# whole, one line with the place, exit 3; zero padding after the last
# member (gzip -t takes it) is no damage; the same for a gzip'd capture.
# The rows in the older columns, as above: the damaged member's bytes stay
# those that make it a damaged member.
python3 - "$D/real-v16.csv" "$D/real-v16.pcap" <<'PY'
import gzip, re, sys
head, *rows = [re.sub(rb'^(run,seq,time_ns|[0-9a-f]{32},[0-9]+,[0-9]+),', b'', l)
               for l in open(sys.argv[1], 'rb').read().splitlines(keepends=True)]
def many(n, k=0): return b''.join(rows[(i + k) % len(rows)] for i in range(n))
def gz(d): return gzip.compress(d, 9, mtime=0)
def w(name, data): open(name, 'wb').write(data)
m1, m2, m3 = gz(head + many(1000)), gz(many(1000, 3)), gz(many(1000, 7))
open('m1.at', 'w').write('%d\n' % len(m1))
d2 = bytearray(m2)
for i in range(len(d2) // 2, len(d2) // 2 + 16): d2[i] ^= 0xff
w('mdmg.csv.gz', m1 + bytes(d2) + m3)
w('mcut.csv.gz', m1 + m2[:len(m2) // 2] + m3)
w('mjunk.csv.gz', m1 + b'junk bytes\n' + m2 + m3)
w('mpad.csv.gz', m1 + m2 + m3 + bytes(4096))
w('m3.csv', many(1000, 7))
p = open(sys.argv[2], 'rb').read()
a, c = len(p) // 3, 2 * len(p) // 3
pm2 = gz(p[a:c])
w('mcut.pcap.gz', gz(p[:a]) + pm2[:len(pm2) // 2] + gz(p[c:]))
PY
m1=$(cat m1.at)
for f in "mdmg:a damaged gzip member at byte $m1 of the file" \
	 "mcut:a damaged gzip member at byte $m1 of the file" \
	 "mjunk:bytes that are no gzip member at byte $m1 of the file: 11 bytes"; do
	"$EXITSTAT" -f csv "${f%%:*}.csv.gz" >mem.sum 2>mem.err; rc=$?
	n=$(sed -n 's/^exitstat: \([0-9]*\) records read.*/\1/p' mem.err)
	check "${f%%:*}.csv.gz: exit 3 (got $rc), at least the 2,000 rows of the good members read (got $n)" \
		sh -c "[ $rc -eq 3 ] && [ '$n' -ge 2000 ]"
	check "${f%%:*}.csv.gz: one line: ${f#*:}" \
		eval '[ "$(grep -c "gzip member" mem.err)" -eq 1 ] && grep -q "^exitstat: ${f%%:*}.csv.gz: ${f#*:}.* passed over in 1 place to the next gzip member" mem.err'
done
"$EXITSTAT" -f csv mjunk.csv.gz >/dev/null 2>mem.err
check "garbage between members: all 3,000 rows read" grep -q "^exitstat: 3000 records read" mem.err
"$EXITSTAT" -f csv mpad.csv.gz >/dev/null 2>mem.err; rc=$?
check "zero padding after the last member: exit 0 (got $rc), 3,000 rows, no damage said" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 3000 records read' mem.err && [ \$(wc -l <mem.err) -eq 1 ]"
"$EXITSTAT" -f csv mcut.pcap.gz >/dev/null 2>mem.err; rc=$?
n=$(sed -n 's/^exitstat: \([0-9]*\) records read.*/\1/p' mem.err)
check "a gzip'd capture with its middle member cut: exit 3 (got $rc), the last third's packets read (got $n records)" \
	sh -c "[ $rc -eq 3 ] && [ '$n' -ge 20 ] && grep -q 'mcut.pcap.gz: a damaged gzip member' mem.err"
mkdir adir
"$EXITSTAT" adir >/dev/null 2>dir.err; rc=$?
check "a directory: exit 1, 'Is a directory'" \
	eval '[ $rc -eq 1 ] && grep -q "^exitstat: cannot read adir: Is a directory$" dir.err'

# A newer exitmon's JSON keys with arrays and objects: skipped, not the line.
"$EXITSTAT" -f csv future.jsonl >future.sum 2>future.err
check "unknown JSON keys with array/object values: the same summary" \
	eval 'cmp -s base.sum future.sum && ! grep -q malformed future.err && grep -q "2 keys this exitstat does not know (first: future)" future.err'
# uid 2^32 is no uid: the row is refused, not summed as root.
"$EXITSTAT" -f csv -g uid uid.csv >uid.sum 2>uid.err
check "uid 2^32: the rows refused and counted, not root's" \
	eval 'grep -q "uid.csv: 2 malformed lines skipped" uid.err && grep -q "^exitstat: 32 records read" uid.err'
# Duplicate columns and keys: which one would be meant?
"$EXITSTAT" -f csv dup.csv >dup.out 2>dup.err; rc=$?
check "a CSV header naming a column twice: refused, exit 1, one line naming it" \
	eval '[ $rc -eq 1 ] && [ "$(wc -l <dup.err)" -eq 1 ] && grep -q "dup.csv: the header names column cpu_run_virtual_ns twice" dup.err'
"$EXITSTAT" -f csv dup.jsonl >/dev/null 2>dupj.err
check "a JSON line with a key twice: counted malformed" \
	eval 'grep -q "dup.jsonl: 1 malformed lines skipped" dupj.err && grep -q "^exitstat: 33 records read" dupj.err'

# Captures: an oversize or empty packet costs nothing around it, and
# exitstat and exitmon --replay count the same; what a capture is, said.
python3 - "$D/real-v16.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
hdr, pkts, off = b[:24], [], 24
while off < len(b):
    n = struct.unpack_from('<I', b, off + 8)[0]
    pkts.append(b[off:off + 16 + n]); off += 16 + n
mid = len(pkts) // 2
def w(name, data): open(name, 'wb').write(data)
big = struct.pack('<IIII', 1, 0, 70000, 70000) + b'\xab' * 70000
empty = struct.pack('<IIII', 1, 0, 0, 0)
# tcpdump's snaplen (262144): a packet of 70000 bytes can be in the file.
snap256k = hdr[:16] + struct.pack('<I', 262144) + hdr[20:]
w('oversize.pcap', snap256k + b''.join(pkts[:mid]) + big + b''.join(pkts[mid:]))
w('empty.pcap', hdr + b''.join(pkts[:mid]) + empty + b''.join(pkts[mid:]))
w('ns.pcap', struct.pack('<I', 0xa1b23c4d) + b[4:])
be = struct.pack('>IHHiIII', *struct.unpack('<IHHiIII', hdr))
w('be.pcap', be + b[24:])
w('short.pcap', b[:10])
w('eth.pcap', hdr[:20] + struct.pack('<I', 1) + b[24:])
w('ng.pcap', bytes.fromhex('0a0d0d0a1c0000004d3c2b1a01000000ffffffffffffffff1c000000'))
# Record headers that lie about their length (issue 34, item 2): above the
# file's snaplen (65535), above the packet's original length, running past
# the end of the file; a few garbage bytes between two packets; and the
# last packet cut short, which is no damage.
def lie(p, incl, orig):
    return p[:8] + struct.pack('<II', incl, orig) + p[16:]
at = 24 + sum(len(p) for p in pkts[:mid])
open('lie.at', 'w').write('%d\n' % at)
rest = b''.join(pkts[mid + 1:])
w('lie-snaplen.pcap', hdr + b''.join(pkts[:mid]) + lie(pkts[mid], 70000, 70000) + rest)
w('lie-orig.pcap', hdr + b''.join(pkts[:mid]) + lie(pkts[mid], len(pkts[mid]) - 8, len(pkts[mid]) - 16) + rest)
w('lie-end.pcap', hdr + b''.join(pkts[:mid]) + lie(pkts[mid], 60000, 60000) + rest)
w('lie-first.pcap', hdr + lie(pkts[0], 70000, 70000) + b''.join(pkts[1:]))
w('junk.pcap', hdr + b''.join(pkts[:mid]) + b'\x01\x02garbage' + b''.join(pkts[mid:]))
w('cutlast.pcap', b[:-30])
PY
"$EXITSTAT" -f csv oversize.pcap >over.sum 2>over.err; rc=$?
check "an oversize packet: skipped and said, exit 0, every record read" \
	eval '[ $rc -eq 0 ] && grep -q "1 packets larger than 65535 bytes skipped" over.err && cmp -s base.sum over.sum'
"$EXITMON" --replay oversize.pcap -f csv -o over.csv 2>over.mon
check "an oversize packet: exitmon --replay reads as many records" \
	eval 'grep -q "done: 34 records" over.mon && [ "$(($(n_rows over.csv) - 1))" -eq 34 ]'
"$EXITSTAT" -f csv empty.pcap >empty.sum 2>empty.err; rc=$?
"$EXITMON" --replay empty.pcap -f csv -o /dev/null 2>empty.mon
check "an empty packet: one malformed message in both readers" \
	eval '[ $rc -eq 0 ] && grep -q "empty.pcap: 1 malformed messages skipped" empty.err && grep -q " 1 malformed" empty.mon && cmp -s base.sum empty.sum'
at=$(cat lie.at)
for f in "lie-snaplen:its length is above the file's snaplen:33:$at:612" \
	 "lie-orig:its captured length is above the packet's original length:33:$at:612" \
	 "lie-end:its length runs past the end over the packets after it:33:$at:612" \
	 "lie-first:its length is above the file's snaplen:33:24:612" \
	 "junk:its length is above the file's snaplen:34:$at:9"; do
	IFS=: read -r name why recs off bytes <<<"$f"
	"$EXITSTAT" -f csv $name.pcap >lie.sum 2>lie.err; rc=$?
	check "$name.pcap: exit 3 (got $rc), $recs records: only the lying packet lost" \
		sh -c "[ $rc -eq 3 ] && grep -q '^exitstat: $recs records read' lie.err"
	check "$name.pcap: one line, the place and the cause, what was skipped" \
		eval '[ "$(grep -c damaged lie.err)" -eq 1 ] && grep -q "^exitstat: $name.pcap: damaged: the record header at byte $off does not hold ($why); $bytes bytes passed over in 1 place to the next whole packet" lie.err && ! grep -q "cut short" lie.err'
	rm -f lie.csv; "$EXITMON" --replay $name.pcap -f csv -o lie.csv 2>lie.mon; rc=$?
	check "$name.pcap: exitmon --replay exit 9 (got $rc), the same $recs records, the same line" \
		eval '[ $rc -eq 9 ] && grep -q "done: $recs records" lie.mon && [ "$(($(n_rows lie.csv) - 1))" -eq $recs ] &&
		      grep -q "^exitmon: capture $name.pcap: damaged: the record header at byte $off does not hold ($why)" lie.mon'
done
gzip -c lie-end.pcap | "$EXITSTAT" -f csv - >/dev/null 2>liegz.err; rc=$?
check "a lying header in a gzip'd pcap on standard input: exit 3 (got $rc), 33 records" \
	sh -c "[ $rc -eq 3 ] && grep -q '^exitstat: 33 records read' liegz.err && grep -q '^exitstat: -: damaged: the record header at byte $at' liegz.err"
cat "$D/real-v16.pcap" "$D/real-6.1.176-v13.pcap" > joined.pcap
"$EXITSTAT" -f csv joined.pcap >/dev/null 2>joined.err; rc=$?
"$EXITMON" --replay joined.pcap -o /dev/null 2>joined.mon; rc2=$?
check "two captures joined by cat: exit 0 in both (got $rc, $rc2), 68 records, no damage" \
	sh -c "[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -q '^exitstat: 68 records read' joined.err &&
	       grep -q 'done: 68 records' joined.mon && ! grep -q damaged joined.err joined.mon"
"$EXITSTAT" -f csv cutlast.pcap >/dev/null 2>cutlast.err; rc=$?
"$EXITMON" --replay cutlast.pcap -o /dev/null 2>cutlast.mon; rc2=$?
check "the last packet cut short: still 'cut short', exit 0 in both (got $rc, $rc2), 33 records" \
	sh -c "[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -q 'cut short' cutlast.err && grep -q '^exitstat: 33 records read' cutlast.err &&
	       ! grep -q damaged cutlast.err cutlast.mon && grep -q 'ends in a partial packet' cutlast.mon"
# Diagnostics named for what they are (issue 34, item 21): bytes after a
# good message inside a packet are not a malformed message; another
# generic netlink command's or family's message is not an exit record
# (nor malformed, nor silently dropped); a captured length above the
# original one is a damaged header (lie-orig.pcap above).
python3 - "$D/real-v16.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
hdr, pkts, off = b[:24], [], 24
while off < len(b):
    n = struct.unpack_from('<I', b, off + 8)[0]
    pkts.append(bytearray(b[off:off + 16 + n])); off += 16 + n
def w(name, ps): open(name, 'wb').write(hdr + b''.join(bytes(p) for p in ps))
# a single-message packet (a process exit: its pid record only) mid-file
k = next(i for i in range(len(pkts) // 2, len(pkts)) if len(pkts[i]) < 700)
t = [bytearray(p) for p in pkts]
t[k][8:16] = struct.pack('<II', len(t[k]) - 16 + 20, len(t[k]) - 16 + 20)
t[k] += b'twenty trailing byte'
w('trailing.pcap', t)
c = [bytearray(p) for p in pkts]; c[k][16 + 16] = 1	# TASKSTATS_CMD_GET
w('othercmd.pcap', c)
# another family's message: another type, and attributes that are not
# taskstats' (its first one's type changed); the same attributes under
# the taskstats type are a malformed message
f = [bytearray(p) for p in pkts]; f[k][16 + 16 + 4 + 2] = 0x63
w('badattr.pcap', f)
f[k][16 + 4:16 + 6] = struct.pack('<H', 0x1234)
w('otherfam.pcap', f)
PY
"$EXITSTAT" -f csv trailing.pcap >trail.sum 2>trail.err; rc=$?
check "bytes after a good message in a packet: exit 0 (got $rc), all 34 records, nothing malformed, the bytes named" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 34 records read' trail.err && ! grep -q malformed trail.err &&
	       grep -q 'trailing.pcap: 1 packets with bytes after their last whole message' trail.err && cmp -s base.sum trail.sum"
"$EXITMON" --replay trailing.pcap -o /dev/null --summary trail.kv 2>trail.mon; rc=$?
k=$(kv trail.kv trailing)
check "... exitmon --replay: exit 0 (got $rc), 34 records, 0 malformed, trailing=1 (got $k), said" \
	sh -c "[ $rc -eq 0 ] && grep -q 'done: 34 records' trail.mon && grep -q ' 0 malformed' trail.mon &&
	       [ '$k' = 1 ] && grep -q '1 datagrams had bytes after their last whole message' trail.mon"
for f in othercmd otherfam; do
	"$EXITSTAT" -f csv $f.pcap >other.sum 2>other.err; rc=$?
	check "$f.pcap: exit 0 (got $rc), 33 records, nothing malformed, one message that is no exit record named" \
		sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 33 records read' other.err && ! grep -q malformed other.err &&
		       grep -q '$f.pcap: 1 messages that are not exit records (another generic netlink command or family' other.err"
	"$EXITMON" --replay $f.pcap -o /dev/null --summary other.kv 2>other.mon; rc=$?
	k=$(kv other.kv other)
	check "... exitmon --replay: exit 0 (got $rc), 33 records, 0 malformed, other=1 (got $k), said" \
		sh -c "[ $rc -eq 0 ] && grep -q 'done: 33 records' other.mon && grep -q ' 0 malformed' other.mon &&
		       [ '$k' = 1 ] && grep -q '1 messages were not exit records' other.mon"
done
"$EXITSTAT" -f csv badattr.pcap >/dev/null 2>other.err; rc=$?
check "... the same message under the taskstats type: 1 malformed, not another family's" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 33 records read' other.err && grep -q 'badattr.pcap: 1 malformed messages' other.err &&
	       ! grep -q 'not exit records' other.err"
"$EXITSTAT" -f csv ns.pcap >ns.sum 2>/dev/null
check "a nanosecond pcap: read like a microsecond one" cmp -s base.sum ns.sum
for f in "be.pcap:a big-endian pcap" "short.pcap:a pcap cut short inside its 24-byte file header" \
	 "eth.pcap:a pcap of link type 1, not of netlink messages" "ng.pcap:a pcapng file"; do
	"$EXITSTAT" "${f%%:*}" >/dev/null 2>what.err; rc=$?
	check "${f%%:*}: exit 1, one line: ${f#*:}" \
		eval '[ $rc -eq 1 ] && [ "$(wc -l <what.err)" -eq 1 ] && grep -q "^exitstat: ${f%%:*}: ${f#*:}" what.err'
done

# Usage errors: one line, exit 2.
"$EXITSTAT" --sort nope "$D/real-v16.csv" >/dev/null 2>usage.err; rc=$?
check "--sort with an unknown column: exit 2, one line" [ $rc -eq 2 -a "$(wc -l <usage.err)" -eq 1 ]
check "--sort: the one bad-value wording" grep -q "bad value for --sort: 'nope'" usage.err
for bad in "--top 0" "--exitcode x" "--group pid" "--format xml"; do
	"$EXITSTAT" $bad "$D/real-v16.csv" >/dev/null 2>usage.err; rc=$?
	check "$bad: exit 2, 'bad value for ${bad% *}'" \
		[ $rc -eq 2 -a "$(grep -c "bad value for ${bad% *}: " usage.err)" -eq 1 ]
done
"$EXITSTAT" --since yesterday "$D/real-v16.csv" >/dev/null 2>/dev/null; rc=$?
check "--since with a bad time: exit 2" [ $rc -eq 2 ]

# A subset of the columns (exitmon -F): the missing ones named, counted as
# 0 (they read as the row before's, or as garbage, before).
"$EXITMON" --replay "$D/real-v16.pcap" -f csv -F type,pid,tgid,comm -o sub.csv 2>/dev/null
"$EXITSTAT" -f csv sub.csv >sub.sum 2>sub.err; rc=$?
check "a -F subset: read, exit 0" [ $rc -eq 0 ]
check "a -F subset: the missing columns named once" \
	eval '[ "$(grep -c "columns the figures need are missing (uid, .*utime_us, stime_us" sub.err)" -eq 1 ]'
check "a -F subset: cpu_us and elapsed_us are 0 in every row" \
	awk -F, 'NR > 1 && ($4 != 0 || $6 != 0) { bad = 1 } END { exit bad }' sub.sum
# Without the tgid column, tgid rows carry no id: records, not malformed.
for f in csv jsonl; do
	"$EXITMON" --replay "$D/real-v16.pcap" -f $f -F type,pid,comm -o "notgid.$f" 2>/dev/null
	"$EXITSTAT" "notgid.$f" >/dev/null 2>notgid.err; rc=$?
	check "-f $f -F type,pid,comm: exit 0 (got $rc), 6 tgid rows read, none malformed" \
		sh -c "[ $rc -eq 0 ] && grep -q '6 tgid rows not summed' notgid.err && ! grep -q malformed notgid.err"
done
# A task named "type" (any user can name one so): its row is a row, not a
# second header, whatever column comes first; concatenated -F files are
# read whole, their second header taken where it really is one.
"$EXITMON" --replay "$D/real-v16.pcap" -f csv -F comm,type,pid,tgid,utime_us -o named.csv 2>/dev/null
sed '5,12s/^[^,]*,/type,/' named.csv > typed.csv
check "8 rows of tasks named type" eval '[ "$(grep -c "^type," typed.csv)" -eq 8 ]'
"$EXITSTAT" typed.csv >/dev/null 2>typed.err; rc=$?
check "tasks named type: exit 0 (got $rc), all 34 records read, none malformed" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 34 records read' typed.err && ! grep -q malformed typed.err"
cat named.csv typed.csv > two.csv
"$EXITSTAT" two.csv >/dev/null 2>two.err; rc=$?
check "two -F files in one stream: exit 0 (got $rc), 68 records, none malformed" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 68 records read' two.err && ! grep -q malformed two.err"
# An empty file (exitmon -f jsonl when nothing matched), plain or gzip'd:
# 0 records, exit 0, not "not exitmon's"; a cut gzip header is still damage.
: > none.jsonl; : > none.csv; gzip -c none.csv > none.csv.gz
for f in none.jsonl none.csv none.csv.gz; do
	"$EXITSTAT" $f >/dev/null 2>none.err; rc=$?
	check "empty $f: exit 0 (got $rc), 0 records, no complaint" \
		sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 0 records read' none.err && [ \$(wc -l < none.err) -eq 1 ]"
done
printf '\037\213\010\000' > cutgz.gz
"$EXITSTAT" cutgz.gz >/dev/null 2>&1; rc=$?
check "a gzip file cut in its header: exit 3 (got $rc)" [ $rc -eq 3 ]
# --since and --until take seconds only with their @: a bare 20261202 is
# refused (exit 2), never read as 1970 + 20261202 s.
"$EXITSTAT" --since 20261202 "$D/real-v16.csv" >/dev/null 2>since.err; rc=$?
check "--since 20261202: exit 2 (got $rc), the forms named" \
	sh -c "[ $rc -eq 2 ] && grep -q '@EPOCH or YYYY-MM-DD' since.err"
# One glob rule for exitmon and exitstat: '[' is refused by both (exit 2).
"$EXITSTAT" --comm '[' "$D/real-v16.csv" >/dev/null 2>glob.err; rc=$?
check "exitstat --comm '[': exit 2 (got $rc), saying why" \
	sh -c "[ $rc -eq 2 ] && grep -q 'an unclosed \\[' glob.err"
# A file without the uid or exitcode column: unknown is '-' (never root,
# never 0), and unknown never matches --exitcode or --signalled.
"$EXITMON" --replay "$D/real-v16.pcap" -f csv -F type,pid,tgid,comm,utime_us -o nouid.csv 2>/dev/null
"$EXITSTAT" -g uid nouid.csv 2>/dev/null >nouid.sum
check "no uid column: one group, '-', not root" \
	sh -c "grep -q '^- ' nouid.sum && ! grep -q '^root ' nouid.sum"
"$EXITSTAT" -g uid -f csv nouid.csv 2>/dev/null | grep -q '^group,,' 
check "... its key empty in CSV" [ $? -eq 0 ]
"$EXITSTAT" --list nouid.csv 2>/dev/null | awk 'NR > 1 && ($2 != "-" || $3 != "-") { bad = 1 } END { exit bad }'
check "--list: user and exit code '-' in every row" [ $? -eq 0 ]
"$EXITSTAT" --exitcode 0 nouid.csv >/dev/null 2>ec.err
check "--exitcode 0 selects none of them" grep -q ' 0 selected' ec.err
# The same file named twice, or through a link: read once, said once each.
ln -sf "$D/real-v16.csv" link.csv
"$EXITSTAT" "$D/real-v16.csv" link.csv "$D/real-v16.csv" >/dev/null 2>twice.err; rc=$?
check "one file named three times: exit 0 (got $rc), 34 records, not 102" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 34 records read' twice.err"
check "... each repeat said, naming the first" \
	eval '[ "$(grep -c "is the same file as $D/real-v16.csv: read once" twice.err)" -eq 2 ]'
# More files than compare has columns: a usage error (exit 2), not 1.
EXITSWEEP=$TOP/exitsweep
set -- ; for i in $(seq 27); do set -- "$@" "$D/real-v16.csv"; done
"$EXITSWEEP" compare "$@" >/dev/null 2>cmp27.err; rc=$?
check "exitsweep compare with 27 files: exit 2 (got $rc), saying 26 at most" \
	sh -c "[ $rc -eq 2 ] && grep -q 'at most 26 result files' cmp27.err"
# A line that never ends after a valid header: said at once (within
# seconds, while reading goes on), not read forever without a word.
(head -5 "$D/real-v16.csv"; cat /dev/zero) | timeout 5 "$EXITSTAT" - >/dev/null 2>zero.err
check "header, 4 rows, then /dev/zero: the endless line said at once" \
	grep -q '^exitstat: -: a line of 1 MiB or more after 4 records' zero.err
# -F without type or pid: exitmon warns as it starts, exitstat says why
# it cannot read the file (not that it is not exitmon's).
"$EXITMON" --replay "$D/real-v16.pcap" -f csv -F pid,comm -o notype.csv 2>notype.mon
check "exitmon -F pid,comm: warned that exitstat will not read it" \
	grep -q 'leaves out type or pid' notype.mon
"$EXITSTAT" notype.csv >/dev/null 2>notype.err; rc=$?
check "exitstat on it: exit 1 (got $rc), saying its records cannot be told apart" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no type or no pid column (exitmon -F without them)' notype.err"
"$EXITMON" --replay "$D/real-v16.pcap" -f jsonl -F pid,comm -o notype.jsonl 2>/dev/null
"$EXITSTAT" notype.jsonl >/dev/null 2>notype.jerr; rc=$?
check "the same in JSON lines: exit 1 (got $rc), the same reason, not 'malformed'" \
	sh -c "[ $rc -eq 1 ] && grep -q 'records without type or pid (exitmon -F without them)' notype.jerr && ! grep -q malformed notype.jerr"
{ head -3 notype.jsonl; "$EXITMON" --replay "$D/real-v16.pcap" -f jsonl -F type,pid,comm 2>/dev/null | head -5; } > mixed.jsonl
"$EXITSTAT" mixed.jsonl >/dev/null 2>mixed.err; rc=$?
check "3 such lines among 5 good ones: exit 0 (got $rc), 5 read, the 3 named" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 5 records read' mixed.err && grep -q ': 3 records without type or pid' mixed.err"
"$EXITMON" --replay "$D/real-v16.pcap" -f csv -F type,pid,comm -o typepid.csv 2>typepid.mon
check "exitmon -F type,pid,comm: no such warning" sh -c "! grep -q 'leaves out' typepid.mon"
# An unclosed quote near the end of a file of short rows: that row is
# counted bad and the rows after it are read (not one cut-short line).
printf 'type,pid,comm\npid,1,a\npid,2,"evil\npid,3,b\npid,4,c\n' > shortq.csv
"$EXITSTAT" shortq.csv >shortq.out 2>shortq.err; rc=$?
check "unclosed quote among short rows: exit 0 (got $rc), 3 records, 1 malformed, none cut short" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 3 records read' shortq.err && grep -q '1 malformed lines skipped' shortq.err && ! grep -q 'cut short' shortq.err"
# What spreadsheets and editors do to a file: a byte-order mark, blank
# lines before the header (or among JSON lines), quoted header names.
printf '\357\273\277' | cat - "$D/real-v16.csv" > bom.csv
printf '\357\273\277\n' | cat - "$D/real-v16.jsonl" > bom.jsonl
{ printf '\n\r\n'; cat "$D/real-v16.csv"; } > blank.csv
{ head -1 "$D/real-v16.csv" | sed 's/\([a-z_0-9]*\)/"\1"/g'; tail -n +2 "$D/real-v16.csv"; } > quoted.csv
# JSON lines with white space before the first '{' (one space, or a line of
# spaces and tabs and every line indented): still JSON lines, not lost.
printf ' ' | cat - "$D/real-v16.jsonl" > space.jsonl
{ printf ' \t\n'; sed 's/^/\t /' "$D/real-v16.jsonl"; } > indent.jsonl
for f in bom.csv bom.jsonl blank.csv quoted.csv space.jsonl indent.jsonl; do
	"$EXITSTAT" $f >/dev/null 2>edit.err; rc=$?
	check "$f: exit 0 (got $rc), all 34 records, nothing malformed" \
		sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 34 records read' edit.err && ! grep -q malformed edit.err"
done
# Rotations compressed with what exitstat does not read: named, with the
# command that reads them.
for z in 'xz:\3757zXZ\0' 'zstd:\050\265\057\375' 'bzip2:BZh91AY'; do
	printf "${z#*:}rest" > "rot.${z%%:*}"
	"$EXITSTAT" "rot.${z%%:*}" >/dev/null 2>rot.err; rc=$?
	check "a ${z%%:*} file: exit 1 (got $rc), named, with the command to read it" \
		sh -c "[ $rc -eq 1 ] && grep -q 'compressed with ${z%%:*}.*${z%%:*} -dc rot.${z%%:*} | exitstat -' rot.err"
done
# A message whose tgid half is malformed (its TGID attribute turned into an
# unknown type, so the AGGR_TGID nest has no TGID): the pid record of that
# message is kept, the tgid half counted malformed, in exitstat and in
# exitmon --replay alike.
python3 - "$D/real-v16.pcap" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
# AGGR_TGID (5) nest header, then a TGID (2) attribute of 8 bytes
at = next(i for i in range(24, len(b) - 8)
          if b[i + 2:i + 4] == b'\x05\x00' and b[i + 4:i + 8] == b'\x08\x00\x02\x00')
b[at + 6] = 42
open('halftgid.pcap', 'wb').write(b)
PY
"$EXITSTAT" halftgid.pcap >/dev/null 2>half.err; rc=$?
check "tgid half malformed: exitstat exit 0 (got $rc), 33 records (one tgid lost, its pid kept), 1 malformed" \
	sh -c "[ $rc -eq 0 ] && grep -q '^exitstat: 33 records read' half.err && grep -q '1 malformed messages skipped' half.err"
"$EXITMON" --replay halftgid.pcap -f csv -o half.csv 2>half.mon
check "... exitmon --replay: 33 records written, 1 malformed" \
	sh -c "grep -q 'done: 33 records (28 pid, 5 tgid)' half.mon && grep -q ' 1 malformed' half.mon"
# A capture listed: run, seq and time_ns as exitmon --replay gives them (a
# run of its own, the records in order, each packet's time), so that the
# listing is valid against exitmon --json-schema, as the replay's is.
"$EXITSTAT" --list -f jsonl "$D/real-v16.pcap" >cap.list.jsonl 2>/dev/null
"$EXITMON" --replay "$D/real-v16.pcap" -f jsonl -o cap.replay.jsonl 2>/dev/null
"$EXITMON" --json-schema >schema.json
capcheck() {
	python3 - schema.json cap.list.jsonl cap.replay.jsonl <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
lst, rep = ([json.loads(l) for l in open(p)] for p in sys.argv[2:4])
for r in lst:
    jsonschema.validate(r, schema)
runs = {r.pop('run') for r in lst}
for r in rep:
    r.pop('run')
ok = len(lst) == 34 and lst == rep and len(runs) == 1
print(len(lst), len(runs), [r['time_ns'] for r in lst[:1]])
sys.exit(0 if ok else 1)
PY
}
out=$(capcheck 2>&1); rc=$?
check "--list -f jsonl of a capture: valid against --json-schema, run one of its own, seq and time_ns as the replay's ($out)" \
	[ $rc -eq 0 ]
"$EXITSTAT" --list -f csv ns.pcap >ns.list 2>/dev/null
"$EXITMON" --replay ns.pcap -f csv -o ns.replay.csv 2>/dev/null
check "--list -f csv of a nanosecond capture: time_ns as the replay's" \
	eval '[ "$(cut -d, -f2,3 ns.list)" = "$(cut -d, -f2,3 ns.replay.csv)" ] &&
	      [ -n "$(sed -n 2p ns.list | cut -d, -f3)" ]'
done_testing
