#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitstat counts a record once however often its inputs hold it, without
# privileges, from the real v16 capture's CSV and JSON lines: a rotated
# file beside its .gz, a JSON line sent twice, a listing; said in one line
# naming the file; files of an older exitmon (no run, seq) are all counted.
. "$(dirname "$0")/lib.sh"
EXITSTAT=$TOP/exitstat
[ -x "$EXITSTAT" ] || { echo "Bail out! $EXITSTAT not built"; exit 1; }
D=$TOP/tests/data
cd "$T" || exit 1

"$EXITSTAT" -f csv "$D/real-v16.csv" >base.sum 2>/dev/null
exits() { grep ^total,, "$1" | cut -d, -f3; }
check "the capture's CSV: 28 exits" [ "$(exits base.sum)" -eq 28 ]

# A rotated file and its compressed copy, both given.
cp "$D/real-v16.csv" exits.csv.1
gzip -c "$D/real-v16.csv" >exits.csv.1.gz
"$EXITSTAT" -f csv exits.csv.1 exits.csv.1.gz >rot.sum 2>rot.err; rc=$?
check "a file and its .gz: 28 exits, not 56, exit 0 (exit $rc)" \
	eval '[ $rc -eq 0 ] && [ "$(exits rot.sum)" -eq 28 ] && cmp -s base.sum rot.sum'
check "a file and its .gz: one line names the .gz and its 34 repeats" \
	eval '[ "$(grep -c "with the run and seq of one read before" rot.err)" -eq 1 ] &&
	      grep -q "^exitstat: exits.csv.1.gz: 34 records with the run and seq of one read before" rot.err'
check "a file and its .gz: the figures' line says 68 read, 34 of them repeats" \
	grep -q "^exitstat: 68 records read (34 of them repeats, dropped), 34 selected: 28 pid rows" rot.err

# JSON lines: one line sent twice, and a whole file again on standard input.
{ cat "$D/real-v16.jsonl"; sed -n 5p "$D/real-v16.jsonl"; } >twice.jsonl
"$EXITSTAT" -f csv twice.jsonl >j.sum 2>j.err; rc=$?
check "JSON lines, a line twice: the same figures, 1 repeat said (exit $rc)" \
	eval '[ $rc -eq 0 ] && cmp -s base.sum j.sum &&
	      grep -q "twice.jsonl: 1 record with the run and seq of one read before" j.err'
"$EXITSTAT" -f csv "$D/real-v16.jsonl" - <"$D/real-v16.jsonl" >js.sum 2>js.err
check "JSON lines, a file and its copy on standard input: 28 exits" \
	eval 'cmp -s base.sum js.sum && grep -q "^exitstat: -: 34 records" js.err'

# A listing drops them too, in CSV and JSON lines.
"$EXITSTAT" --list -f csv "$D/real-v16.csv" >one.list 2>/dev/null
"$EXITSTAT" --list -f csv exits.csv.1 exits.csv.1.gz >rot.list 2>rot.list.err; rc=$?
check "--list of a file and its .gz: each record once, said (exit $rc)" \
	eval '[ $rc -eq 0 ] && cmp -s one.list rot.list && [ "$(wc -l <rot.list)" -eq 35 ] &&
	      grep -q "exits.csv.1.gz: 34 records with the run and seq" rot.list.err'
"$EXITSTAT" --list -f jsonl twice.jsonl >j.list 2>/dev/null
check "--list -f jsonl of a line sent twice: 34 lines" [ "$(wc -l <j.list)" -eq 34 ]

# Records without run and seq (an older exitmon's file) cannot be told
# apart: all are counted, nothing said.
sed -E 's/^[^,]*,[^,]*,[^,]*,//' "$D/real-v16.csv" >old.csv
cp old.csv old.csv.1
"$EXITSTAT" -f csv old.csv old.csv.1 >old.sum 2>old.err
check "an older exitmon's file and its copy: 56 exits, no repeat said" \
	eval '[ "$(exits old.sum)" -eq 56 ] && ! grep -q "read before" old.err'
# The same seq under another run is another record.
sed "s/^$GOLDEN_RUN,/${GOLDEN_RUN%?}1,/" "$D/real-v16.csv" >other.csv
"$EXITSTAT" -f csv "$D/real-v16.csv" other.csv >other.sum 2>other.err
check "the same seq under another run: 56 exits, no repeat said" \
	eval '[ "$(exits other.sum)" -eq 56 ] && ! grep -q "read before" other.err'
done_testing
