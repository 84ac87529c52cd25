#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# N single-threaded processes yield N pid records and no tgid record; the
# records carry the right identity and exit status.
. "$(dirname "$0")/lib.sh"
need_taskstats

N=25
TAG=xmproc$$
bin=$(tagbin "$TAG")
cp /bin/false "$T/${TAG}f"
start_exitmon proc -f csv --comm "${TAG}*" || { nok "collector ready"; done_testing; }
for ((i = 0; i < N; i++)); do "$bin"; done
"$T/${TAG}f"
# no wait: a record is sent before its process is reaped, and the
# collector drains its socket when it stops
stop_exitmon; rc=$?
check "collector exits 0" [ "$rc" -eq 0 ]
python3 - "$T/proc.out" "$TAG" > "$T/proc.check" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
tag = sys.argv[2]
t = [r for r in rows if r['comm'] == tag]
f = [r for r in rows if r['comm'] == tag + 'f']
print(sum(r['type'] == 'pid' for r in t), sum(r['type'] == 'tgid' for r in rows),
      len(f), f[0]['exitcode'] if f else '-',
      all(r['pid'] == r['tgid'] for r in t), t[0]['uid'] if t else '-',
      t[0]['version'] if t else '-')
PY
read np ntg nf fcode same uid ver < "$T/proc.check"
check "$N pid records (got $np)" [ "$np" -eq $N ]
check "no tgid record (got $ntg)" [ "$ntg" -eq 0 ]
check "false's record carries exit status 1<<8 (got $fcode)" [ "$nf" -eq 1 -a "$fcode" = 256 ]
check "single-threaded: pid == tgid" [ "$same" = True ]
check "uid is ours" [ "$uid" = "$(id -u)" ]
check "struct version reported ($ver)" [ "$ver" -ge 1 ]
check "summary: records_tgid counted, none of ours" [ -n "$(kv "$T/proc.sum" records_tgid)" ]
check "summary: matched = $((N + 1))" [ "$(kv "$T/proc.sum" matched)" -eq $((N + 1)) ]
for k in records records_pid records_tgid matched dropped enobufs truncated malformed implausible seconds; do
	check "summary has $k" grep -q "^$k=" "$T/proc.sum"
done
done_testing
