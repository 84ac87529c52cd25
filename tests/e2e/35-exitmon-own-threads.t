#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitmon's own thread exits (its receive threads at the end, the
# self-check's thread at the start) are counted as self_exits and never
# written as records, while a workload's exits still are.
. "$(dirname "$0")/lib.sh"
need_taskstats

SHARDS=2
TAG=xmown$$
start_exitmon own -f csv --shards $SHARDS || { nok "collector ready"; done_testing; }
"$(tagbin "$TAG")"
sleep 0.2
stop_exitmon; rc=$?
check "exitmon ends with status 0" [ "$rc" -eq 0 ]
# A self-check thread and a receive thread per shard, at least.
self=$(kv "$T/own.sum" self_exits)
check "self_exits counts the own threads ($self >= $((2 * SHARDS)))" \
	[ "${self:-0}" -ge $((2 * SHARDS)) ]
python3 - "$T/own.out" "$MON_PID" "$TAG" > "$T/own.check" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
own = [r for r in rows if r['tgid'] == sys.argv[2] or r['pid'] == sys.argv[2]]
tag = [r for r in rows if r['comm'] == sys.argv[3]]
print(len(own), len(tag), len(rows))
PY
read -r own tag rows < "$T/own.check"
check "no record of exitmon's own threads ($own of $rows rows)" [ "$own" -eq 0 ]
check "the workload's exit is written ($tag)" [ "$tag" -eq 1 ]
check "written in the summary = rows in the file ($(kv "$T/own.sum" written) = $rows)" \
	[ "$(kv "$T/own.sum" written)" -eq "$rows" ]
done_testing
