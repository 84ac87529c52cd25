#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Signals and self-stopping: SIGHUP reopens the output (rotation), SIGUSR1
# prints the stats line, SIGTERM stops cleanly, --count and --duration stop;
# under --count every record received is counted once: matched, filtered or
# after_count.
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
	[ "$(head -1 "$T/rot.out.1" | cut -d, -f4)" = type -a "$(grep -c ",$TAG," "$T/rot.out.1")" -eq 3 ]
check "new file has its own header and 4 records" \
	[ "$(head -1 "$T/rot.out" | cut -d, -f4)" = type -a "$(grep -c ",$TAG," "$T/rot.out")" -eq 4 ]
check "SIGUSR1 printed a stats line" grep -q "stats:.*matched=7" "$T/rot.err"
check "final line reports loss figures" grep -q "done:.*dropped" "$T/rot.err"
check "pid file removed at exit" [ ! -e "$T/rot.pid" ]
check "summary written" [ "$(kv "$T/rot.sum" matched)" -eq 7 ]

# SIGHUP onto a file of other columns: refused, said, writing goes on in
# the file opened before.
start_exitmon hup -f csv --comm "$TAG" || nok "collector ready"
"$bin"; sleep 0.2
mv "$T/hup.out" "$T/hup.out.1"
printf 'pid,comm\n1,init\n' > "$T/hup.out"
kill -HUP "$MON_PID"; sleep 0.2
"$bin"; "$bin"; sleep 0.2
stop_exitmon
check "SIGHUP onto other columns: said" grep -q "cannot reopen.*other columns.*still writing" "$T/hup.err"
check "... that file untouched" [ "$(cat "$T/hup.out")" = "$(printf 'pid,comm\n1,init')" ]
check "... all 3 records in the file opened before" [ "$(grep -c ",$TAG," "$T/hup.out.1")" -eq 3 ]

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

# --count with a burst: records = matched + filtered + after_count (each
# record received in exactly one), in the summary and in the metrics.
TAG2=xmcnt$$
"$EXITMON" --comm "$TAG2" --count 100 -f csv -o "$T/burst.out" \
	--summary "$T/burst.sum" --metrics "$T/burst.prom" \
	--pidfile "$T/burst.pid" 2>"$T/burst.err" &
bpid=$!
wait_file "$T/burst.pid"
"$EXITGEN" --tag "$TAG2" --count 1000 -q
for i in $(seq 100); do kill -0 $bpid 2>/dev/null || break; sleep 0.05; done
wait $bpid; rc=$?
s=$T/burst.sum
rec=$(kv "$s" records) ma=$(kv "$s" matched) fi=$(kv "$s" filtered) ac=$(kv "$s" after_count)
diag "records=$rec matched=$ma filtered=$fi after_count=$ac"
check "--count 100 burst: exits 0 by itself" [ "$rc" -eq 0 ]
check "--count 100 burst: matched=100, written=100" \
	[ "$ma" = 100 -a "$(kv "$s" written)" = 100 ]
check "--count 100 burst: 100 records in the file" \
	[ "$(grep -c ",$TAG2," "$T/burst.out")" -eq 100 ]
check "--count 100 burst: records after the count are counted ($ac)" \
	[ "${ac:-0}" -gt 0 ]
check "--count 100 burst: records = matched + filtered + after_count" \
	[ -n "$ac" -a "$rec" -eq $((ma + fi + ${ac:-0})) ]
check "--count 100 burst: the final line says so" \
	grep -q "done: $rec records.*$ma matched, $fi filtered out, $ac after the count" "$T/burst.err"
m() { sed -n "s/^exitmon_$1 //p" "$T/burst.prom"; }
metrics_identity() {
	local p t ma fi ac
	p=$(m 'records_total{type="pid"}') t=$(m 'records_total{type="tgid"}')
	ma=$(m records_matched_total) fi=$(m records_filtered_total)
	ac=$(m records_after_count_total)
	[ -n "$p" ] && [ -n "$t" ] && [ -n "$ma" ] && [ -n "$fi" ] && [ -n "$ac" ] &&
		[ $((p + t)) -eq $((ma + fi + ac)) ] && [ $((p + t)) -eq "$rec" ]
}
check "--count 100 burst: metrics hold the same identity" metrics_identity
if command -v promtool >/dev/null; then
	check "--count 100 burst: promtool check metrics passes" \
		promtool check metrics < "$T/burst.prom"
else
	nok "promtool is missing (tools/deps.sh installs prometheus)"
fi

# --duration stops by itself.
start=$(date +%s%N)
"$EXITMON" --duration 0.5 -o /dev/null 2>/dev/null
el=$(( ($(date +%s%N) - start) / 1000000 ))
check "--duration 0.5 stops in time (${el} ms)" [ $el -ge 400 -a $el -lt 4000 ]

# --stats prints periodic lines to stderr.
"$EXITMON" --duration 1.2 --stats 0.5 -o /dev/null 2>"$T/st.err"
check "--stats 0.5 over 1.2 s: 2 lines" [ "$(grep -c 'stats:' "$T/st.err")" -ge 2 ]
done_testing
