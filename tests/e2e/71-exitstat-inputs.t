#!/bin/bash
# exitstat's inputs, without privileges, from the real v16 capture's CSV and
# JSON lines: standard input, gzip'd and rotated files; and bad input, each
# with one clear line and nothing silently miscounted: a truncated last
# line, a foreign CSV, a file from a newer exitmon, a non-UTF-8 comm, a
# malformed row.
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
# exits.csv.2.gz, each with its own header.
cp "$D/real-v16.csv" exits.csv; cp "$D/real-v16.csv" exits.csv.1
gzip -c "$D/real-v16.csv" >exits.csv.2.gz
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
done_testing
