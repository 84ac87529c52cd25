#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --capture with several shards onto a disk that fills: each shard writes
# packets from its own thread, and a short write is cut back off.  The
# capture must stay a sequence of whole packets (no shard's cut-back may
# chop another's packet), and every record is either captured or counted
# as a capture error.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmcsh$$
mkdir "$T/small"
mount -t tmpfs -o size=256k tmpfs "$T/small" ||
	{ nok "mount a small tmpfs (root)"; done_testing; }
trap 'umount "$T/small" 2>/dev/null; cleanup' EXIT

start_exitmon cap -f csv --comm "$TAG" --shards 2 --capture "$T/small/c.pcap"
"$EXITGEN" --shape thread --workers 2 --rate max --count 20000 --tag "$TAG" -q
sleep 0.3
stop_exitmon; rc=$?
check "collector exits 0 with the capture disk full (exit $rc)" [ "$rc" -eq 0 ]
errs=$(kv "$T/cap.sum" capture_errors)
# one pid record per message; exitmon's own exits are captured, not counted
recs=$(( $(kv "$T/cap.sum" records_pid) + $(kv "$T/cap.sum" self_exits) ))
diag "messages=$recs capture_errors=$errs"
check "the disk filled: capture errors counted" [ "$errs" -gt 0 ]

"$EXITMON" --replay "$T/small/c.pcap" -o /dev/null --summary "$T/r.sum" 2>"$T/r.err"; rc=$?
check "the capture replays (exit $rc)" [ "$rc" -eq 0 ]
check "no partial or malformed packet in the capture" \
	[ "$(kv "$T/r.sum" truncated)" -eq 0 -a "$(kv "$T/r.sum" malformed)" -eq 0 ]
check "messages captured + capture errors = messages received" \
	[ $(( $(kv "$T/r.sum" records_pid) + errs )) -eq "$recs" ]
done_testing
