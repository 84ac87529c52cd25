#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run inside a kernel-run guest with systemd as PID 1 (--rootfs): the
# operator's path from the README's "Installing" — the package installed,
# `systemctl enable --now exitmon`, records while a workload runs, rotation,
# reload, stop, the security rating, remove and purge.  It judges nothing
# itself: every observation goes to /out (key=value lines in steps.kv, the
# files as they were) for tests/systemd/10-exitmon-unit.t on the host.
# Usage: guest-unit.sh PACKAGE.deb
set -u
DEB=$1
KV=/out/steps.kv
LOG=/var/log/exitmon
: >"$KV"
say() { echo "$1=$2" >>"$KV"; }
show() { systemctl show exitmon -P "$1" 2>/dev/null; }
# tagged N TAG: N thread exits named TAG, from the installed generator.
tagged() { exitgen --shape thread --count "$1" --rate 2000 --tag "$2" -q; }
# rows TAG FILE: records of TAG in FILE (comm is a column of its own).
rows() { grep -c ",$1," "$2" 2>/dev/null || echo 0; }
# until_rows N TAG FILE: wait (up to 20 s) until FILE holds N rows of TAG.
until_rows() {
	i=0
	while [ "$(rows "$2" "$3")" -lt "$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
}
snapshot() { # NAME: the state of the files the package and unit made
	{ ls -ld /etc/logrotate.d/exitmon /lib/systemd/system/exitmon.service \
		/etc/systemd/system/multi-user.target.wants/exitmon.service \
		/usr/sbin/exitmon /usr/bin/exitgen /var/lib/systemd/deb-systemd-helper-enabled/exitmon.service.dsh-also \
		/run/exitmon 2>&1; dpkg-query -W -f='${Status}\n' exitmon 2>&1; } >"/out/$1.files"
}
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

say systemd "$(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')"
# As the README says it: apt installs a local package (its dependencies are
# already in the root filesystem: the guest has no network).
apt-get install -y "$DEB" >/out/apt-install.log 2>&1
say install_rc $?
say enabled_after_install "$(systemctl is-enabled exitmon 2>&1)"
say active_after_install "$(systemctl is-active exitmon 2>&1)"

# Type=notify: `systemctl start` returns once exitmon has sent READY=1 (or
# failed); enable --now is the README's command.
systemctl enable --now exitmon >/out/enable.log 2>&1
say enable_rc $?
say active "$(show ActiveState)/$(show SubState)"
say type "$(show Type)"
say notify_access "$(show NotifyAccess)"
pid=$(show MainPID)
say main_pid "$pid"
grep -E '^(Uid|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' "/proc/$pid/status" >/out/main.status 2>&1
say user "$(ps -o user= -p "$pid" 2>/dev/null)"

tagged 300 sysdone
until_rows 300 sysdone $LOG/exits.csv
say rows_running "$(rows sysdone $LOG/exits.csv)"
ls -ldL $LOG $LOG/exits.csv /run/exitmon /run/exitmon/exitmon.prom >/out/modes.ls 2>&1
# Metrics are rewritten every --stats interval (60 s in the unit): the one
# written at start is there now; its counters are checked after a reload.
cp /run/exitmon/exitmon.prom /out/metrics.prom 2>/dev/null
say metrics_present "$([ -s /run/exitmon/exitmon.prom ] && echo yes || echo no)"

# logrotate's way: rename, then the snippet's postrotate sends SIGHUP.
logrotate -f /etc/logrotate.d/exitmon >/out/logrotate.log 2>&1
say logrotate_rc $?
tagged 200 sysdtwo
until_rows 200 sysdtwo $LOG/exits.csv
say rows_after_rotate_new "$(rows sysdtwo $LOG/exits.csv)"
say rows_after_rotate_old "$(rows sysdtwo $LOG/exits.csv.1)"
say old_rows_in_rotated "$(rows sysdone $LOG/exits.csv.1)"

# systemctl reload (ExecReload: SIGHUP) after a rename of our own.
mv $LOG/exits.csv $LOG/exits.csv.moved
systemctl reload exitmon >/out/reload.log 2>&1
say reload_rc $?
tagged 100 sysdthree
until_rows 100 sysdthree $LOG/exits.csv
say rows_after_reload_new "$(rows sysdthree $LOG/exits.csv)"
say rows_after_reload_moved "$(rows sysdthree $LOG/exits.csv.moved)"
say active_after_reload "$(show ActiveState)/$(show SubState)"
say same_pid_after_reload "$([ "$(show MainPID)" = "$pid" ] && echo yes || echo no)"

systemctl stop exitmon >/out/stop.log 2>&1
say stop_rc $?
say active_after_stop "$(show ActiveState)/$(show Result)"
cp $LOG/summary /out/summary 2>/dev/null
cat $LOG/exits.csv.1 $LOG/exits.csv.moved $LOG/exits.csv >/out/all.csv 2>/dev/null
systemd-analyze security exitmon >/out/security.txt 2>&1
say security_rc $?
journalctl -u exitmon --no-pager -o short-monotonic >/out/journal.txt 2>&1

# Remove with the service running: the package's scripts stop it.
systemctl start exitmon
say active_before_remove "$(show ActiveState)"
apt-get remove -y exitmon >/out/apt-remove.log 2>&1
say remove_rc $?
say active_after_remove "$(systemctl is-active exitmon 2>&1)"
say exitmon_processes "$(pgrep -c -x exitmon)"
snapshot removed
apt-get purge -y exitmon >/out/apt-purge.log 2>&1
say purge_rc $?
snapshot purged
say logs_left "$(ls $LOG 2>/dev/null | tr '\n' ' ')"
