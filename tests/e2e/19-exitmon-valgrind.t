#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The collector's end-to-end run once under valgrind: no memory errors, no
# leaks, live (threads and tgid records, two shards, capture) and replayed.
. "$(dirname "$0")/lib.sh"
need_taskstats
command -v valgrind >/dev/null || { nok "valgrind is missing (tools/deps.sh installs it)"; done_testing; }

TAG=xmvg$$
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"
$VG "$EXITMON" -f csv --comm "$TAG" --shards 2 --capture "$T/vg.pcap" \
	--metrics "$T/vg.prom" --stats 0.5 --summary "$T/vg.sum" \
	--pidfile "$T/vg.pid" -o "$T/vg.out" 2>"$T/vg.err" &
vg=$!
wait_file "$T/vg.pid" 60 || sed 's/^/# /' "$T/vg.err"
python3 - "$TAG" <<'PY'
import ctypes, sys, threading
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
ts = [threading.Thread(target=lambda: None) for _ in range(20)]
for t in ts: t.start()
for t in ts: t.join()
PY
sleep 1.5
kill -TERM $vg
wait $vg; rc=$?
check "live run under valgrind: no errors or leaks (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/vg.err" | head -40
check "live run under valgrind: 22 records" [ "$(kv "$T/vg.sum" matched)" -eq 22 ]

for fmt in text csv jsonl; do
	# to a file: /dev/null would skip the formatting
	$VG "$EXITMON" --replay "$T/vg.pcap" -f $fmt > "$T/rp.$fmt" 2>"$T/rp.err"; rc=$?
	check "replay -f $fmt under valgrind: clean (exit $rc)" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || sed 's/^/# /' "$T/rp.err" | head -20
done
$VG "$EXITMON" --frobnicate 2>/dev/null; rc=$?
check "usage error under valgrind: exit 2, no leak" [ "$rc" -eq 2 ]
done_testing
