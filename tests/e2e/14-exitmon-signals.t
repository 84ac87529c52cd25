#!/bin/bash
# Signals and self-stopping: SIGHUP reopens the output (rotation), SIGUSR1
# prints the stats line, SIGTERM stops cleanly, --count and --duration stop.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmsig$$
bin=$(tagbin "$TAG")
start_exitmon rot -f csv --comm "$TAG" || nok "collector ready"
for i in 1 2 3; do "$bin"; done
sleep 0.2
mv "$T/rot.out" "$T/rot.out.1"
kill -HUP "$MON_PID"
sleep 0.2
for i in 1 2 3 4; do "$bin"; done
sleep 0.2
kill -USR1 "$MON_PID"
sleep 0.2
check "pid file holds the collector's pid" [ "$(cat "$T/rot.pid")" = "$MON_PID" ]
stop_exitmon; rc=$?
check "SIGTERM: exit 0" [ "$rc" -eq 0 ]
check "rotated file has the header and 3 records" \
	[ "$(head -1 "$T/rot.out.1" | cut -d, -f1)" = type -a "$(grep -c ",$TAG," "$T/rot.out.1")" -eq 3 ]
check "new file has its own header and 4 records" \
	[ "$(head -1 "$T/rot.out" | cut -d, -f1)" = type -a "$(grep -c ",$TAG," "$T/rot.out")" -eq 4 ]
check "SIGUSR1 printed a stats line" grep -q "stats:.*matched=7" "$T/rot.err"
check "final line reports loss figures" grep -q "done:.*dropped" "$T/rot.err"
check "pid file removed at exit" [ ! -e "$T/rot.pid" ]
check "summary written" [ "$(kv "$T/rot.sum" matched)" -eq 7 ]

# --count stops by itself after N matching records.
"$EXITMON" --comm "$TAG" --count 5 -f csv -o "$T/cnt.out" --summary "$T/cnt.sum" \
	--pidfile "$T/cnt.pid" 2>"$T/cnt.err" &
cpid=$!
wait_file "$T/cnt.pid"
for i in $(seq 8); do "$bin"; done
for i in $(seq 40); do kill -0 $cpid 2>/dev/null || break; sleep 0.05; done
wait $cpid; rc=$?
check "--count 5: exits 0 by itself" [ "$rc" -eq 0 ]
check "--count 5: wrote exactly 5 records" [ "$(grep -c ",$TAG," "$T/cnt.out")" -eq 5 ]

# --duration stops by itself.
start=$(date +%s%N)
"$EXITMON" --duration 0.5 -o /dev/null 2>/dev/null
el=$(( ($(date +%s%N) - start) / 1000000 ))
check "--duration 0.5 stops in time (${el} ms)" [ $el -ge 400 -a $el -lt 4000 ]

# --stats prints periodic lines to stderr.
"$EXITMON" --duration 1.2 --stats 0.5 -o /dev/null 2>"$T/st.err"
check "--stats 0.5 over 1.2 s: 2 lines" [ "$(grep -c 'stats:' "$T/st.err")" -ge 2 ]
done_testing
