#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The collector as a service: least privilege however it is started, the
# unit file checks out, readiness goes to systemd, metrics parse.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmsvc$$
bin=$(tagbin "$TAG")
mkdir -m 1777 "$T/pub"

# status_of PID: the capability lines of /proc/PID/status, one string
status_of() {
	awk '/^(Uid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):/ {
		$1 = $1; printf "%s;", $0 }' "/proc/$1/status"
}

# run_as NAME CMD...: start a collector through CMD, wait for readiness,
# make tagged exits, sample its status, stop it.
run_as() {
	name=$1; shift
	"$@" --pidfile "$T/pub/$name.pid" --summary "$T/pub/$name.sum" -f csv \
		-o "$T/pub/$name.out" --comm "$TAG" 2>"$T/$name.err" &
	p=$!
	if ! wait_file "$T/pub/$name.pid" 10; then
		sed 's/^/# /' "$T/$name.err"; kill $p 2>/dev/null; return 1
	fi
	for i in 1 2 3; do "$bin"; done
	sleep 0.2
	STATUS=$(status_of "$(cat "$T/pub/$name.pid")")
	kill -TERM $p; wait $p
}

least="CapInh: 0000000000000000;CapPrm: 0000000000001000;CapEff: 0000000000000000;"
has() { case "$STATUS" in *"$1"*) return 0;; esac; diag "status: $STATUS"; return 1; }

# 1. Exactly as the unit runs it: an unprivileged user holding only an
#    ambient CAP_NET_ADMIN, bounding set cut, no-new-privs.
run_as unit setpriv --reuid=nobody --regid=nogroup --clear-groups \
	--inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin \
	--bounding-set=-all,+net_admin --no-new-privs "$EXITMON"
check "as the unit: records the exits" [ "$(kv "$T/pub/unit.sum" matched)" -eq 3 ]
check "as the unit: CAP_NET_ADMIN permitted only, no inheritable" has "$least"
check "as the unit: no ambient capability left" has "CapAmb: 0000000000000000"
check "as the unit: no-new-privs" has "NoNewPrivs: 1"

# 2. Root with --user: ids switched, groups cleared, bounding set cut.
run_as user "$EXITMON" --user nobody
check "root --user nobody: records the exits" [ "$(kv "$T/pub/user.sum" matched)" -eq 3 ]
check "root --user nobody: runs as nobody" has "Uid: 65534 65534 65534 65534"
check "root --user nobody: no supplementary groups" has "Groups:;"
check "root --user nobody: least capabilities" has "$least"
check "root --user nobody: bounding set CAP_NET_ADMIN" has "CapBnd: 0000000000001000"
check "root --user nobody: no-new-privs" has "NoNewPrivs: 1"

# 3. Root without --user: stays root but keeps nothing else.
run_as root "$EXITMON"
check "root: least capabilities" has "$least"
check "root: bounding set CAP_NET_ADMIN" has "CapBnd: 0000000000001000"
check "root: no ambient" has "CapAmb: 0000000000000000"

# 4. A file capability (setcap cap_net_admin+ep) for an ordinary user.
cp "$EXITMON" "$T/pub/exitmon-fcap"
setcap cap_net_admin+ep "$T/pub/exitmon-fcap"
run_as fcap setpriv --reuid=nobody --regid=nogroup --clear-groups "$T/pub/exitmon-fcap"
check "file capability: records the exits" [ "$(kv "$T/pub/fcap.sum" matched)" -eq 3 ]
check "file capability: least capabilities" has "$least"
check "file capability: no-new-privs" has "NoNewPrivs: 1"

# 5. Readiness reaches systemd's notify socket, after registration.
python3 - "$T/notify.sock" > "$T/notify.got" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); s.settimeout(15)
try:
    while True:
        m = s.recv(4096).decode()
        print(m, flush=True)
        if "STOPPING=1" in m: break
except socket.timeout:
    pass
PY
npy=$!
for i in $(seq 50); do [ -S "$T/notify.sock" ] && break; sleep 0.05; done
NOTIFY_SOCKET=$T/notify.sock "$EXITMON" --duration 1 -o /dev/null 2>/dev/null
wait $npy
check "READY=1 sent to NOTIFY_SOCKET" grep -qx "READY=1" "$T/notify.got"
check "STOPPING=1 sent at stop" grep -qx "STOPPING=1" "$T/notify.got"

# 6. Metrics: Prometheus text that promtool accepts.
"$EXITMON" --duration 1.2 --stats 0.5 --metrics "$T/m.prom" -o /dev/null 2>/dev/null
check "metrics file written" [ -s "$T/m.prom" ]
if command -v promtool >/dev/null; then
	promtool check metrics < "$T/m.prom" > "$T/promtool.out" 2>&1; rc=$?
	check "promtool check metrics passes" [ "$rc" -eq 0 -a ! -s "$T/promtool.out" ]
else
	nok "promtool is missing (tools/deps.sh installs prometheus)"
fi
for m in 'exitmon_records_total{type="pid"}' 'exitmon_records_total{type="tgid"}' \
	exitmon_records_dropped_total exitmon_enobufs_episodes_total \
	exitmon_messages_truncated_total exitmon_messages_malformed_total \
	exitmon_records_implausible_total \
	exitmon_record_rate exitmon_receive_queue_fill_ratio; do
	check "metric $m" grep -qF "$m " "$T/m.prom"
done

# 7. The unit file: systemd-analyze verify and the security rating.
sed "s|/usr/local/sbin/exitmon|$EXITMON|" "$TOP/systemd/exitmon.service" > "$T/exitmon.service"
mkdir -p "$T/man/man8" && cp "$TOP/man/exitmon.8" "$T/man/man8/"
MANPATH=$T/man systemd-analyze verify "$T/exitmon.service" > "$T/verify.out" 2>&1; rc=$?
check "systemd-analyze verify passes" [ "$rc" -eq 0 ]
sed 's/^/# /' "$T/verify.out"
score=$(systemd-analyze security --offline=yes "$T/exitmon.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
diag "systemd-analyze security: exposure $score"
check "exposure level below 2.0 ($score)" awk -v s="$score" 'BEGIN { exit !(s != "" && s < 2.0) }'

# 8. make install puts everything in place.
make -s -C "$TOP" install DESTDIR="$T/root" PREFIX=/usr >/dev/null 2>&1
for f in usr/sbin/exitmon usr/share/man/man8/exitmon.8 \
	usr/lib/systemd/system/exitmon.service etc/logrotate.d/exitmon; do
	check "installed $f" [ -e "$T/root/$f" ]
done
check "installed unit runs the installed binary" \
	grep -q "^ExecStart=/usr/sbin/exitmon" "$T/root/usr/lib/systemd/system/exitmon.service"

# 9. The logrotate snippet parses.
if command -v logrotate >/dev/null; then
	logrotate -d -s "$T/lr.state" "$TOP/systemd/exitmon.logrotate" > "$T/lr.out" 2>&1; rc=$?
	check "logrotate accepts the snippet" [ "$rc" -eq 0 ]
else
	nok "logrotate is missing (tools/deps.sh installs it)"
fi
done_testing
