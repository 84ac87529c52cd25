#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example in exitstat(1) runs as printed (on files made from the real
# v16 capture under the names the examples use), and the page is lint clean.
. "$(dirname "$0")/lib.sh"
EXITSTAT=$TOP/exitstat
[ -x "$EXITSTAT" ] || { echo "Bail out! $EXITSTAT not built"; exit 1; }
PAGE=$TOP/man/exitstat.1
D=$TOP/tests/data

out=$(mandoc -Tlint -Wwarning "$PAGE" 2>&1)
check "exitstat(1) is lint clean${out:+: $out}" [ -z "$out" ]

cd "$T" || exit 1
cp "$D/real-v16.csv" exits.csv
# Each rotation of another run, as a day's restarts would leave them (the
# same run's records twice count once).
RUN=0123456789abcdef0123456789abcdef
sed "s/^$RUN,/${RUN%?}1,/" "$D/real-v16.csv" >exits.csv.1
sed "s/^$RUN,/${RUN%?}2,/" "$D/real-v16.csv" | gzip -c >exits.csv.2.gz
cp "$D/real-v16.jsonl" exits.jsonl
cp "$D/real-v16.pcap" exits.pcap
run_man_examples "$PAGE" 60
check "the page has examples ($MAN_EXAMPLES)" [ "$MAN_EXAMPLES" -ge 6 ]
for n in $(seq "$MAN_EXAMPLES"); do
	check "example $n prints" [ -s "ex$n.out" ]
done
check "the rotated example reads three files" grep -q "^exitstat: 102 records read, 102 selected" ex1.err
check "the glob example lists the 16 xcap exits" [ "$(grep -c '^xcap' ex5.out)" -eq 16 ]
check "the CSV example is CSV with exitmon's header" \
	[ "$(head -1 ex7.out)" = "$(head -1 exits.csv)" ]
done_testing
