#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian/Ubuntu packages a make goal of exitmon needs.  As
# root: says what is missing and why, then installs it.  Otherwise: prints
# the same and the command to run.
#   tools/deps.sh [GOAL]           install what GOAL needs; GOAL is test (the
#                                  default, make deps), demo, bench, deb,
#                                  kernels, systemd or fleet
#   tools/deps.sh --list GOAL      the packages GOAL needs, one a line
#   tools/deps.sh --remove [--dry-run]
#                                  purge every package deps.sh installed on
#                                  this machine and the project's caches, so
#                                  that the next CI run meets what a new
#                                  machine has (tests/README.md)
# Every goal that runs tests needs what make test needs, and its own on top.
set -eu

# What each package is for, one purpose a line: "group|purpose|packages".
# A goal installs the lines of its groups (goal_groups below).
# libclang-rt-dev stands for the compiler-rt of the installed clang.
NEEDS="build|to build: compiler, pkg-config and the libraries (netlink, capabilities, JSON, zlib)|build-essential pkg-config libnl-3-dev libnl-genl-3-dev libcap-dev libjson-c-dev zlib1g-dev
build|to build exitprobe: BPF programs (clang -target bpf) and their skeletons (bpftool)|clang libbpf-dev bpftool
tests|for the tests: unit (cmocka), end to end (prove, python3), man lint (mandoc), sanitizers and fuzzing (compiler-rt), valgrind|libcmocka-dev perl mandoc python3 libclang-rt-dev valgrind
tests|for the JSON lines schema test: a JSON Schema validator|python3-jsonschema
tests|for the tests: namespaces, privileges, rotation, the unit's sandbox (strace, libseccomp)|iproute2 util-linux procps systemd libcap2-bin logrotate strace libseccomp2
tests|for the metrics test: promtool|prometheus
tests|for the listener-cost test: busybox's sh, the shell of the rig's guests|busybox-static
plots|for plots: gnuplot draws them, rsvg-convert makes the demo's PNG, python3 reads its headline|gnuplot-nox librsvg2-bin python3
package|for make deb and its test: debhelper, lintian|debhelper dpkg-dev fakeroot lintian
bench|for make bench: callgrind (valgrind), python3, the kernel source its peers part builds getdelays and procacct from (about 140 MB)|valgrind python3 linux-source-6.1
kernels|to boot other kernels (make test-kernels): QEMU, a static busybox, cpio|qemu-system-x86 busybox-static cpio
systemd|to boot a systemd guest (make test-systemd): QEMU, busybox, cpio, debootstrap|qemu-system-x86 busybox-static cpio debootstrap
fleet|for the fleet tier (make test-fleet): rsyslog with RELP and PostgreSQL output, PostgreSQL 15 and psql, Prometheus, node_exporter, logrotate, iproute2, python3, curl|rsyslog rsyslog-relp rsyslog-pgsql postgresql-15 postgresql-client-common prometheus prometheus-node-exporter logrotate iproute2 python3 curl"

# The fleet tier starts its own rsyslogd, PostgreSQL, node_exporter and
# Prometheus, never the services these packages install.

# What deps.sh installed here, one package a line (what apt added, its
# dependencies too): what --remove purges, and nothing else.
RECORD=${EXITMON_DEPS_RECORD:-/var/lib/exitmon-deps/installed}
# The project's caches (kernels, root filesystems; tools/kernel-fetch and
# tools/kernel-rootfs put them here unless told otherwise).
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/exitmon

usage() {
	echo "usage: tools/deps.sh [test|demo|bench|deb|kernels|systemd|fleet]" >&2
	echo "       tools/deps.sh --list GOAL | --remove [--dry-run]" >&2
	exit 2
}

goal_groups() {
	case $1 in
	test) echo "build tests plots package" ;;
	demo) echo "build plots" ;;
	bench) echo "build bench" ;;
	deb) echo "build package" ;;
	kernels | systemd | fleet) echo "build tests plots package $1" ;;
	*) return 1 ;;
	esac
}

# libclang-rt-dev is versioned on Debian 12 (libclang-rt-14-dev): the
# installed clang decides.
resolve() {
	if [ "$1" = libclang-rt-dev ]; then
		# Debian's clang is a link into /usr/lib/llvm-N (asking it costs
		# a quarter of a second).
		c=$(command -v clang 2>/dev/null || true)
		v=$(readlink -f "${c:-/nonexistent}" | sed -n 's|^/usr/lib/llvm-\([0-9]*\)/.*|\1|p')
		[ -n "$v" ] || v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n1)
		if [ -n "$v" ]; then echo "libclang-rt-$v-dev"; else echo libclang-rt-14-dev; fi
	else
		echo "$1"
	fi
}
installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# The lines of NEEDS for GOAL's groups, as "purpose|packages".
goal_lines() {
	groups=$(goal_groups "$1") || usage
	echo "$NEEDS" | while IFS='|' read -r group why pkgs; do
		case " $groups " in *" $group "*) echo "$why|$pkgs" ;; esac
	done
}

# One line per purpose with something missing: "purpose| packages"; a
# package already named on an earlier line is not named again.
missing_lines() {
	seen=" "
	goal_lines "$1" | while IFS='|' read -r why pkgs; do
		m=""
		for p in $pkgs; do
			p=$(resolve "$p")
			case $seen in *" $p "*) continue ;; esac
			seen="$seen$p "
			installed "$p" || m="$m $p"
		done
		[ -z "$m" ] || echo "$why|$m"
	done
}

# Every package installed now, one a line, sorted.
dpkg_state() {
	dpkg-query -W -f='${Package} ${db:Status-Status}\n' |
		awk '$2 == "installed" { print $1 }' | sort -u
}

list() {
	goal_groups "$1" >/dev/null || usage
	rt=$(resolve libclang-rt-dev)
	goal_lines "$1" | cut -d'|' -f2 | tr ' ' '\n' |
		sed -n "s/^libclang-rt-dev\$/$rt/; /./p" | sort -u
}

# --remove: purge what the record names (what deps.sh's own runs added to
# the machine, nothing that was there before), then the caches.
remove() {
	dry=${1:-}
	pkgs=""
	if [ -s "$RECORD" ]; then
		for p in $(sort -u "$RECORD"); do installed "$p" && pkgs="$pkgs $p"; done
	fi
	if [ -z "$pkgs" ]; then
		echo "deps: no package to purge ($RECORD names none still installed)"
	elif [ -n "$dry" ]; then
		echo "deps: would purge $(echo "$pkgs" | wc -w) packages:$pkgs"
	else
		[ "$(id -u)" -eq 0 ] || { echo "deps: --remove purges packages: run it as root" >&2; exit 1; }
		# apt would also take what depends on them: refuse rather than
		# remove a package deps.sh never installed.
		extra=$(apt-get -s purge $pkgs 2>/dev/null | sed -n 's/^Purg \([^ ]*\).*/\1/p' |
			while read -r p; do grep -qx "$p" "$RECORD" || echo "$p"; done)
		if [ -n "$extra" ]; then
			echo "deps: purging them would also remove$(echo " $extra" | tr '\n' ' ')(not installed by deps.sh): nothing done; purge those by hand first" >&2
			exit 1
		fi
		echo "deps: purging $(echo "$pkgs" | wc -w) packages deps.sh installed (apt-get, quietly)"
		export DEBIAN_FRONTEND=noninteractive
		apt purge -y -qq $pkgs
		rm -f "$RECORD"
	fi
	if [ -d "$CACHE" ]; then
		if [ -n "$dry" ]; then
			echo "deps: would remove $CACHE ($(du -sh "$CACHE" | cut -f1))"
		else
			rm -rf "$CACHE" && echo "deps: removed $CACHE"
		fi
	fi
}

log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
# apt's own chatter (debconf notes, triggers) is shown only when it fails.
apt() {
	apt-get "$@" >"$log" 2>&1 && return 0
	cat "$log" >&2
	echo "deps: apt-get $1 failed (its output above)" >&2
	exit 1
}

case ${1:-test} in
--list) [ $# -eq 2 ] || usage; list "$2"; exit 0 ;;
--remove)
	case ${2:-} in "" | --dry-run) remove "${2:-}"; exit 0 ;; *) usage ;; esac ;;
-*) usage ;;
esac
[ $# -le 1 ] || usage
goal=${1:-test}
goal_groups "$goal" >/dev/null || usage

lines=$(missing_lines "$goal")
[ -z "$lines" ] && { echo "deps: all that make $goal needs is installed"; exit 0; }
# shellcheck disable=SC2046,SC2116 # echo joins the lines into one word list
missing=$(echo $(echo "$lines" | cut -d'|' -f2))
n=$(echo "$missing" | wc -w)
if [ "$n" -eq 1 ]; then pkgs="Debian package is"; else pkgs="Debian packages are"; fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: $n $pkgs missing:"
	echo "$lines" | sed 's/^/deps:   /; s/|/:/'
	echo "deps: run as root: apt-get install -y --no-install-recommends $missing"
	exit 1
fi
echo "deps: installing $n missing $(echo "$pkgs" | cut -d' ' -f1-2) (apt-get, quietly; a minute or two):"
echo "$lines" | sed 's/^/deps:   /; s/|/:/'
export DEBIAN_FRONTEND=noninteractive
before=$(mktemp) || exit 1
trap 'rm -f "$log" "$before"' EXIT
dpkg_state >"$before"
apt update -qq
apt install -y -qq --no-install-recommends $missing
# clang may have come just now: it decides which compiler-rt package fits.
again=$(missing_lines "$goal")
if [ -n "$again" ]; then
	# shellcheck disable=SC2046,SC2116
	more=$(echo $(echo "$again" | cut -d'|' -f2))
	apt install -y -qq --no-install-recommends $more
fi
# What this run added, kept for --remove (a record that cannot be written
# costs only the removal, said here).
if mkdir -p "$(dirname "$RECORD")" 2>/dev/null &&
	dpkg_state | comm -13 "$before" - >>"$RECORD" 2>/dev/null; then
	:
else
	echo "deps: could not note the packages in $RECORD: tools/deps.sh --remove will not purge them" >&2
fi
echo "deps: installed $missing"
