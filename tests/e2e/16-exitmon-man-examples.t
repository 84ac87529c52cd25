#!/bin/bash
# Every command in exitmon(8)'s EXAMPLES runs and succeeds as written.
. "$(dirname "$0")/lib.sh"
need_taskstats

export PATH="$TOP:$PATH"
cd "$T" || exit 1
man_examples "$TOP/man/exitmon.8" > examples
check "the page has examples" [ "$(wc -l < examples)" -ge 4 ]
# Exits to hear while the examples run.
( for i in $(seq 200); do /bin/true; sleep 0.05; done ) &
_pids="$_pids $!"
while IFS= read -r cmd; do
	timeout 30 bash -c "$cmd" > out 2> err; rc=$?
	check "example runs: $cmd (exit $rc)" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || sed 's/^/# /' err
done < examples
check "CSV example wrote records" [ "$(wc -l < exits.csv)" -ge 2 ]
check "summary example wrote totals" grep -q '^records=' exits.sum
check "capture example wrote a capture" [ -s exits.pcap ]
done_testing
