#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command in exitmon(8)'s EXAMPLES runs and succeeds as written.
. "$(dirname "$0")/lib.sh"
need_taskstats

cd "$T" || exit 1
# Exits to hear while the examples run.
( for i in $(seq 200); do /bin/true; sleep 0.05; done ) &
_pids="$_pids $!"
run_man_examples "$TOP/man/exitmon.8" 30
check "the page has examples ($MAN_EXAMPLES)" [ "$MAN_EXAMPLES" -ge 4 ]
check "CSV example wrote records" [ "$(wc -l < exits.csv)" -ge 2 ]
check "summary example wrote totals" grep -q '^records=' exits.sum
check "capture example wrote a capture" [ -s exits.pcap ]
done_testing
