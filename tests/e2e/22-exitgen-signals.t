#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT and SIGTERM stop a run cleanly: everything made is released or
# killed and reaped, background children are killed, the report says what
# was done, and no child is left behind, zombie or orphan.  So does every
# other signal that would end exitgen (SIGHUP, SIGUSR1, SIGQUIT, ...): none
# is left pending to kill it after the run, without a report; one ignored
# when it started (nohup's SIGHUP) stays ignored.  A stdout
# that is gone is a one-line error and status 1.  Even SIGKILL
# leaves no orphan: every child dies with exitgen (PR_SET_PDEATHSIG).
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }

# children PID: pids whose parent is PID (any of its threads), one a line.
children() {
	cat /proc/"$1"/task/*/children 2>/dev/null | tr ' ' '\n' | sed '/^$/d'
}

# alive PID...: how many of these still run (zombies of dead parents are
# init's to reap and not counted; pids reused by others are not ours:
# the comm must be a tag or exitgen-bg).
alive() {
	n=0
	for p in "$@"; do
		st=$(sed -n 's/^State:\t\(.\).*/\1/p' /proc/$p/status 2>/dev/null)
		c=$(cat /proc/$p/comm 2>/dev/null)
		case "$st:$c" in
		:*|Z:*) ;;
		*:eg22*|*:exitgen-bg) n=$((n + 1)) ;;
		esac
	done
	echo $n
}

# by_comm NAME: live (not zombie) processes and threads whose comm is NAME,
# waiting up to 3 s for them to go: a task killed a moment ago may still be
# on its way out, and a zombie whose parent died is init's to reap.
by_comm() {
	i=0
	while :; do
		n=0
		for f in $(grep -lxF -- "$1" /proc/[0-9]*/task/[0-9]*/comm 2>/dev/null); do
			grep -q '^State:.Z' "${f%/comm}/status" 2>/dev/null || n=$((n + 1))
		done
		[ $n -eq 0 ] || [ $i -ge 30 ] && break
		i=$((i + 1)); sleep 0.1
	done
	echo $n
}

stop_run() { # stop_run NAME SIGNAL SHAPE ARGS...
	name=$1 sig=$2 shape=$3; shift 3
	tag=eg22$name$$
	"$EXITGEN" --shape "$shape" --tag "$tag" --summary "$T/$name.sum" -q "$@" &
	pid=$!
	sleep 0.8
	kids=$(children $pid)
	nkids=$(echo "$kids" | sed '/^$/d' | wc -l)
	kill -"$sig" $pid
	wait $pid; rc=$?
	sleep 0.2
	check "$name: SIG$sig: exit 0" [ $rc -eq 0 ]
	check "$name: stopped_by=signal" [ "$(kv "$T/$name.sum" stopped_by)" = signal ]
	check "$name: children_left=0" [ "$(kv "$T/$name.sum" children_left)" = 0 ]
	check "$name: had children while running ($nkids)" [ "$nkids" -gt 0 ]
	check "$name: none of them is left" [ "$(alive $kids)" -eq 0 ]
	check "$name: no task with the tag is left" [ "$(by_comm "$tag")" -eq 0 ]
	check "$name: every task made was reaped" \
		[ "$(kv "$T/$name.sum" exits)" = "$(kv "$T/$name.sum" tasks_created)" ]
}

stop_run fork INT fork --rate 200 --duration 30 --background 20 --work cpu:1000
stop_run proc TERM process --rate 300 --duration 30 --background 20 --work cpu:1000 --workers 2
stop_run thr INT thread --rate 300 --duration 30 --background 5 --work cpu:1000
stop_run grp TERM group:3 --rate 100 --duration 30 --background 5
# Tasks waiting for their release or their SIGKILL when the stop comes.
stop_run batch INT fork --batch 40 --rate 5 --count 400 --background 5
stop_run kill TERM process --batch 40 --rate 5 --count 400 --exit-by signal
check "kill: background count reported" [ "$(kv "$T/fork.sum" background)" = 20 ]

# The other signals that ask to stop, at once (in parallel: 1 s in all).
# The shell ignores SIGQUIT in a background job: env gives it back.
others="HUP QUIT USR1 USR2 PIPE ALRM XCPU VTALRM RTMIN+2"
pids=""
for sig in $others; do
	env --default-signal "$EXITGEN" --tag eg22o$$ --rate 200 --duration 4 -q \
		--summary "$T/o-$sig.sum" 2>"$T/o-$sig.err" &
	pids="$pids $!"
done
env --ignore-signal=HUP "$EXITGEN" --tag eg22o$$ --rate 200 --duration 1 -q \
	--summary "$T/nohup.sum" &
nohup_pid=$!
sleep 0.5
kill -HUP $nohup_pid
set -- $pids
for sig in $others; do kill -"$sig" "$1"; shift; done
set -- $pids
for sig in $others; do
	wait "$1"; rc=$?; shift
	f=$T/o-$sig.sum
	check "SIG$sig: exit 0 ($rc)" [ $rc -eq 0 ]
	check "SIG$sig: stopped_by=signal" [ "$(kv "$f" stopped_by 2>/dev/null)" = signal ]
	check "SIG$sig: stopped at once, not at the end ($(kv "$f" elapsed 2>/dev/null))" \
		awk -v e="$(kv "$f" elapsed 2>/dev/null)" 'BEGIN { exit !(e != "" && e < 3) }'
	check "SIG$sig: nothing on stderr" [ ! -s "$T/o-$sig.err" ]
done
wait $nohup_pid; rc=$?
check "SIGHUP ignored on entry: exit 0 ($rc)" [ $rc -eq 0 ]
check "SIGHUP ignored on entry: ran to the end" \
	[ "$(kv "$T/nohup.sum" stopped_by)" = duration ]

# The report to a pipe whose reader is gone: said, status 1, summary kept.
python3 - "$EXITGEN" "$T/gone.sum" > "$T/gone.out" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.argv[1], "--count", "20", "--summary", sys.argv[2]],
                   stdout=w, stderr=subprocess.PIPE)
print(p.returncode)
sys.stdout.write(p.stderr.decode())
PY
check "stdout gone: status 1 ($(head -1 "$T/gone.out"))" [ "$(head -1 "$T/gone.out")" = 1 ]
check "stdout gone: one line saying so" \
	grep -qx 'exitgen: cannot write the report: Broken pipe' "$T/gone.out"
check "stdout gone: the summary is there" [ "$(kv "$T/gone.sum" exits)" = 20 ]

# SIGKILL: no report, but no orphan either.
tag=eg22k9$$
"$EXITGEN" --shape process --tag "$tag" --batch 30 --rate 2 --count 300 \
	--background 10 -q 2>/dev/null &
pid=$!
sleep 1.2
kids=$(children $pid)
nkids=$(echo "$kids" | sed '/^$/d' | wc -l)
kill -KILL $pid
wait $pid 2>/dev/null
sleep 0.5
check "SIGKILL: had children ($nkids)" [ "$nkids" -ge 30 ]
check "SIGKILL: every child died with exitgen" [ "$(alive $kids)" -eq 0 ]
check "SIGKILL: no task with the tag is left" [ "$(by_comm "$tag")" -eq 0 ]
done_testing
