#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Captures from real kernels replay to the same records, byte for byte, as
# when they were recorded: this machine's (real-v16) and one from each of
# Debian's kernels that tests/kernels/30-real-kernels.t boots under QEMU
# (real-<version>-v<struct version>.pcap, kept with UPDATE_FIXTURES=1, their
# goldens checked field by field against that kernel's BTF when kept).
# Each holds the same workload: a group of 3 processes x 3 threads, 4
# threads, 3 processes (tags xcap*), plus whatever else exited.  Runs
# without privileges.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }

D=$TOP/tests/data
n=0
for pcap in "$D"/real-*.pcap; do
	base=${pcap%.pcap} name=$(basename "$base")
	v=${name##*-v}
	n=$((n + 1))
	for fmt in csv jsonl; do
		"$EXITMON" --replay "$pcap" --run-id $GOLDEN_RUN -f $fmt > "$T/$name.$fmt" 2>/dev/null; rc=$?
		check "$name: replay -f $fmt exits 0" [ "$rc" -eq 0 ]
		check "$name: replay -f $fmt matches the recorded output" \
			cmp -s "$T/$name.$fmt" "$base.$fmt"
	done
	out=$T/$name.csv
	"$EXITMON" --replay "$pcap" --comm 'xcap*' -o /dev/null --summary "$T/s" 2>/dev/null
	check "$name: 19 records of the three runs ($(kv "$T/s" matched))" \
		[ "$(kv "$T/s" matched)" -eq 19 ]
	# A tgid record is written as sent (no comm, uid, ppid): its group is
	# named by the pid record before it, from the same message.
	check "$name: 3 tgid records, one per group" \
		[ "$(grep -A1 "^${ROW}pid,.*,xcapgrp," "$out" | grep -c "^${ROW}tgid,0,[0-9]*,0,,0,0,")" -eq 3 ]
	check "$name: threads of the thread run share one tgid" \
		[ "$(grep "^${ROW}pid,.*,xcapthr," "$out" | cut -d, -f6 | sort -u | wc -l)" -eq 1 ]
	check "$name: every pid row says version $v" \
		[ "$(grep "^${ROW}pid," "$out" | awk -F, '{print $NF}' | sort -u)" = "$v" ]
	check "$name: no malformed message in a real capture" [ "$(kv "$T/s" malformed)" -eq 0 ]
	check "$name: no field unknown to exitmon" [ "$(kv "$T/s" newer_struct)" -eq 0 ]
done
check "captures of this machine and of four other kernels ($n)" [ $n -ge 5 ]
done_testing
