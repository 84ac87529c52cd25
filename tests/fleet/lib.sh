# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet on one machine (make test-fleet): hosts as network namespaces,
# each shipping its exitmon JSON lines with its own rsyslogd (imfile, omrelp
# through a disk-assisted queue) to a hub namespace whose rsyslogd (imrelp,
# mmjsonparse, ompgsql) stores them in a PostgreSQL instance made here;
# node_exporter on each host, Prometheus on the hub.  Sourced by the .t
# files; bash.  Everything started here is started with a time limit, by
# pid, and stopped by pid (or by namespace: only this test's) on any exit.
#
# The configs are the operator snippets of examples/, with only their
# paths, addresses, port and host name substituted (fleet_host_conf,
# fleet_hub_conf): the test proves what the snippets say.

TOP=${EXITMON_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
EXITMON=$TOP/exitmon
EXITGEN=$TOP/exitgen
EX=$TOP/examples
FLEETDIR=$TOP/tests/fleet
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
# Nothing may run longer than the tier: a daemon lives at most this long
# even if every cleanup below failed.
LIFE=${FLEET_LIFE:-600}

T=$(mktemp -d /tmp/exitmon-fleet.XXXXXX)
chmod 755 "$T"
# Names of this test's own namespaces and links: fl<pid><role>.
ID=fl$$
HUB=${ID}hub
NHOSTS=3
# The tag of every task the live host's load makes: exitmon writes only
# those (--comm), so other work on the machine never reaches the store.
TAG=fx$$
_n=0
_fail=0
_pids=""

ok()   { _n=$((_n + 1)); echo "ok $_n - $*"; }
nok()  { _n=$((_n + 1)); _fail=$((_fail + 1)); echo "not ok $_n - $*"; }
diag() { echo "# $*"; }
check() { # check DESCRIPTION COMMAND...
	local d=$1; shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}
done_testing() { echo "1..$_n"; [ "$_fail" -eq 0 ]; exit $?; }
skip_all() { echo "1..0 # SKIP $*"; exit 77; }
kv() { sed -n "s/^$2=//p" "$1"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# bg NAME COMMAND...: run COMMAND in the background, bounded by LIFE,
# output to $T/NAME.log; remembers its pid for cleanup.
bg() {
	local name=$1; shift
	timeout -s TERM -k 5 "$LIFE" "$@" >>"$T/$name.log" 2>&1 &
	_pids="$_pids $!"
	# Not a job of this shell: a test that kills one on purpose
	# (SIGKILL) gets no "Killed" line in its TAP.
	disown $!
}
# ns N: the namespace of host N (1..NHOSTS), or the hub's for "hub".
ns() { [ "$1" = hub ] && echo "$HUB" || echo "${ID}h$1"; }
# addr N: host N's address; hubaddr N: the hub's end of host N's link.
addr() { echo "10.77.$1.2"; }
hubaddr() { echo "10.77.$1.1"; }

# wait_for SECONDS COMMAND...: poll every 0.2 s until COMMAND succeeds.
wait_for() {
	local lim=$1 t0; shift
	t0=$(date +%s)
	until "$@"; do
		[ $(( $(date +%s) - t0 )) -ge "$lim" ] && return 1
		sleep 0.2
	done
}
pid_of() { [ -s "$1" ] && cat "$1"; }
alive() { local p; p=$(pid_of "$1") && kill -0 "$p" 2>/dev/null; }

# ---- the network --------------------------------------------------------
fleet_net() {
	ip netns add "$HUB" || return 1
	ip -n "$HUB" link set lo up
	local n
	for n in $(seq 1 $NHOSTS); do
		ip netns add "$(ns $n)" || return 1
		ip -n "$(ns $n)" link set lo up
		ip link add "${ID}a$n" netns "$HUB" type veth \
			peer name "${ID}b$n" netns "$(ns $n)" || return 1
		ip -n "$HUB" addr add "$(hubaddr $n)/24" dev "${ID}a$n"
		ip -n "$(ns $n)" addr add "$(addr $n)/24" dev "${ID}b$n"
		ip -n "$HUB" link set "${ID}a$n" up
		ip -n "$(ns $n)" link set "${ID}b$n" up
	done
}
# link_cut N down|up: host N's link, cut or restored at the hub's end.
link_cut() { ip -n "$HUB" link set "${ID}a$1" "$2"; }

# ---- PostgreSQL ---------------------------------------------------------
PGDATA=$T/pg/data
PGSOCK=$T/pg/sock
export PGSOCK
# pg_start: in the hub's namespace, listening on its socket only.
pg_start() {
	ip netns exec "$HUB" runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -l "$T/pg/log" -w -t 60 \
		-o "-k $PGSOCK -c listen_addresses= -c fsync=off -c synchronous_commit=off" \
		start >/dev/null
}
pg_stop() { runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >/dev/null; }
fleet_pg() {
	mkdir -p "$T/pg/sock" && chown -R postgres: "$T/pg" || return 1
	runuser -u postgres -- "$PGBIN/initdb" -D "$PGDATA" -U postgres \
		--auth=trust -E UTF8 --locale=C >"$T/pg/initdb.log" 2>&1 || return 1
	pg_start || return 1
	psql -X -q -h "$PGSOCK" -U postgres -d postgres -c "CREATE DATABASE exitmon" &&
		psql -X -q -v ON_ERROR_STOP=1 -h "$PGSOCK" -U postgres -d exitmon \
			-f "$EX/exitmon-schema.sql" >"$T/pg/schema.log" 2>&1
}
# sql QUERY: one query on the store, unaligned, no header.
sql() { psql -X -q -A -t -F ' ' -v ON_ERROR_STOP=1 -h "$PGSOCK" -U postgres -d exitmon -c "$1"; }
# sqlf FILE: a query file, its rows as "a|b|c" lines.
sqlf() { psql -X -q -A -t -v ON_ERROR_STOP=1 -h "$PGSOCK" -U postgres -d exitmon -f "$1"; }

# ---- rsyslog ------------------------------------------------------------
# fleet_host_conf N [SED...]: examples/rsyslog-host.conf for host N (more
# sed expressions for a variant).
fleet_host_conf() {
	local n=$1; shift
	sed -e "s|/var/spool/rsyslog-exitmon|$T/h$n/spool|" \
	    -e "s|/var/log/exitmon/|$T/h$n/log/|g" \
	    -e "s|hub.example.net|$(hubaddr $n)|" \
	    -e "s|localHostname=\"host1\"|localHostname=\"h$n\"|" \
	    "$@" "$EX/rsyslog-host.conf" >"$T/h$n/rsyslog.conf"
}
fleet_hub_conf() {
	sed -e "s|/var/spool/rsyslog-exitmon-hub|$T/hub/spool|" \
	    -e "s|/var/log/exitmon-hub/|$T/hub/log/|g" \
	    -e "s|host=/var/run/postgresql|host=$PGSOCK|" \
	    "$EX/rsyslog-hub.conf" >"$T/hub/rsyslog.conf"
}
# shipper_start N / hub_start: rsyslogd in the namespace, foreground
# (-n), its own config, pid file and work directory; never the machine's
# rsyslog, never /dev/log (no imuxsock is loaded).
shipper_start() {
	local n=$1
	rm -f "$T/h$n/rsyslogd.pid"
	bg "h$n-rsyslogd" ip netns exec "$(ns $n)" rsyslogd -n -f "$T/h$n/rsyslog.conf" \
		-i "$T/h$n/rsyslogd.pid"
	wait_for 20 alive "$T/h$n/rsyslogd.pid"
}
hub_start() {
	rm -f "$T/hub/rsyslogd.pid"
	bg hub-rsyslogd ip netns exec "$HUB" rsyslogd -n -f "$T/hub/rsyslog.conf" \
		-i "$T/hub/rsyslogd.pid"
	wait_for 20 alive "$T/hub/rsyslogd.pid"
}
# stop_pidfile FILE [SIGNAL]: signal the process of FILE, wait until gone.
stop_pidfile() {
	local p
	p=$(pid_of "$1") || return 0
	kill -"${2:-TERM}" "$p" 2>/dev/null
	wait_for 30 bash -c "! kill -0 $p 2>/dev/null"
}

# ---- node_exporter and Prometheus ---------------------------------------
fleet_metrics() {
	local n targets=""
	for n in $(seq 1 $NHOSTS); do
		bg "h$n-node_exporter" ip netns exec "$(ns $n)" prometheus-node-exporter \
			--web.listen-address="$(addr $n):9100" \
			--collector.disable-defaults --collector.textfile \
			--collector.textfile.directory="$T/h$n/metrics"
		targets="$targets'$(addr $n):9100',"
	done
	cat >"$T/hub/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	scrape_configs:
	  - job_name: exitmon
	    static_configs:
	      - targets: [${targets%,}]
	EOF
	bg hub-prometheus ip netns exec "$HUB" prometheus \
		--config.file="$T/hub/prometheus.yml" \
		--storage.tsdb.path="$T/hub/tsdb" \
		--web.listen-address=127.0.0.1:9090
}
# promql QUERY: the result vector of an instant query, one
# "instance run value" line per sample (run empty where there is none).
promql() {
	ip netns exec "$HUB" curl -s --noproxy '*' -m 5 \
		http://127.0.0.1:9090/api/v1/query --data-urlencode "query=$1" |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["data"]["result"]:
    m = r["metric"]
    print(m.get("instance", "-"), m.get("run", "-"), r["value"][1])'
}

# ---- exitmon ------------------------------------------------------------
# The live host is host 1: exitmon in the initial namespaces (taskstats
# answers only there), its file shared with host 1's shipper.
LIVE=1
live_k=0
# live_start: a new run of the live collector, summary in sum/NNN.
live_start() {
	live_k=$((live_k + 1))
	rm -f "$T/h1/exitmon.pid"
	bg h1-exitmon "$EXITMON" -f jsonl -o "$T/h1/log/exits.jsonl" \
		--comm "$TAG*" --stats 1 --metrics "$T/h1/metrics/exitmon.prom" \
		--summary "$T/h1/sum/$(printf %03d $live_k)" --pidfile "$T/h1/exitmon.pid"
	wait_for 20 alive "$T/h1/exitmon.pid"
}
live_stop() { stop_pidfile "$T/h1/exitmon.pid" "${1:-TERM}"; }
# load_start: exits at a modest rate, tagged: most exit 0, a few exit by
# SIGKILL (the outcome query sees both).  The load runs until load_stop.
load_start() {
	bg load-ok "$EXITGEN" --shape process --rate 150 --duration "$LIFE" --tag "${TAG}ok" -q
	echo $! >"$T/load-ok.pid"
	bg load-sig "$EXITGEN" --shape process --exit-by signal --rate 10 --duration "$LIFE" \
		--tag "${TAG}sig" -q
	echo $! >"$T/load-sig.pid"
}
load_stop() {
	stop_pidfile "$T/load-ok.pid"
	stop_pidfile "$T/load-sig.pid"
}

# replay_loop N FIELDS...: host N replays the real captures, one after the
# other, each a run of its own, into its JSON lines file, until
# $T/h$N/stop exists (or $T/h$N/pause, which it waits out).  Summaries in
# sum/NNNNN.
replay_loop() {
	local n=$1 i=0 caps cap; shift
	caps=("$TOP"/tests/data/real-*.pcap)
	while [ ! -e "$T/h$n/stop" ]; do
		if [ -e "$T/h$n/pause" ]; then touch "$T/h$n/paused"; sleep 0.1; continue; fi
		rm -f "$T/h$n/paused"
		i=$((i + 1))
		cap=${caps[$((i % ${#caps[@]}))]}
		"$EXITMON" --replay "$cap" -f jsonl "$@" -o "$T/h$n/log/exits.jsonl" \
			--summary "$T/h$n/sum/$(printf %05d $i)" \
			--metrics "$T/h$n/metrics/exitmon.prom" 2>>"$T/h$n/replay.err" ||
			echo "replay $i of $cap failed: $?" >>"$T/h$n/replay.err"
		sleep 0.3
	done
}
replay_start() {
	local n=$1; shift
	rm -f "$T/h$n/stop"
	bg "h$n-replay" bash -c "$(declare -f replay_loop); TOP=$TOP T=$T EXITMON=$EXITMON replay_loop $n $*"
}
replay_pause() { touch "$T/h$1/pause"; wait_for 30 test -e "$T/h$1/paused"; }
replay_resume() { rm -f "$T/h$1/pause"; }

# runs_match N [SECONDS]: every run of host N whose summary exists matches
# the store (fleetcheck.py runs): count(distinct seq) = written and
# max(seq) = written + unwritten.  Waits up to SECONDS for the store to
# catch up; says which runs differ when it does not.
runs_match() {
	local n=$1 lim=${2:-60}
	wait_for "$lim" python3 "$FLEETDIR/fleetcheck.py" runs "$T/h$n/sum" h$n \
		>"$T/h$n/runs.out" 2>&1
	local rc=$?
	if [ $rc -ne 0 ]; then sed 's/^/# /' "$T/h$n/runs.out" | head -20; fi
	[ $rc -eq 0 ] && diag "h$n: $(tail -n1 "$T/h$n/runs.out")"
	return $rc
}

# ---- setup and cleanup --------------------------------------------------
# watchdog SECONDS: TERM this test after SECONDS.  Its sleep writes to no
# pipe of ours (a sleep holding prove's pipe would hold prove).
watchdog() {
	bash -c "sleep $1; echo '# fleet: watchdog: $1 s passed' >>$T/watchdog.log; kill -TERM $$" \
		</dev/null >/dev/null 2>&1 &
	_watchdog=$!
	disown $!
}
fleet_cleanup() {
	local p n
	set +e
	trap '' TERM INT    # no second signal stops the cleanup half way
	# The watchdog first, then its sleep (the other way round it would
	# go on to its kill).
	if [ -n "${_watchdog:-}" ]; then
		p=$(pgrep -P "$_watchdog")
		kill -KILL "$_watchdog"
		[ -n "$p" ] && kill $p
	fi 2>/dev/null
	touch "$T"/h*/stop 2>/dev/null
	for p in $(cat "$T"/h1/exitmon.pid "$T"/load-*.pid 2>/dev/null); do kill "$p" 2>/dev/null; done
	for p in $_pids; do kill "$p" 2>/dev/null; done
	for p in $_pids; do wait_for 15 bash -c "! kill -0 $p 2>/dev/null"; done
	[ -d "$PGDATA" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate \
		-w -t 20 stop >/dev/null 2>&1
	for n in $(seq 1 $NHOSTS) hub; do
		for p in $(ip netns pids "$(ns $n)" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	done
	wait 2>/dev/null
	for n in $(seq 1 $NHOSTS) hub; do ip netns del "$(ns $n)" 2>/dev/null; done
	if [ -n "${FLEET_KEEP:-}" ]; then echo "# kept $T" >&2; else rm -rf "$T"; fi
}

fleet_need() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root (namespaces, taskstats)"
	[ -x "$EXITMON" ] && [ -x "$EXITGEN" ] || { echo "Bail out! exitmon, exitgen not built"; exit 1; }
	local c
	for c in rsyslogd prometheus prometheus-node-exporter logrotate psql curl "$PGBIN/initdb"; do
		command -v "$c" >/dev/null || { echo "Bail out! $c missing: tools/deps.sh fleet"; exit 1; }
	done
	local m
	for m in imfile omrelp imrelp ompgsql mmjsonparse impstats; do
		[ -e "/usr/lib/x86_64-linux-gnu/rsyslog/$m.so" ] || [ -n "$(find /usr/lib -name "$m.so" -path '*rsyslog*' 2>/dev/null | head -n1)" ] ||
			{ echo "Bail out! rsyslog module $m missing: tools/deps.sh fleet"; exit 1; }
	done
}

# fleet_up: network, PostgreSQL, the hub, the hosts' shippers, metrics.
fleet_up() {
	local n
	mkdir -p "$T/hub/spool" "$T/hub/log" "$T/hub/tsdb" || return 1
	for n in $(seq 1 $NHOSTS); do
		mkdir -p "$T/h$n/spool" "$T/h$n/log" "$T/h$n/sum" "$T/h$n/metrics" || return 1
		: >"$T/h$n/log/exits.jsonl"
	done
	fleet_net || { diag "network namespaces failed"; return 1; }
	fleet_pg || { diag "PostgreSQL failed"; cat "$T/pg/initdb.log" "$T/pg/log" "$T/pg/schema.log" 2>/dev/null | sed 's/^/# /' | tail -20; return 1; }
	fleet_hub_conf
	hub_start || { diag "hub rsyslogd failed"; sed 's/^/# /' "$T/hub-rsyslogd.log"; return 1; }
	for n in $(seq 1 $NHOSTS); do
		fleet_host_conf "$n"
		shipper_start "$n" || { diag "h$n rsyslogd failed"; sed 's/^/# /' "$T/h$n-rsyslogd.log"; return 1; }
	done
	fleet_metrics
}
