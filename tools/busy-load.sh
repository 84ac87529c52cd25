#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# busy-load.sh COMMAND [ARG...]: run COMMAND beside an exit-heavy load of
# other work, the way a kernel developer's machine is busy during `make
# test` (make test-busy).  The load starts before COMMAND and is killed
# after it, whatever happens: every load loop also ends by itself within a
# fraction of a second once this script is gone, so even a SIGKILL leaves
# nothing behind.  Exits with COMMAND's status.
#
# The load (taskstats sends every exit on the machine to every listener):
#   - BUSY_PROCS_PER_S (default 1000) short-lived processes a second, each
#     forked and reaped, a tenth of them exec'ing /bin/true;
#   - BUSY_THREADS_PER_S (default 2000) short-lived threads a second;
#   - BUSY_CPU (default 1) loops spinning on the CPU, at nice 5 so the
#     exits and the tests still get their share.
# Paced in 10 ms ticks; a loop that falls behind does not burst to catch up.
set -u
[ $# -ge 1 ] || { echo "usage: busy-load.sh COMMAND [ARG...]" >&2; exit 2; }
procs=${BUSY_PROCS_PER_S:-1000}
threads=${BUSY_THREADS_PER_S:-2000}
cpu=${BUSY_CPU:-1}
case "$procs$threads$cpu" in
*[!0-9]*) echo "busy-load.sh: BUSY_PROCS_PER_S, BUSY_THREADS_PER_S and BUSY_CPU must be whole numbers" >&2
	exit 2 ;;
esac
me=$$
load_pids=""

# Each loop checks that this script is still there (kill -0 is a builtin,
# getppid() changes when it is gone).
spin() {
	while kill -0 "$me" 2>/dev/null; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do :; done
	done
}
churn() { # churn procs|threads RATE
	exec python3 - "$me" "$@" <<'PY'
import os, sys, threading, time
parent, kind, rate = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
batch = max(1, rate // 100)
def procs():
    kids = []
    for i in range(batch):
        pid = os.fork()
        if pid == 0:
            if i % 10 == 0:
                os.execv('/bin/true', ['true'])
            os._exit(0)
        kids.append(pid)
    for pid in kids: os.waitpid(pid, 0)
def threads():
    ts = [threading.Thread(target=lambda: None) for _ in range(batch)]
    for t in ts: t.start()
    for t in ts: t.join()
step = procs if kind == 'procs' else threads
nxt = time.monotonic()
while rate > 0 and os.getppid() == parent:
    step()
    nxt += 0.01
    time.sleep(max(0, nxt - time.monotonic()))
    nxt = max(nxt, time.monotonic() - 0.05)
PY
}

stop_load() {
	[ -n "$load_pids" ] || return
	kill $load_pids 2>/dev/null
	wait $load_pids 2>/dev/null
	load_pids=""
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT
trap 'stop_load; exit 143' TERM

churn procs "$procs" & load_pids="$load_pids $!"
churn threads "$threads" & load_pids="$load_pids $!"
for _ in $(seq 1 "$cpu"); do
	(renice -n 5 $BASHPID >/dev/null; spin) & load_pids="$load_pids $!"
done
echo "busy-load: $procs processes/s, $threads threads/s, $cpu CPU spinner(s) beside: $*" >&2
sleep 1	# let the load reach its pace before the command starts
"$@"
rc=$?
stop_load
exit $rc
