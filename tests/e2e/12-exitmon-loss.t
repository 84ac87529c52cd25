#!/bin/bash
# With the collector stopped (SIGSTOP) and a tiny receive buffer, a burst of
# exits overflows the queue: every record is either received or counted as
# dropped (received + dropped = sent), and the loss is reported.
. "$(dirname "$0")/lib.sh"
need_taskstats

N=400
TAG=xmloss$$
bin=$(tagbin "$TAG")

attempt() {
	start_exitmon loss$1 -f csv --comm "$TAG" --rcvbuf 4K || return 1
	kill -STOP "$MON_PID"
	for ((i = 0; i < N; i++)); do "$bin"; done
	kill -CONT "$MON_PID"
	sleep 0.3
	stop_exitmon
	s=$T/loss$1.sum
	matched=$(kv "$s" matched); dropped=$(kv "$s" dropped)
	enobufs=$(kv "$s" enobufs); filtered=$(kv "$s" filtered)
	diag "attempt $1: matched=$matched dropped=$dropped enobufs=$enobufs other-records=$filtered"
	[ $((matched + dropped)) -eq $N ]
}

# Other exits on the machine during the burst can be dropped too and would
# show as dropped records that are not ours: retry a noisy attempt.
for a in 1 2 3; do attempt $a && break; done
check "received + dropped = $N sent ($matched + $dropped)" [ $((matched + dropped)) -eq $N ]
check "records were dropped ($dropped)" [ "$dropped" -gt 0 ]
check "some were received ($matched)" [ "$matched" -gt 0 ]
check "ENOBUFS episodes counted ($enobufs)" [ "$enobufs" -ge 1 ]
check "loss reported on stderr" grep -q "dropped" "$T/loss$a.err"
check "advice to raise --rcvbuf" grep -q -- "--rcvbuf" "$T/loss$a.err"
check "output holds exactly the received records" \
	[ "$(grep -c ",$TAG," "$T/loss$a.out")" -eq "$matched" ]

# Wakeup mode with the default buffer keeps everything at this rate.
start_exitmon wake -f csv --comm "$TAG" --wakeup || nok "wakeup collector ready"
for ((i = 0; i < 100; i++)); do "$bin"; done
sleep 0.3
stop_exitmon
check "--wakeup: all 100 received" [ "$(kv "$T/wake.sum" matched)" -eq 100 ]
check "--wakeup: summary says mode=wakeup" [ "$(kv "$T/wake.sum" mode)" = wakeup ]
done_testing
