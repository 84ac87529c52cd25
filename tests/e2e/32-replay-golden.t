#!/bin/bash
# A capture from the real kernel (v16: a group of 3 processes x 3 threads,
# 4 threads, 3 processes, plus whatever else exited) replays to the same
# records, byte for byte, as when it was recorded.  Runs without privileges.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }

D=$TOP/tests/data
for fmt in csv jsonl; do
	"$EXITMON" --replay "$D/real-v16.pcap" -f $fmt > "$T/out.$fmt" 2>/dev/null; rc=$?
	check "replay -f $fmt exits 0" [ "$rc" -eq 0 ]
	check "replay -f $fmt matches the recorded output" cmp -s "$T/out.$fmt" "$D/real-v16.$fmt"
done
"$EXITMON" --replay "$D/real-v16.pcap" --comm 'xcap*' -o /dev/null --summary "$T/s" 2>/dev/null
check "19 records of the three runs" [ "$(kv "$T/s" matched)" -eq 19 ]
# A tgid record is written as sent (no comm, uid, ppid): its group is named
# by the pid record before it, from the same message.
check "3 tgid records, one per group" \
	[ "$(grep -A1 '^pid,.*,xcapgrp,' "$T/out.csv" | grep -c '^tgid,0,[0-9]*,0,,0,0,')" -eq 3 ]
check "threads of the thread run share one tgid" \
	[ "$(grep '^pid,.*,xcapthr,' "$T/out.csv" | cut -d, -f3 | sort -u | wc -l)" -eq 1 ]
check "no malformed message in a real capture" [ "$(kv "$T/s" malformed)" -eq 0 ]
done_testing
