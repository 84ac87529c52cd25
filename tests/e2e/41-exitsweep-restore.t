#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel.task_delayacct is always put back: after SIGINT mid-sweep, after
# SIGTERM, after a second SIGINT that cuts the cleanup short, and when a
# run fails.  The children go with the sweep; the partial results are
# printed; the exit status tells what happened.
. "$(dirname "$0")/lib.sh"
need_taskstats
need_exitsweep
need_writable_delayacct
flip=$((1 - da0))
if [ $flip -eq 1 ]; then want=on; else want=off; fi
diag "kernel.task_delayacct is $da0; the sweeps set it to $flip"

# start_sweep NAME ARGS...: a sweep that flips delay accounting, in the
# background; waits until its second run started with the sysctl flipped.
start_sweep() {
	name=$1; shift
	"$EXITSWEEP" --delayacct $want --rates 1000 --count 1000 --runs 3 \
		--tgid on,off --listener none,batch --probe off "$@" \
		>"$T/$name.out" 2>"$T/$name.err" &
	SW=$!
	_pids="$_pids $SW"
	for i in $(seq 200); do
		grep -qs 'run 2 of' "$T/$name.err" && [ "$(cat $DA)" = $flip ] && break
		sleep 0.05
	done
	sleep 0.3
	KIDS=$(pgrep -P $SW | tr '\n' ' ')
}

# kids_gone: every child of the sweep has exited (a zombie waiting for
# init counts as exited), waiting up to 5 s
kids_gone() {
	for i in $(seq 100); do
		left=0
		for k in $KIDS; do
			st=$(awk '{print $3}' "/proc/$k/stat" 2>/dev/null)
			[ -n "$st" ] && [ "$st" != Z ] && left=1
		done
		[ $left -eq 0 ] && return 0
		sleep 0.05
	done
	return 1
}

# failing_stub PATH NAME MESSAGE: a stand-in for NAME that answers
# --version and otherwise fails (exit 3) saying MESSAGE.
failing_stub() {
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo "%s stub"; exit 0; }\n' "$2" >"$1"
	printf 'echo "%s" >&2\nexit 3\n' "$3" >>"$1"
	chmod 755 "$1"
}

# --- SIGINT mid-sweep ---
start_sweep int
check "SIGINT: the sweep had flipped delay accounting" [ "$(cat $DA)" = $flip ]
check "SIGINT: a run was in progress (children present)" [ -n "$KIDS" ]
kill -INT $SW
wait $SW; rc=$?
check "SIGINT: exit status 130" [ $rc -eq 130 ]
check "SIGINT: kernel.task_delayacct restored to $da0" [ "$(cat $DA)" = "$da0" ]
check "SIGINT: exitmon and exitgen gone" kids_gone
check "SIGINT: says so, and that it restored" \
	grep -q 'interrupted by signal 2 after 1 of 12 runs; kernel.task_delayacct restored' "$T/int.err"
check "SIGINT: partial results printed, marked" grep -q 'INTERRUPTED: partial results' "$T/int.out"

# --- SIGTERM ---
start_sweep term
kill -TERM $SW
wait $SW; rc=$?
check "SIGTERM: exit status 143" [ $rc -eq 143 ]
check "SIGTERM: restored" [ "$(cat $DA)" = "$da0" ]
check "SIGTERM: children gone" kids_gone

# --- two SIGINTs: the second restores at once and exits ---
start_sweep twice --listener batch
kill -INT $SW
kill -INT $SW
wait $SW; rc=$?
check "second SIGINT: exit status 130" [ $rc -eq 130 ]
check "second SIGINT: restored" [ "$(cat $DA)" = "$da0" ]
check "second SIGINT: children gone" kids_gone

# --- a failing run: error names the run, restored, exit 1 ---
failing_stub "$T/badgen" exitgen "exitgen: simulated failure"
"$EXITSWEEP" --delayacct $want --exitgen "$T/badgen" --rates 1000 --count 100 \
	--runs 2 --listener none --probe off >"$T/bad.out" 2>"$T/bad.err"; rc=$?
check "failing run: exit status 1" [ $rc -eq 1 ]
check "failing run: restored" [ "$(cat $DA)" = "$da0" ]
check "failing run: the message names the run and exitgen's error" \
	grep -q 'run 1 of 4 (rate=1000 tgid=.* listener=none delayacct='$want'): exitgen failed, exit status 3: exitgen: simulated failure' "$T/bad.err"
[ $rc -eq 1 ] || sed 's/^/# /' "$T/bad.err"

# --- a collector that never gets ready: said clearly, nothing changed ---
failing_stub "$T/badmon" exitmon "exitmon: no CAP_NET_ADMIN (stub)"
"$EXITSWEEP" --delayacct $want --exitmon "$T/badmon" --rates 1000 --count 100 \
	--runs 2 --listener batch --probe off >"$T/mon.out" 2>"$T/mon.err"; rc=$?
check "collector fails: exit status 1" [ $rc -eq 1 ]
check "collector fails: its status and message" \
	grep -q 'exitmon exited before it was ready, exit status 3: exitmon: no CAP_NET_ADMIN (stub)' "$T/mon.err"
check "collector fails: delay accounting untouched" [ "$(cat $DA)" = "$da0" ]

done_testing
