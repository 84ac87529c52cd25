#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The shipped unit can start: exitmon runs under the unit's own system call
# filter (derived from its SystemCallFilter= lines by unit_sandbox.py) with
# the unit's privilege set, and every system call a full run makes (capture,
# metrics, shards, SIGHUP, stats) is in the unit's allow list.
#
# Not reproduced here: systemd itself (PID 1 on this machine is not
# systemd, so systemd-run cannot start a transient unit), hence not
# DynamicUser=, ProtectSystem=, PrivateTmp= and the other mount and
# namespace settings.  The filter, RestrictAddressFamilies=, the users,
# capabilities, no-new-privs and the umask are.
. "$(dirname "$0")/lib.sh"
need_taskstats

bin=$(public_bin)
cp "$TOP/tests/e2e/unit_sandbox.py" "$bin/" && chmod 644 "$bin/unit_sandbox.py"
unit=$T/exitmon.service
cp "$TOP/systemd/exitmon.service" "$unit" && chmod 644 "$unit"
TAG=xmsbx$$
tagged=$(tagbin "$TAG")

# The unit's privilege set, read from the unit so the two cannot drift.
check "unit: ambient CAP_NET_ADMIN" grep -qx "AmbientCapabilities=CAP_NET_ADMIN" "$unit"
check "unit: bounding set CAP_NET_ADMIN" grep -qx "CapabilityBoundingSet=CAP_NET_ADMIN" "$unit"
check "unit: no-new-privs" grep -qx "NoNewPrivileges=yes" "$unit"
umask_unit=$(sed -n 's/^UMask=//p' "$unit")
# as_unit CMD...: exec CMD as the unit would (call it with & or in ( ), so
# that $! is the program itself).
as_unit() {
	umask "$umask_unit"
	exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin \
		--bounding-set=-all,+net_admin --no-new-privs "$@"
}

# The unit's ExecStart=, its directories moved under $T (LogsDirectory=
# 0700 and RuntimeDirectory= 0755, owned by the service's user).
mkdir -m 700 "$T/logs" && mkdir -m 755 "$T/run"
chown nobody:nogroup "$T/logs" "$T/run"
exec_start() {
	sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' "$unit" |
		sed -n 's/^ExecStart=//p' |
		sed -e "s|/usr/local/sbin/exitmon|$bin/exitmon|" \
		    -e "s|/var/log/exitmon|$T/logs|g" -e "s|/run/exitmon|$T/run|g"
}
read -r -a cmd <<< "$(exec_start)"
check "ExecStart= found" [ "${#cmd[@]}" -gt 3 ]
extra=(--stats 0.3 --shards 2 --capture "$T/logs/cap.pcap"
	--pidfile "$T/run/exitmon.pid" --comm "$TAG")

allowed=$T/allowed
python3 "$TOP/tests/e2e/unit_sandbox.py" allowed "$unit" > "$allowed"
check "the allow list is derived ($(wc -l < "$allowed") calls)" [ -s "$allowed" ]

# 1. Under the filter: starts, becomes ready, records, reopens, stops.
as_unit /usr/bin/python3 "$bin/unit_sandbox.py" exec "$unit" "${cmd[@]}" \
	"${extra[@]}" 2> "$T/sandbox.err" &
p=$!; _pids="$_pids $p"
if wait_file "$T/run/exitmon.pid" 10; then
	ok "under the unit's filter and privileges: ready"
else
	nok "under the unit's filter and privileges: ready"
	sed 's/^/# /' "$T/sandbox.err"
fi
for i in 1 2 3; do "$tagged"; done
sleep 0.4
kill -HUP $p; kill -USR1 $p
sleep 0.4
"$tagged"
sleep 0.3
kill -TERM $p; wait $p; rc=$?
check "under the filter: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "under the filter: no reopen or write error" \
	sh -c "! grep -E 'cannot|failed|Operation not permitted' '$T/sandbox.err'"
check "under the filter: 4 records matched" [ "$(kv "$T/logs/summary" matched)" = 4 ]
check "under the filter: metrics written" grep -q '^exitmon_records_total' "$T/run/exitmon.prom"
sed 's/^/# /' "$T/sandbox.err" | grep -v stats: | head -5

# 2. Every system call of a full run is in the unit's allow list (strace
#    without the filter: a call the filter would refuse shows up here even
#    when the program shrugs off its EPERM).
rm -f "$T/logs/"* "$T/run/"*
mkdir -m 700 "$T/trace" && chown nobody "$T/trace"
as_unit strace -f -qq -c -o "$T/trace/strace.out" "${cmd[@]}" "${extra[@]}" \
	--duration 1.5 2> "$T/strace.err" &
p=$!; _pids="$_pids $p"
wait_file "$T/run/exitmon.pid" 10
"$tagged"; sleep 0.2; kill -HUP $p
wait $p; rc=$?
check "traced run: exit 0 (got $rc)" [ "$rc" -eq 0 ] ||
	sed 's/^/# /' "$T/strace.err"
awk '$NF ~ /^[a-z_0-9]+$/ && $NF != "total" && $NF != "syscall" { print $NF }' \
	"$T/trace/strace.out" | sort -u > "$T/used"
missing=$(comm -23 "$T/used" <(sort -u "$allowed") | tr '\n' ' ')
diag "calls of a full run: $(tr '\n' ' ' < "$T/used")"
check "traced run: $(wc -l < "$T/used") distinct calls, all allowed${missing:+ (not allowed: $missing)}" \
	[ -z "$missing" -a -s "$T/used" ]
for c in capset sched_setaffinity flock; do
	check "traced run uses $c, and the unit allows it" \
		sh -c "grep -qx $c '$T/used' && grep -qx $c '$allowed'"
done

# 3. What the unit's umask makes of the files' modes.
mode() { stat -c %a "$1"; }
(as_unit "${cmd[@]}" "${extra[@]}" --duration 0.5 2>/dev/null)
check "records 0640 under the unit ($(mode "$T/logs/exits.csv"))" [ "$(mode "$T/logs/exits.csv")" = 640 ]
check "capture 0640 under the unit ($(mode "$T/logs/cap.pcap"))" [ "$(mode "$T/logs/cap.pcap")" = 640 ]
check "metrics 0644 (node_exporter reads them) ($(mode "$T/run/exitmon.prom"))" \
	[ "$(mode "$T/run/exitmon.prom")" = 644 ]
done_testing
