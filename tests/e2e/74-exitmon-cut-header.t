#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A CSV file whose header was cut short (a crash or a full disk during the
# first write): the next start ends the cut line and appends its header and
# records; from then on the file is that damaged line, a header and its
# records, for every reader.  exitstat reads every record and counts one
# damaged line; every later start appends under the header (it never
# refuses a file it wrote itself), at every cut point of the header, after
# a second start cut short in its header too, after one that stopped once
# it had ended the cut line, and after a first start whose -F had more
# columns.  An older exitmon's file takes the same rule for the header in
# force at its end (its last record's fields, not its values).  Replays
# only: no taskstats needed.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }
EXITSTAT=$TOP/exitstat
PCAP=$TOP/tests/data/real-v16.pcap

replay_to() { # replay_to FILE [ARGS...]: the real capture appended to FILE
	_f=$1; shift
	"$EXITMON" --replay "$PCAP" -f csv -o "$_f" "$@" 2>>"$T/mon.err"
}
listed() { "$EXITSTAT" --list -f csv "$1" 2>"$T/stat.err" | tail -n +2 | wc -l; }

replay_to "$T/whole.csv"
n=$(($(wc -l <"$T/whole.csv") - 1))
hlen=$(head -n 1 "$T/whole.csv" | wc -c)
diag "$n records; header of $((hlen - 1)) bytes and its newline"

bad=""
# every cut up to the first columns (the issue's 1 to 22 bytes), then
# every 23rd byte and the last (each cut costs five runs)
for cut in $(seq 1 24) $(seq 25 23 $((hlen - 2))) $((hlen - 1)); do
	f=$T/cut$cut.csv
	head -c "$cut" "$T/whole.csv" >"$f"
	replay_to "$f" || { bad="$bad second@$cut"; continue; }
	[ "$(listed "$f")" -eq "$n" ] || bad="$bad read@$cut"
	grep -q '1 malformed lines skipped' "$T/stat.err" || bad="$bad note@$cut"
	grep -q "not exitmon's" "$T/stat.err" && bad="$bad refused@$cut"
	replay_to "$f" || { bad="$bad third@$cut"; continue; }
	[ "$(listed "$f")" -eq $((2 * n)) ] || bad="$bad read3@$cut"
	[ "$(grep -cxF "$(head -n 1 "$T/whole.csv")" "$f")" -eq 1 ] || bad="$bad headers@$cut"
done
check "every cut of the header: the second and third starts exit 0, exitstat reads all their records and says one line was damaged (failed:${bad:- none})" \
	[ -z "$bad" ]

# A second start cut short in its header too: two damaged lines, then the
# third start's header.
f=$T/twice.csv
head -c 9 "$T/whole.csv" >"$f"
printf ',,,,\n%s' "$(head -c 20 "$T/whole.csv")" >>"$f"
replay_to "$f"; rc=$?
check "a second header cut short too: the next start exits 0 (exit $rc)" [ $rc -eq 0 ]
check "... and writes its header after the two damaged lines" \
	[ "$(sed -n 3p "$f")" = "$(head -n 1 "$T/whole.csv")" ]
replay_to "$f"; rc=$?
check "... a start after it appends under that header (exit $rc; $(listed "$f") records of $((2 * n)))" \
	sh -c "[ $rc -eq 0 ] && [ $(listed "$f") -eq $((2 * n)) ]"

# A start that ended the cut header and stopped before its own header:
# the damaged line alone; the next start writes the header after it.
f=$T/endonly.csv
printf 'run,seq,ti,,,,\n' >"$f"
replay_to "$f"; rc=$?
check "a damaged line alone: the next start exits 0 (exit $rc), writes its header after it, and its records are read ($(listed "$f") of $n)" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(sed -n 2p '$f')\" = \"\$(head -n 1 '$T/whole.csv')\" ] && [ $(listed "$f") -eq $n ]"

# A first start with every column cut past more fields than the next
# start's -F has: still ended as a damaged line, not taken for a header.
f=$T/fewer.csv
head -c 200 "$T/whole.csv" >"$f"
replay_to "$f" -F type,pid,comm; rc1=$?
replay_to "$f" -F type,pid,comm; rc2=$?
check "a cut header with more columns than the next start's -F: both later starts exit 0 ($rc1, $rc2)" \
	sh -c "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $(listed "$f") -eq $((2 * n)) ]"

# The same rule for an older exitmon's file (its header without run,seq,
# time_ns): a new header row is in force at its end only if its last
# record has the new header's fields, whatever its values (a comm of 32
# hex digits looks like a run; a comm may hold a newline).
NEWF=run,seq,time_ns,comm,type,pid
for last in '0123456789abcdef0123456789abcdef,pid,6' '"a\nb,c,d",pid,6' \
	    '"\n0123456789abcdef0123456789,x,y",pid,6'; do
	f=$T/older.csv
	printf "comm,type,pid\nsleep,pid,5\n$last\n" >"$f"
	: >"$T/mon.err"
	replay_to "$f" -F $NEWF; rc1=$?
	replay_to "$f" -F $NEWF; rc2=$?
	hdrs=$(grep -c "^$NEWF\$" "$f")
	appended=$(grep -c 'a new header row is appended' "$T/mon.err")
	got=$(listed "$f")
	check "older file, last row ${last:0:40}...: a new header row appended once, every row read ($rc1 $rc2, $hdrs headers, said $appended, $got rows)" \
		sh -c "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $hdrs -eq 1 ] && [ $appended -eq 1 ] &&
		       ! grep -q malformed '$T/stat.err'"
done
done_testing
