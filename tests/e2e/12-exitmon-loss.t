#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# With the collector stopped (SIGSTOP) and a small receive buffer, a burst
# of exits overflows the queue: every message sent to the collector is
# either received or counted as dropped, and the loss is reported.
#
# Taskstats is machine-wide: every exit on the machine, not only the
# burst's, goes to every listener, and a busy machine's exits are dropped
# too.  So what the collector was sent is taken from a reference listener
# (lib.sh start_ref) registered around it with a buffer nothing overflows:
# between two marker exits, inside the collector's registration, both were
# sent the same messages.  Exact under any load.
. "$(dirname "$0")/lib.sh"
need_taskstats

N=300
TAG=xmloss$$
MARK=$(tagbin xmlmark$$)

# N threads exit in a quick burst (each sends one message), then the
# process (its pid and tgid records travel in one more message).
burst() {
	python3 - "$TAG" "$N" <<'PY'
import ctypes, sys, threading
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
for _ in range(int(sys.argv[2])):
    t = threading.Thread(target=lambda: None); t.start(); t.join()
PY
}
# mark: one exit whose pid is known; sets m.
mark() { "$MARK" & m=$!; wait $m; }

# window REF CSV M1 M2 TAG: the reference's messages from marker M1 to
# marker M2 and how many of them the collector's CSV holds (the same pid,
# start time and elapsed time), all and the burst's; each pid marker must
# be there once.
window() {
	python3 - "$@" <<'PY'
import csv, sys
ref, out, m1, m2, tag = sys.argv[1:]
lines = [l.split() for l in open(ref)]
at = lambda pid: [i for i, l in enumerate(lines) if l[0] == pid]
a, b = at(m1), at(m2)
if len(a) != 1 or len(b) != 1:
    print('markers', len(a), len(b)); sys.exit(0)
win = [tuple(l[:3]) for l in lines[a[0]:b[0] + 1]]
ours = {tuple(l[:3]) for l in lines[a[0]:b[0] + 1]
        if bytes.fromhex(l[3]).decode('latin-1') == tag}
got = {(r['pid'], r['btime'], r['elapsed_us'])
       for r in csv.DictReader(open(out, encoding='latin-1', newline=''))
       if r['type'] == 'pid'}
print('window', len(win), len(set(win) & got), len(ours), len(ours & got))
PY
}

attempt() {
	start_ref ref$1 || return 1
	start_exitmon loss$1 -f csv --rcvbuf 128K || return 1
	mark; m1=$m
	kill -STOP "$MON_PID"
	burst
	kill -CONT "$MON_PID"
	sleep 0.3
	mark; m2=$m
	stop_exitmon
	stop_ref
	s=$T/loss$1.sum
	dropped=$(kv "$s" dropped); enobufs=$(kv "$s" enobufs)
	refdrops=$(sed -n 's/.*drops=\([0-9]*\).*/\1/p' "$T/ref$1.refsum")
	read -r what sent got ours oursgot < <(window "$T/ref$1.ref" "$T/loss$1.out" $m1 $m2 "$TAG")
	diag "attempt $1: reference: $sent messages sent from marker to marker ($ours of the burst)," \
		"$refdrops dropped; collector: received $got of them ($oursgot of the burst)," \
		"dropped=$dropped enobufs=$enobufs"
	# A message of other work dropped just outside the markers is counted
	# in dropped but not in the window: try again.
	[ "$what" = window ] && [ $((got + dropped)) -eq "$sent" ]
}

for a in 1 2 3; do attempt $a && break; done
check "both markers seen once by the reference ($what)" [ "$what" = window ]
check "the reference listener dropped nothing (drops=$refdrops)" [ "$refdrops" = 0 ]
check "the reference was sent the whole burst: $((N + 1)) messages ($ours)" [ "$ours" -eq $((N + 1)) ]
check "received + dropped = messages sent to the collector ($got + $dropped = $sent)" \
	[ $((got + dropped)) -eq "$sent" ]
check "records were dropped ($dropped)" [ "$dropped" -gt 0 ]
check "some were received ($got, $oursgot of them the burst's)" [ "$got" -gt 0 ]
check "ENOBUFS episodes counted ($enobufs)" [ "$enobufs" -ge 1 ]
check "loss reported on stderr" grep -q "[1-9][0-9]* dropped" "$T/loss$a.err"
check "advice to raise --rcvbuf" grep -q -- "--rcvbuf" "$T/loss$a.err"
# ours: the pid rows named by the tag, and the tgid row (written as the
# kernel sent it, without comm) that the filter let through with its pid row
ours() { grep -c -e ",$TAG," -e "^${ROW}tgid," "$1"; }

# The same burst with the default buffer and the collector running: nothing
# is lost, in both receive modes, with one or two shards.
for mode in "" "--wakeup" "--shards 2"; do
	name=ok$(echo "$mode" | tr -dc a-z0-9)
	start_exitmon "$name" -f csv --comm "$TAG" $mode || nok "collector ${mode:-default} ready"
	burst
	sleep 0.3
	stop_exitmon
	check "${mode:-default}: all $((N + 2)) records received" \
		[ "$(kv "$T/$name.sum" matched)" -eq $((N + 2)) ]
	check "${mode:-default}: the output holds them whole" \
		[ "$(ours "$T/$name.out")" -eq $((N + 2)) ]
	check "${mode:-default}: summary matched = records written" \
		[ "$(kv "$T/$name.sum" matched)" -eq "$(ours "$T/$name.out")" ]
done
check "--wakeup: summary says mode=wakeup" [ "$(kv "$T/okwakeup.sum" mode)" = wakeup ]
check "--shards 2: summary says shards=2" [ "$(kv "$T/okshards2.sum" shards)" = 2 ]
done_testing
