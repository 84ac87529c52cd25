#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# No signal that asks to stop ends exitprobe without its report:
#   - with --duration, each one (SIGHUP, SIGQUIT, SIGUSR1, ...) ends the
#     measurement early, the report and summary are written, status 0;
#     one ignored when it started (nohup's SIGHUP) stays ignored;
#   - with a command, exitprobe passes it on: the command decides, and
#     exitprobe reports and exits with the command's status;
#   - through exitprobe, exitgen stops cleanly too.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$EXITPROBE" ] || { echo "Bail out! $EXITPROBE not built"; exit 1; }

# 1. --duration: every signal that asks to stop, one after the other (the
# shell ignores SIGQUIT in a background job: env gives it back).
for sig in HUP QUIT USR1 USR2 PIPE ALRM RTMIN+1; do
	f=$T/d-$sig.sum
	env --default-signal "$EXITPROBE" --method sample --duration 10 \
		--summary "$f" >"$T/d-$sig.out" 2>"$T/d-$sig.err" &
	pid=$!
	sleep 0.6
	kill -"$sig" $pid
	wait $pid; rc=$?
	check "--duration, SIG$sig: exit 0 ($rc)" [ $rc -eq 0 ]
	check "--duration, SIG$sig: summary written" grep -q '^exits=' "$f"
	check "--duration, SIG$sig: report written" grep -q '^exits ' "$T/d-$sig.out"
	check "--duration, SIG$sig: ended early ($(kv "$f" seconds 2>/dev/null))" \
		awk -v s="$(kv "$f" seconds 2>/dev/null)" 'BEGIN { exit !(s != "" && s < 5) }'
	check "--duration, SIG$sig: nothing on stderr" [ ! -s "$T/d-$sig.err" ]
done
env --ignore-signal=HUP "$EXITPROBE" --method sample --duration 1.5 \
	--summary "$T/nohup.sum" -q &
pid=$!
sleep 0.6
kill -HUP $pid
wait $pid; rc=$?
check "--duration, SIGHUP ignored on entry: exit 0 ($rc)" [ $rc -eq 0 ]
check "--duration, SIGHUP ignored on entry: the whole duration ($(kv "$T/nohup.sum" seconds))" \
	awk -v s="$(kv "$T/nohup.sum" seconds)" 'BEGIN { exit !(s >= 1.4) }'

# 2. A command: the signal is the command's; the report is written.  USR1
# comes once the command runs; ALRM as soon as the command's process is
# forked, most likely while the probe still loads (the command, not yet
# started, dies of it: its status all the same).
for sig in USR1 ALRM; do
	num=$(kill -l "$sig")
	"$EXITPROBE" --method sample --summary "$T/c-$sig.sum" -q -- sleep 10 &
	pid=$!
	want=sleep; [ "$sig" = USR1 ] || want=
	for i in $(seq 200); do
		c=$(ps -o comm= --ppid $pid 2>/dev/null)
		[ -n "$c" ] && { [ -z "$want" ] || [ "$c" = "$want" ]; } && break
		sleep 0.05
	done
	[ -n "$want" ] || sleep 0.05	# the handlers are set just after the fork
	kill -"$sig" $pid
	wait $pid; rc=$?
	check "command, SIG$sig passed on: status $((128 + num)) ($rc)" \
		[ $rc -eq $((128 + num)) ]
	check "command, SIG$sig: summary written" grep -q '^exits=' "$T/c-$sig.sum"
done

# 3. exitgen under exitprobe: SIGHUP stops the run, both report.
"$EXITPROBE" --method sample --summary "$T/g.sum" -q -- \
	"$EXITGEN" --rate 200 --duration 4 -q --summary "$T/g-gen.sum" &
pid=$!
# Once exitgen runs (its main thread is named exitgen-main), and a moment
# for it to take its signals, however long the probe took to load.
for i in $(seq 200); do
	ps -o comm= --ppid $pid 2>/dev/null | grep -q '^exitgen' && break
	sleep 0.05
done
sleep 0.3
kill -HUP $pid
wait $pid; rc=$?
check "exitgen under exitprobe, SIGHUP: exit 0 ($rc)" [ $rc -eq 0 ]
check "exitgen under exitprobe: exitgen stopped_by=signal" \
	[ "$(kv "$T/g-gen.sum" stopped_by)" = signal ]
check "exitgen under exitprobe: exitprobe's summary written" \
	grep -q '^exits=' "$T/g.sum"
done_testing
