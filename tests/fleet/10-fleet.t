#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet on one machine (issue 33, parts 4 and 5): three hosts and a hub
# as network namespaces, exitmon's JSON lines shipped by rsyslog over RELP
# into PostgreSQL, node_exporter and Prometheus; every case checked per
# run against exitmon's own summary, with SQL.  Host 1 is the live
# collector (exitmon in the initial namespaces, its shipper and
# node_exporter in host 1's), hosts 2 and 3 replay the real captures in a
# loop, so their counts are exact.  See tests/fleet/lib.sh, examples/.
. "$(dirname "$0")/lib.sh"
export PGTZ=UTC

fleet_need
START=$(now)
trap fleet_cleanup EXIT
# A signal (the watchdog's TERM, ^C) leaves through the EXIT trap too.
trap 'exit 143' TERM
trap 'exit 130' INT
# A watchdog for the whole file: the tier must end.
# (its output closed: a sleep holding prove's pipe would hold prove.)
watchdog "$LIFE"

if fleet_up; then ok "the fleet is up: hub, $NHOSTS hosts, PostgreSQL, rsyslog, node_exporter, Prometheus ($(elapsed "$START") s)"
else nok "the fleet is up"; done_testing; fi

# ---- 1. steady load ------------------------------------------------------
# Live: one run under load, stopped; replays: runs of the real captures.
live_start || nok "the live collector starts"
load_start
replay_start 2
replay_start 3 --fields run,seq,time_ns,type,pid,tgid,comm,uid,exitcode,utime_us,stime_us
sleep 15
live_stop
check "1 steady: live host, every run: count(distinct seq) = written, max(seq) = written + unwritten" runs_match 1 60
check "1 steady: replay host 2 (every field), every run matches its summary" runs_match 2 60
check "1 steady: replay host 3 (a --fields subset), every run matches its summary" runs_match 3 60
check "1 steady: no line was rejected or invalid at the hub" \
	test "$(sql 'SELECT count(*) FROM exits_rejected')" = 0 -a ! -s "$T/hub/log/invalid.log"


# Hazards on different hosts at the same time keep the tier short; each
# host's runs are checked against its own summaries.

# ---- 2, 4, 5: rotation under load (host 1), shipper SIGKILLed and its
# file read again (host 2), host 3's link cut for 30 s -------------------
logrotate_conf() { # the package's snippet, for host 1's files, HUP by exitmon's pid file
	sed -e "s|/var/log/exitmon/|$T/h1/log/|g" \
	    -e "s|systemctl kill .*|kill -HUP \$(cat $T/h1/exitmon.pid)|" \
	    "$TOP/systemd/exitmon.logrotate" >"$T/h1/logrotate.conf"
}
rotate() { logrotate -f -s "$T/h1/logrotate.state" "$T/h1/logrotate.conf" 2>>"$T/h1/logrotate.err"; }
logrotate_conf
live_start || nok "the live collector starts again"
PHASE=$(now)
# 5: the link cut, for 30 s, while host 3 goes on writing.
link_cut 3 down
# 4: host 2's shipper killed, its imfile state deleted (the file is read
# again from its start: every line already sent is sent again).
sleep 2
dup0=$(sql "SELECT coalesce(sum(duplicates), 0) FROM exits_duplicates WHERE host = 'h2'")
stop_pidfile "$T/h2/rsyslogd.pid" KILL
rm -f "$T"/h2/spool/imfile-state*
shipper_start 2 || nok "host 2's shipper starts again"
# 2: three rotations under load, a few seconds apart.
rot_ok=0
for i in 1 2 3; do sleep 4; rotate && rot_ok=$((rot_ok + 1)); done
check "2 rotation: logrotate -f ran three times under load" test "$rot_ok" = 3
sleep $((30 - 14))
link_cut 3 up
live_stop
check "2 rotation: the live host's run across three rotations, every record stored once, no gap" runs_match 1 90
check "2 rotation: the run's records are in four files (exits.jsonl, .1, .2.gz, .3.gz)" \
	test -e "$T/h1/log/exits.jsonl.3.gz" -a -e "$T/h1/log/exits.jsonl.1"
check "4 shipper SIGKILLed, state deleted: host 2's runs match their summaries" runs_match 2 90
dup1=$(sql "SELECT coalesce(sum(duplicates), 0) FROM exits_duplicates WHERE host = 'h2'")
diag "h2: $((dup1 - dup0)) duplicates arrived after the re-read"
check "4 the re-read sent duplicates ($((dup1 - dup0))), and none is stored twice" \
	test "$((dup1 - dup0))" -gt 0 -a "$(sql "SELECT count(*) FROM (SELECT run, seq FROM exits GROUP BY 1, 2 HAVING count(*) > 1) d")" = 0
check "5 link cut for 30 s: host 3's queue drained, every run matches its summary" runs_match 3 150
check "5 exitmon's dropped and unwritten stayed 0 on every run of every host" \
	test -z "$(grep -lE '^(dropped|unwritten)=[1-9]' "$T"/h*/sum/*)"
diag "phase 2/4/5: $(elapsed "$PHASE") s"

# ---- 3, 6: exitmon restarted and SIGKILLed mid-write (host 1);
# PostgreSQL stopped for 30 s -------------------------------------------
PHASE=$(now)
pg_stop
pg_down=$(now)
live_start || nok "the live collector starts (run C)"
sleep 3
live_stop KILL
killed_run=$(tail -n1 "$T/h1/log/exits.jsonl" | sed -n 's/^{"run":"\([0-9a-f]*\)".*/\1/p')
# A record cut by the kill: exitmon writes whole lines in one write, so a
# SIGKILL seldom cuts one; the line a crash (or a full disk) would leave is
# put there as it would be, the start of the next record of the run.
if [ -n "$(tail -c1 "$T/h1/log/exits.jsonl")" ]; then
	diag "the SIGKILL cut a line itself"
	cut_seq=none
else
	last=$(tail -n1 "$T/h1/log/exits.jsonl" | sed -n 's/.*"seq":\([0-9]*\),.*/\1/p')
	cut_seq=$((last + 1))
	printf '{"run":"%s","seq":%d,"time_ns":1,"type":"pid","pid":1,"comm":"cu' \
		"$killed_run" "$cut_seq" >>"$T/h1/log/exits.jsonl"
fi
python3 "$FLEETDIR/fleetcheck.py" filerows "$T"/h1/log/exits.jsonl* --run "$killed_run" >"$T/h1/killed.rows"
live_start || nok "the live collector starts after the SIGKILL (run D)"
new_run=$(sed -n 's/^{"run":"\([0-9a-f]*\)".*/\1/p' "$T/h1/log/exits.jsonl" | tail -n1)
check "3 the start after the kill ended the cut line with a newline, and begins a new line" \
	python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
frag = b"\"seq\":%s,\"time_ns\":1,\"type\":\"pid\",\"pid\":1,\"comm\":\"cu\n" % sys.argv[2].encode()
sys.exit(0 if sys.argv[2] == "none" or frag in data else 1)' "$T/h1/log/exits.jsonl" "$cut_seq"
sleep $((30 - 3))
pg_start || nok "PostgreSQL starts again"
diag "PostgreSQL was down $(elapsed "$pg_down") s"
read -r _r krows kmax _inv <"$T/h1/killed.rows"
kill_ok() {
	[ "$(sql "SELECT count(DISTINCT seq) || ' ' || max(seq) || ' ' || min(seq) FROM exits WHERE run = '$killed_run'")" = "$krows $kmax 1" ]
}
check "3 the SIGKILLed run ($krows records in the file): each stored once, 1 to $kmax, nothing after" wait_for 90 kill_ok
check "3 the cut line reached the hub and was dropped there as invalid, counted once" \
	wait_for 30 bash -c "[ \$(grep -c '^h1 .*\"seq\":$cut_seq,\"time_ns\":1,' $T/hub/log/invalid.log 2>/dev/null) = 1 ] || [ $cut_seq = none ]"
check "3 no row of the cut record" test "$(sql "SELECT count(*) FROM exits WHERE run = '$killed_run' AND seq > $kmax")" = 0
check "3 the new run starts at seq 1" wait_for 30 \
	bash -c "[ \"\$(psql -X -A -t -h $PGSOCK -U postgres -d exitmon -c \"SELECT min(seq) FROM exits WHERE run = '$new_run'\")\" = 1 ]"
check "6 PostgreSQL stopped for 30 s: host 2's runs all stored after" runs_match 2 120
check "6 PostgreSQL stopped for 30 s: host 3's runs all stored after" runs_match 3 120
check "3, 6 no line rejected by the store's function (the gate is the hub's)" \
	test "$(sql 'SELECT count(*) FROM exits_rejected')" = 0
diag "phase 3/6: $(elapsed "$PHASE") s"

# ---- 8: host 1's shipper down across a rotation; 9: host 3's disk
# queue full -----------------------------------------------------------
PHASE=$(now)
# 8b, the hazard itself, on host 2: its shipper without the second input
# (the snippet less the exits.jsonl.1 input), down while its file is
# renamed.
stop_pidfile "$T/h2/rsyslogd.pid" TERM
fleet_host_conf 2 -e '/exits.jsonl.1" tag/,/persistStateInterval/d'
shipper_start 2 || nok "host 2's shipper starts without the second input"
check "8b the variant has one imfile input" test "$(grep -c 'type="imfile" file' "$T/h2/rsyslog.conf")" = 1
stop_pidfile "$T/h1/rsyslogd.pid" TERM
stop_pidfile "$T/h2/rsyslogd.pid" TERM
sleep 3
rotate || nok "the rotation with the shipper down"
replay_pause 2
mv "$T/h2/log/exits.jsonl" "$T/h2/log/exits.jsonl.1"
replay_resume 2
sleep 3
shipper_start 1 || nok "host 1's shipper starts again"
shipper_start 2 || nok "host 2's shipper starts again, without the second input"
# 9: host 3's shipper with a small queue (the snippet's limits cut down),
# its link cut, host 3 writing on.
replay_pause 3
runs_match 3 60 >/dev/null
stop_pidfile "$T/h3/rsyslogd.pid" TERM
fleet_host_conf 3 -e 's|queue.size="20000"|queue.size="200"|' \
	-e 's|queue.maxDiskSpace="1g"|queue.maxDiskSpace="256k"|' \
	-e 's|queue.maxFileSize="16m"|queue.maxFileSize="64k"|' \
	-e 's|queue.timeoutEnqueue="2000"|queue.timeoutEnqueue="200"|'
: >"$T/h3/log/rsyslog-stats.json"
shipper_start 3 || nok "host 3's shipper starts with the small queue"
link_cut 3 down
replay_resume 3
sleep 10
replay_pause 3
link_cut 3 up
live_stop
check "8 shipper down across a rotation (second input on exits.jsonl.1): nothing lost, every run matches" runs_match 1 90
sleep 12   # impstats writes every 10 s
lost_ok() {
	python3 "$FLEETDIR/fleetcheck.py" runs "$T/h3/sum" h3 --lossy >"$T/h3/lossy.out"
	missing=$(sed -n 's/^missing //p' "$T/h3/lossy.out")
	read -r discarded held < <(python3 -c '
import json, sys
last = {}
for line in open(sys.argv[1]):
    try:
        j = json.loads(line[line.index("{"):])
    except ValueError:
        continue
    if j.get("origin") == "core.queue" and j.get("name", "").startswith("exitmon-ship"):
        last[j["name"]] = j
print(sum(j.get("discarded.full", 0) + j.get("discarded.nf", 0) for j in last.values()),
      last.get("exitmon-ship queue[DA]", {}).get("size", 0))' "$T/h3/log/rsyslog-stats.json")
	[ "$missing" -gt 0 ] && [ "$missing" -le $((discarded + held)) ]
}
# Every record missing is one rsyslog counted: discarded (discarded.full;
# seen to count one more than went missing, 719 for 718), or still held
# in the queue's disk part ([DA] size: rsyslog 8.2302 leaves what went to
# disk there until the memory part reaches its high watermark again, its
# issue 2646, fixed upstream in 2026), so not "=".
check "9 queue full: records lost (against the summaries) > 0, each counted by rsyslog's impstats (discarded, or held on disk)" wait_for 60 lost_ok
diag "h3: missing $missing, impstats discarded $discarded, held in the disk queue $held"
grep '^run' "$T/h3/lossy.out" | head -3 | sed 's/^/# /'
check "9 queue full: the loss shows as gaps of the runs (examples/fleet-lost-records.sql lists host 3)" \
	bash -c "psql -X -q -A -t -h $PGSOCK -U postgres -d exitmon -f $EX/fleet-lost-records.sql | grep -q '|h3|'"
diag "h3: $(sql "SELECT coalesce(sum(duplicates), 0) FROM exits_duplicates WHERE host = 'h3'") duplicates in all"
# 8b: without the second input, the lines written to host 2's file while
# its shipper was down went with the rename: missing against the
# summaries (a gap or a run absent), not silent.  The whole snippet, with
# the second input, then reads exits.jsonl.1 and they arrive.
replay_pause 2
lost8() {
	python3 "$FLEETDIR/fleetcheck.py" runs "$T/h2/sum" h2 --lossy >"$T/h2/lossy.out"
	m8=$(sed -n 's/^missing //p' "$T/h2/lossy.out")
	[ "$m8" -gt 0 ]
}
sleep 5
check "8b shipper down across a rotation, one input: records missing against the summaries" lost8
diag "h2, one input: $m8 records missing; $(grep -c '^run' "$T/h2/lossy.out") runs short"
stop_pidfile "$T/h2/rsyslogd.pid" TERM
fleet_host_conf 2
shipper_start 2 || nok "host 2's shipper starts with the whole snippet"
check "8b the snippet's second input on exits.jsonl.1 reads them: every run of host 2 matches again" runs_match 2 90
replay_resume 2
diag "phase 8/9: $(elapsed "$PHASE") s"

# ---- 10: schema edges: u64 maxima, comm bytes >= 0x80, a --fields subset
replay_pause 2
python3 "$FLEETDIR/mkedge.py" "$T/edge.pcap"
"$EXITMON" --replay "$T/edge.pcap" -f jsonl -o "$T/h2/log/exits.jsonl" \
	--summary "$T/h2/sum/99999-edge" 2>>"$T/h2/replay.err"
edge_run=$(kv "$T/h2/sum/99999-edge" run)
check "10 edges: the crafted run matches its summary" runs_match 2 60
check "10 edges: every u64 column of the maximum record is 18446744073709551615 in the store, exactly" \
	test "$(sql "SELECT count(*) FROM exits, jsonb_each(line) kv WHERE run = '$edge_run' AND seq = 1 AND kv.value = '18446744073709551615'::jsonb")" -ge 50
check "10 edges: sums of u64 maxima are exact (numeric)" \
	test "$(sql "SELECT sum((line->>'read_bytes')::numeric) FROM exits WHERE run = '$edge_run' AND seq = 1")" = 18446744073709551615
check "10 edges: comm bytes >= 0x80, quotes and a backslash stored as sent" \
	test "$(sql "SELECT string_agg(encode(convert_to(line->>'comm', 'LATIN1'), 'hex'), ',' ORDER BY seq) FROM exits WHERE run = '$edge_run'")" = \
	"$(printf '\x80\xff\xe9fleet' | od -An -tx1 | tr -d ' \n'),$(printf 'edge'"'"'q"\\\x9f\xa0' | od -An -tx1 | tr -d ' \n')"
check "10 edges: host 3's rows hold exactly its --fields subset" \
	test "$(sql "SELECT DISTINCT string_agg(k, ',' ORDER BY k) FROM exits, jsonb_object_keys(line) k WHERE host = 'h3' GROUP BY run, seq")" = \
	"comm,exitcode,pid,run,seq,stime_us,tgid,time_ns,type,uid,utime_us"

# ---- everything stops; 7 and the fleet queries -------------------------
touch "$T/h2/stop" "$T/h3/stop"
load_stop
wait_for 30 bash -c "[ ! -e $T/h2/paused ] || [ -e $T/h2/stop ]"
sleep 1
end_ok() { runs_match 1 60 && runs_match 2 60; }
check "hosts 1 and 2: every run matches its summary at the end" end_ok

# 7: the written totals in Prometheus, per run (exitmon_run_info names
# the run), against the summaries and the rows in PostgreSQL.  Host 1:
# every run, and their sum.  Hosts 2 and 3 replay a run every 0.3 s or
# so, faster than a scrape a second: every run Prometheus saw.
prom_ok() {
	promql 'max_over_time((exitmon_records_written_total * on(instance) group_left(run) exitmon_run_info)[15m:1s])' \
		>"$T/prom.out" || return 1
	python3 "$FLEETDIR/fleetcheck.py" prom "$T/prom.out" "$1" "$T/h$1/sum" "${@:2}" >"$T/prom$1.txt"
}
for n in 1 2 3; do
	case $n in 1) a=--every;; 2) a=;; 3) a="--lossy $T/h3/lossy.out";; esac
	check "7 metrics, host $n: per run, exitmon_records_written_total in Prometheus = the summary's written = the rows in PostgreSQL${a:+ ($a)}" \
		wait_for 30 prom_ok $n $a
	sed 's/^/# /' "$T/prom$n.txt" | tail -n 5
done

# The fleet queries of examples/, each against the same answer computed
# here from the hosts' files (only the records the store holds).
sql "SELECT host, run, seq FROM exits" >"$T/keys"
files=$(ls "$T"/h*/log/exits.jsonl*)
check "query: top commands by CPU across hosts (examples/fleet-top-cpu.sql)" \
	cmp -s <(sqlf "$EX/fleet-top-cpu.sql") <(python3 "$FLEETDIR/fleetcheck.py" expect-top-cpu "$T/keys" $files)
check "query: exits by outcome per host per hour (examples/fleet-exit-outcomes.sql)" \
	cmp -s <(sqlf "$EX/fleet-exit-outcomes.sql") <(python3 "$FLEETDIR/fleetcheck.py" expect-outcomes "$T/keys" $files)
outcomes_ok() { local o; o=$(sqlf "$EX/fleet-exit-outcomes.sql"); grep -q '|signal 9|' <<<"$o" && grep -q '|exit 0|' <<<"$o"; }
check "query: the outcomes include signal 9 (the SIGKILLed load) and exit 0" outcomes_ok
check "query: lost records per run (examples/fleet-lost-records.sql), the gaps of case 9 among them" \
	cmp -s <(sqlf "$EX/fleet-lost-records.sql") <(python3 "$FLEETDIR/fleetcheck.py" expect-gaps "$T/keys")
diag "lost records: $(sqlf "$EX/fleet-lost-records.sql" | wc -l) runs with gaps"

diag "fleet: $(elapsed "$START") s"
done_testing
