#!/bin/bash
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

diag "fleet: $(elapsed "$START") s"
done_testing
