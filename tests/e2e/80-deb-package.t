#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make deb: the package holds exactly the expected files, installs, runs,
# leaves the unit disabled, and removing + purging it leaves nothing behind.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root (dpkg -i)"
VERSION=$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")
check "the Makefile has a VERSION ($VERSION)" [ -n "$VERSION" ]
cl=$(dpkg-parsechangelog -l "$TOP/tools/debian/changelog" -S Version)
check "tools/debian/changelog's version ($cl) is the Makefile's ($VERSION)" [ "$cl" = "$VERSION" ]

# The files the package installs (directories aside).  /lib is /usr/lib
# on a merged-/usr system; Debian 12's dh_installsystemd wants it there.
EXPECTED="/etc/logrotate.d/exitmon
/lib/systemd/system/exitmon.service
/usr/bin/exitgen
/usr/bin/exitstat
/usr/bin/exitsweep
/usr/sbin/exitmon
/usr/sbin/exitprobe
/usr/share/doc/exitmon/README.Debian
/usr/share/doc/exitmon/changelog.gz
/usr/share/doc/exitmon/copyright
/usr/share/doc/exitmon/examples/README.md
/usr/share/doc/exitmon/examples/exitmon-schema.sql
/usr/share/doc/exitmon/examples/fleet-exit-outcomes.sql
/usr/share/doc/exitmon/examples/fleet-lost-records.sql
/usr/share/doc/exitmon/examples/fleet-top-cpu.sql
/usr/share/doc/exitmon/examples/rsyslog-host.conf
/usr/share/doc/exitmon/examples/rsyslog-hub.conf
/usr/share/exitmon/exits.schema.json
/usr/share/man/man1/exitgen.1.gz
/usr/share/man/man1/exitstat.1.gz
/usr/share/man/man1/exitsweep.1.gz
/usr/share/man/man8/exitmon.8.gz
/usr/share/man/man8/exitprobe.8.gz"

# Never clobber an exitmon already on this machine (the package or a
# `make install PREFIX=/usr`): this test removes what it installs.
st=$(dpkg-query -W -f='${db:Status-Status}' exitmon 2>/dev/null)
case $st in ""|not-installed) ;; *) skip_all "the exitmon package is on this machine ($st); not replacing it" ;; esac
for f in $EXPECTED; do
	[ -e "$f" ] && skip_all "$f exists and is not the package's; not overwriting it"
done

# make deb, from git archive HEAD.
t0=$(date +%s)
make -C "$TOP" --no-print-directory deb >"$T/deb.out" 2>&1; rc=$?
check "make deb exits 0 ($(( $(date +%s) - t0 )) s)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || { sed 's/^/# /' "$T/deb.out"; done_testing; }
DEB=$(ls "$TOP"/build/deb/exitmon_"$VERSION"_*.deb 2>/dev/null | head -n1)
arch=$(dpkg --print-architecture)
check "the package is build/deb/exitmon_${VERSION}_$arch.deb" [ "$DEB" = "$TOP/build/deb/exitmon_${VERSION}_$arch.deb" ]
check "its Version field is $VERSION" [ "$(dpkg-deb -f "$DEB" Version)" = "$VERSION" ]

dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' | sort >"$T/files"
echo "$EXPECTED" | sort >"$T/expected"
if diff -u "$T/expected" "$T/files" >"$T/files.diff"; then
	ok "the package holds exactly the $(wc -l <"$T/expected") expected files"
else
	nok "the package's files differ from the expected list"; sed 's/^/# /' "$T/files.diff"
fi
dpkg-deb -c "$DEB" | awk '$1 ~ /^d/ { sub(/^\./, "", $6); print $6 }' >"$T/dirs"
check "no build paths among its directories" \
	bash -c "! grep -qvE '^/((etc|etc/logrotate.d|lib|lib/systemd|lib/systemd/system|usr|usr/bin|usr/sbin|usr/share|usr/share/doc|usr/share/doc/exitmon|usr/share/doc/exitmon/examples|usr/share/exitmon|usr/share/man|usr/share/man/man[18])/)?\$' '$T/dirs'"
check "no build path inside the programs" \
	bash -c "dpkg-deb -x '$DEB' '$T/x' && ! grep -rqF -e /tmp/exitmon-deb -e '$TOP' '$T/x'"
dpkg-deb -f "$DEB" Depends | grep -q 'libnl-genl-3-200' &&
	ok "Depends from dpkg-shlibdeps: $(dpkg-deb -f "$DEB" Depends)" || nok "no shlibs Depends"

if command -v lintian >/dev/null 2>&1; then
	lintian "$DEB" >"$T/lintian" 2>&1
	if grep -E '^[EW]: ' "$T/lintian" >"$T/lintian.ew"; [ -s "$T/lintian.ew" ]; then
		nok "lintian: errors or warnings"; sed 's/^/# /' "$T/lintian.ew"
	else
		ok "lintian: no error, no warning"
	fi
else
	nok "lintian is missing (tools/deps.sh installs it)"
fi

# What is on the machine before, to compare with after the purge.
snap() {
	find /usr /etc /var/lib/systemd /var/lib/dpkg/info /var/log/exitmon /run/exitmon \
		-xdev 2>/dev/null | LC_ALL=C sort
}
snap >"$T/before"

dpkg -i "$DEB" >"$T/inst.out" 2>&1; rc=$?
check "dpkg -i exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/inst.out"
check "dpkg says installed" [ "$(dpkg-query -W -f='${db:Status-Status}' exitmon)" = installed ]
for p in /usr/sbin/exitmon /usr/sbin/exitprobe /usr/bin/exitgen /usr/bin/exitsweep /usr/bin/exitstat; do
	v=$("$p" --version 2>&1)
	check "$p --version: $v" [ "$v" = "${p##*/} $VERSION" ]
done
check "man finds exitmon(8)" bash -c "man -w 8 exitmon | grep -q /usr/share/man/man8/exitmon.8.gz"
unit=/lib/systemd/system/exitmon.service
check "the unit is installed" [ -f "$unit" ]
check "its ExecStart is /usr/sbin/exitmon" grep -q '^ExecStart=/usr/sbin/exitmon ' "$unit"
check "the unit is not enabled (no multi-user.target.wants link)" \
	[ ! -e /etc/systemd/system/multi-user.target.wants/exitmon.service ]
check "the logrotate snippet is a conffile" \
	bash -c "dpkg-query -W -f='\${Conffiles}' exitmon | grep -q /etc/logrotate.d/exitmon"
check "logrotate reads the snippet" bash -c "logrotate -d /etc/logrotate.d/exitmon >/dev/null 2>&1"
check "the installed examples are examples/'s" \
	diff -r /usr/share/doc/exitmon/examples "$TOP/examples"
check "the installed JSON Schema is exitmon --json-schema's" \
	cmp -s /usr/share/exitmon/exits.schema.json <(/usr/sbin/exitmon --json-schema)

if have_taskstats; then
	( sleep 0.3; for i in 1 2 3 4 5; do /bin/true; done ) &
	/usr/sbin/exitmon -f csv -o "$T/x.csv" --duration 1 2>"$T/x.err"; rc=$?
	wait
	check "the installed exitmon collects for 1 s (exit $rc)" [ $rc -eq 0 ]
	n=$(($(wc -l <"$T/x.csv") - 1))
	check "it wrote records ($n)" [ "$n" -gt 0 ]
else
	diag "no TASKSTATS family: the installed exitmon's collection not run"
fi

dpkg -r exitmon >"$T/rm.out" 2>&1; rc=$?
check "dpkg -r exits 0" [ $rc -eq 0 ]
check "removed: /usr/sbin/exitmon gone" [ ! -e /usr/sbin/exitmon ]
check "removed: the conffile stays until purge" [ -e /etc/logrotate.d/exitmon ]
dpkg -P exitmon >"$T/purge.out" 2>&1; rc=$?
check "dpkg -P exits 0" [ $rc -eq 0 ]
check "purged: dpkg no longer knows exitmon" \
	bash -c "[ -z \"\$(dpkg-query -W -f='\${db:Status-Status}' exitmon 2>/dev/null | grep -v not-installed)\" ]"
snap >"$T/after"
if diff "$T/before" "$T/after" >"$T/snap.diff"; then
	ok "after the purge the machine's files are as before (/usr /etc /var/lib/systemd /var/lib/dpkg/info)"
else
	nok "files differ after the purge"; sed 's/^/# /' "$T/snap.diff" | head -n 40
fi
done_testing
