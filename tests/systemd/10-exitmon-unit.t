#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The package and its unit under a real systemd: Debian's 6.1 kernel booted
# by tools/kernel-run with a bookworm root filesystem (tools/kernel-rootfs,
# systemd 252 as PID 1), the .deb of `make deb` installed there, and the
# README's operator path walked by guest-unit.sh; this side judges what it
# saw.  Needs root (debootstrap, once; cached) and QEMU.
. "$(dirname "$0")/../e2e/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root: debootstrap makes the guest's root filesystem"
command -v debootstrap >/dev/null || skip_all "debootstrap is missing (tools/deps.sh systemd installs it)"
command -v qemu-system-x86_64 >/dev/null || skip_all "QEMU is missing (tools/deps.sh kernels installs it)"

KERNEL=${EXITMON_SYSTEMD_KERNEL:-6.1}
deb=$(ls "$TOP"/build/deb/exitmon_*.deb 2>/dev/null | tail -n1)
[ -n "$deb" ] || { nok "no package in build/deb: run make deb first"; done_testing; }
diag "package: $(basename "$deb")"

# The root filesystem holds what the package depends on (the guest has no
# network): its Depends, without versions or alternatives.
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/[(|].*//; s/ //g' | grep -v '^$')
rootfs=$("$TOP/tools/kernel-rootfs" $depends) || { nok "tools/kernel-rootfs failed"; done_testing; }
diag "root filesystem: $rootfs"

start=$(date +%s)
"$TOP/tools/kernel-run" -q --kernel "$KERNEL" --rootfs "$rootfs" --timeout 600 \
	--add "$deb:/root/exitmon.deb" --add "$(dirname "$0")/guest-unit.sh:/root/guest-unit.sh" \
	--out "$T/out" -- sh /root/guest-unit.sh /root/exitmon.deb >"$T/guest.out" 2>"$T/guest.err"
rc=$?
diag "guest: $(($(date +%s) - start)) s"
check "the guest ran the steps (status $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T/guest.err"
O=$T/out
kvo() { kv "$O/steps.kv" "$1"; }
is() { # NAME WANT DESCRIPTION
	got=$(kvo "$1")
	if [ "$got" = "$2" ]; then ok "$3"; else nok "$3 ($1: '$got', want '$2')"; fi
}
at_least() { # NAME N DESCRIPTION
	got=$(kvo "$1")
	if [ "${got:-0}" -ge "$2" ] 2>/dev/null; then ok "$3 ($got)"; else nok "$3 ($1: '$got', want >= $2)"; fi
}
diag "systemd $(kvo systemd) as PID 1"

# Install: neither enabled nor started (README, Installing).
is install_rc 0 "apt-get install ./exitmon.deb installs the package"
is enabled_after_install disabled "installed, not enabled"
is active_after_install inactive "installed, not started"

# Start: readiness through READY=1, then running as a dynamic user with
# the least privilege the README states.
is enable_rc 0 "systemctl enable --now exitmon succeeds"
is active "active/running" "the service is active (running) after READY=1"
is type notify "Type=notify: start waited for READY=1"
status() { grep -q "^$1:[[:space:]]*$2\$" "$O/main.status" || { sed 's/^/# /' "$O/main.status"; return 1; }; }
uid=$(awk '/^Uid:/ { print $2 }' "$O/main.status")
# DynamicUser= takes uids from 61184-65519.
check "runs as a dynamic user (uid $uid)" awk -v u="$uid" 'BEGIN { exit !(u >= 61184 && u <= 65519) }'
check "CAP_NET_ADMIN permitted only" status CapPrm 0000000000001000
check "no effective capability while idle" status CapEff 0000000000000000
check "no ambient capability left" status CapAmb 0000000000000000
check "no-new-privs" status NoNewPrivs 1
check "under a seccomp filter" status Seccomp 2

# Records reach the documented place while the workload runs.
at_least rows_running 300 "records of 300 thread exits in /var/log/exitmon/exits.csv"
check "logs directory 0700, records 0640" awk '
	$NF ~ /\/var\/log\/exitmon$/ && $1 ~ /^drwx------/ { d = 1 }
	$NF ~ /exits.csv$/ && $1 ~ /^-rw-r-----/ { f = 1 }
	END { exit !(d && f) }' "$O/modes.ls"
check "metrics in /run/exitmon for node_exporter, 0644" grep -q '^-rw-r--r--.*/run/exitmon/exitmon.prom$' "$O/modes.ls"
if [ -s "$O/metrics.prom" ] && command -v promtool >/dev/null; then
	promtool check metrics <"$O/metrics.prom" >"$T/promtool.out" 2>&1 && [ ! -s "$T/promtool.out" ]
	check "promtool accepts the service's metrics" [ $? -eq 0 ]
else
	nok "no metrics came back, or promtool is missing"
fi

# Rotation (logrotate's snippet: rename, SIGHUP) and reload reopen the output.
is logrotate_rc 0 "logrotate -f rotates the records"
at_least old_rows_in_rotated 300 "the rotated file keeps the records before it"
at_least rows_after_rotate_new 200 "records after rotation go to a new exits.csv"
is rows_after_rotate_old 0 "none of them to the rotated file"
is reload_rc 0 "systemctl reload succeeds"
at_least rows_after_reload_new 100 "after reload, records go to a new exits.csv"
is rows_after_reload_moved 0 "none to the renamed one"
is active_after_reload "active/running" "still running after reload"
is same_pid_after_reload yes "reload reopened, did not restart"

# Stop leaves a complete summary: every record counted, nothing lost.
is stop_rc 0 "systemctl stop succeeds"
is active_after_stop "inactive/success" "stopped cleanly (Result=success)"
S=$O/summary
check "a summary was left" [ -s "$S" ]
check "summary: nothing dropped" [ "$(kv "$S" dropped)" = 0 ]
check "summary: nothing malformed" [ "$(kv "$S" malformed)" = 0 ]
check "summary: nothing truncated" [ "$(kv "$S" truncated)" = 0 ]
check "summary: nothing unwritten" [ "$(kv "$S" unwritten)" = 0 ]
check "summary: every matched record written" [ "$(kv "$S" written)" = "$(kv "$S" matched)" ]
rows=$(grep -c "^$ROW\(pid\|tgid\)," "$O/all.csv")
# The summary spans one run; exits.csv.1 also holds nothing from before it.
check "summary: written equals the rows in the three files ($rows)" [ "$(kv "$S" written)" = "$rows" ]
# Rotation and reload reopen the output within one run: one run id, its
# numbers 1 to last_seq each once.
grep "^$ROW\(pid\|tgid\)," "$O/all.csv" | cut -d, -f1 | sort -u > "$O/runs"
check "one run across rotation and reload ($(wc -l < "$O/runs")), the summary's" \
	[ "$(wc -l < "$O/runs")" -eq 1 ] && [ "$(cat "$O/runs")" = "$(kv "$S" run)" ]
seqs=$(grep "^$ROW\(pid\|tgid\)," "$O/all.csv" | cut -d, -f2 | sort -un | wc -l)
check "seq 1 to last_seq, each once ($seqs distinct, last_seq $(kv "$S" last_seq))" \
	[ "$seqs" = "$rows" ] && [ "$(kv "$S" last_seq)" = "$rows" ]
check "summary: struct version 13 (Debian's 6.1)" [ "$(kv "$S" struct_version)" = 13 ]

# The exposure the README states (Running it as a service).
score=$(sed -n 's/.*Overall exposure level for exitmon.service: \([0-9.]*\).*/\1/p' "$O/security.txt")
readme=$(sed -n 's/.*`systemd-analyze security exitmon`.*\*\*\([0-9.]*\) [A-Z]*\*\*.*/\1/p' "$TOP/README.md" | head -n1)
diag "systemd-analyze security exitmon: $score; README: $readme"
check "systemd-analyze security gives the README's exposure ($score)" [ -n "$score" -a "$score" = "$readme" ]

# Remove stops the service; purge leaves nothing but the records.
is active_before_remove active "started again before removal"
is remove_rc 0 "apt-get remove removes the package"
is active_after_remove inactive "removal stopped the service"
is exitmon_processes 0 "no exitmon process left"
check "removed: the programs are gone" bash -c "! grep -qE '^-.* /usr/sbin/exitmon$' '$O/removed.files'"
check "removed: the logrotate snippet (a conffile) stays until purge" grep -qE '^-.* /etc/logrotate.d/exitmon$' "$O/removed.files"
check "purge removes the unit, the logrotate snippet and the enablement" \
	bash -c "! grep -qE '^[-l][rwx-]{9}' '$O/purged.files'"
grep -E '^[-l][rwx-]{9}' "$O/purged.files" | sed 's/^/# left: /'
check "purged: dpkg knows no exitmon" grep -qE 'no packages found|not-installed' "$O/purged.files"
is purge_rc 0 "apt-get purge purges it"
logs=$(kvo logs_left)
check "the records are left for the operator ($logs)" bash -c "case '$logs' in *exits.csv*summary*) exit 0;; esac; exit 1"
if [ "$_fail" -gt 0 ]; then
	diag "journal:"; sed 's/^/#   /' "$O/journal.txt" 2>/dev/null | tail -n 30
fi
done_testing
