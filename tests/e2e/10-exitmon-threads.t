#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# A process that runs N threads and exits yields exactly N+1 pid records
# with its tgid and exactly one tgid record.
. "$(dirname "$0")/lib.sh"
need_taskstats

N=7
TAG=xmthr$$
for fmt in csv jsonl; do
	start_exitmon thr-$fmt -f $fmt --comm "$TAG" || { nok "collector ready"; continue; }
	python3 - "$TAG" "$N" > "$T/thr-$fmt.tgid" <<'PY'
import ctypes, os, sys, threading
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)  # PR_SET_NAME
ts = [threading.Thread(target=lambda: None) for _ in range(int(sys.argv[2]))]
for t in ts: t.start()
for t in ts: t.join()
print(os.getpid())
PY
	# no wait: a record is sent before its thread is joined, and the
	# collector drains its socket when it stops
	stop_exitmon
	tgid=$(cat "$T/thr-$fmt.tgid")
	python3 - "$fmt" "$T/thr-$fmt.out" "$tgid" "$N" > "$T/thr-$fmt.check" <<'PY'
import csv, json, sys
fmt, path, tgid, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(path, newline='') as f:
    rows = list(csv.DictReader(f)) if fmt == 'csv' else [json.loads(l) for l in f]
pid = [r for r in rows if r['type'] == 'pid' and str(r['tgid']) == tgid]
tg = [r for r in rows if r['type'] == 'tgid' and str(r['tgid']) == tgid]
print(len(pid), len(tg), len(rows))
PY
	read np ntg nall < "$T/thr-$fmt.check"
	check "$fmt: $((N + 1)) pid records with tgid $tgid (got $np)" [ "$np" -eq $((N + 1)) ]
	check "$fmt: one tgid record (got $ntg)" [ "$ntg" -eq 1 ]
	check "$fmt: nothing else matched (got $nall)" [ "$nall" -eq $((N + 2)) ]
	check "$fmt: summary counts them" [ "$(kv "$T/thr-$fmt.sum" matched)" -eq $((N + 2)) ]
	check "$fmt: nothing lost" [ "$(kv "$T/thr-$fmt.sum" dropped)" -eq 0 ]
done
done_testing
