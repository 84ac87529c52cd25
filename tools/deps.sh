#!/bin/sh
# Install the Debian/Ubuntu packages exitmon needs to build, test and plot.
# As root: says what is missing and why, then installs it.  Otherwise:
# prints the same and the command to run.
#   tools/deps.sh [kernels|systemd|fleet]
set -eu

# What each package is for, one purpose a line: "purpose|packages".
# libclang-rt-dev stands for the compiler-rt of the installed clang.
NEEDS="to build: compiler, pkg-config and the libraries (netlink, capabilities, JSON, zlib)|build-essential pkg-config libnl-3-dev libnl-genl-3-dev libcap-dev libjson-c-dev zlib1g-dev
to build exitprobe: BPF programs (clang -target bpf) and their skeletons (bpftool)|clang libbpf-dev bpftool
for the tests: unit (cmocka), end to end (prove, python3), man lint (mandoc), sanitizers and fuzzing (compiler-rt), valgrind|libcmocka-dev perl mandoc python3 libclang-rt-dev valgrind
for the JSON lines schema test: a JSON Schema validator|python3-jsonschema
for the tests: namespaces, privileges, rotation, the unit's sandbox (strace, libseccomp)|iproute2 util-linux procps systemd libcap2-bin logrotate strace libseccomp2
for the metrics test: promtool|prometheus
for plots: gnuplot draws them, rsvg-convert makes the demo's PNG|gnuplot-nox librsvg2-bin
for make deb and its test: debhelper, lintian|debhelper dpkg-dev fakeroot lintian"

# Optional and not installed here: linux-source-6.1 (Debian 12; about
# 140 MB), the kernel source that make bench's peers part builds the
# kernel's getdelays and procacct from (tools/bench-peers.sh); without it
# that part says so and is skipped.

# `deps.sh kernels`: what `make test-kernels` needs besides, to boot
# Debian's kernels under QEMU (tools/kernel-run): the emulator without its
# recommended desktop packages, a static busybox for the guest, cpio.
if [ "${1:-}" = kernels ]; then
	NEEDS="to boot other kernels (make test-kernels): QEMU, a static busybox, cpio|qemu-system-x86 busybox-static cpio"
fi
# `deps.sh systemd`: `make test-systemd` boots a Debian root filesystem that
# debootstrap makes (tools/kernel-rootfs), in the same QEMU guests.
if [ "${1:-}" = systemd ]; then
	NEEDS="to boot a systemd guest (make test-systemd): QEMU, busybox, cpio, debootstrap|qemu-system-x86 busybox-static cpio debootstrap"
fi

# `deps.sh fleet`: `make test-fleet` builds a fleet of hosts in network
# namespaces on this machine: rsyslog following each host's records
# (imfile) and forwarding them over RELP to a hub whose rsyslog writes
# them to PostgreSQL (ompgsql), node_exporter's textfile collector on
# each host's metrics and a Prometheus scraping them, logrotate.  The
# test starts its own instances and never the services these install.
if [ "${1:-}" = fleet ]; then
	NEEDS="for the fleet tier (make test-fleet): rsyslog with RELP and PostgreSQL output, PostgreSQL 15, Prometheus, node_exporter, logrotate, iproute2, python3|rsyslog rsyslog-relp rsyslog-pgsql postgresql-15 prometheus prometheus-node-exporter logrotate iproute2 python3"
fi

# libclang-rt-dev is versioned on Debian 12 (libclang-rt-14-dev): the
# installed clang decides.
resolve() {
	if [ "$1" = libclang-rt-dev ]; then
		v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n1)
		[ -n "$v" ] && echo "libclang-rt-$v-dev" || echo libclang-rt-14-dev
	else
		echo "$1"
	fi
}
installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# One line per purpose with something missing: "purpose| packages".
missing_lines() {
	echo "$NEEDS" | while IFS='|' read -r why pkgs; do
		m=""
		for p in $pkgs; do
			p=$(resolve "$p")
			installed "$p" || m="$m $p"
		done
		[ -z "$m" ] || echo "$why|$m"
	done
}

lines=$(missing_lines)
[ -z "$lines" ] && { echo "deps: all build and test dependencies are installed"; exit 0; }
missing=$(echo $(echo "$lines" | cut -d'|' -f2))
n=$(echo $missing | wc -w)

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: $n Debian packages are missing:"
	echo "$lines" | sed 's/^/deps:   /; s/|/:/'
	echo "deps: run as root: apt-get install -y --no-install-recommends $missing"
	exit 1
fi
echo "deps: installing $n missing Debian packages (apt-get, quietly; a minute or two):"
echo "$lines" | sed 's/^/deps:   /; s/|/:/'
export DEBIAN_FRONTEND=noninteractive
# apt's own chatter (debconf notes, triggers) is shown only when it fails.
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
apt() {
	apt-get "$@" >"$log" 2>&1 && return 0
	cat "$log" >&2
	echo "deps: apt-get $1 failed (its output above)" >&2
	exit 1
}
apt update -qq
apt install -y -qq --no-install-recommends $missing
# clang may have come just now: it decides which compiler-rt package fits.
again=$(missing_lines)
if [ -n "$again" ]; then
	more=$(echo $(echo "$again" | cut -d'|' -f2))
	apt install -y -qq --no-install-recommends $more
fi
echo "deps: installed $missing"
