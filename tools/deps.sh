#!/bin/sh
# Install the Debian/Ubuntu packages exitmon needs to build, test and plot.
# As root: installs what is missing.  Otherwise: prints the command to run.
set -eu

# build: compiler, pkg-config, the three libraries; tests: cmocka, prove
# (perl), mandoc, python3 (standard CSV/JSON readers), clang + compiler-rt
# (fuzzing, sanitizers), promtool (metrics), gnuplot (sweep plots),
# iproute2/util-linux (namespaces, setpriv), systemd (unit checks);
# exitprobe: libbpf-dev, bpftool (skeletons), clang (-target bpf);
# the unit's sandbox test: strace (the calls a run makes) and libseccomp2
# (loads the unit's filter through ctypes; systemd depends on it anyway).
# exitstat: zlib1g-dev (gzopen reads plain and gzip'd records alike).
# make deb and its test: debhelper, dpkg-dev, fakeroot (a build as a
# user), lintian (tests/e2e/80-deb-package.t checks the package with it).
PACKAGES="build-essential pkg-config libnl-3-dev libnl-genl-3-dev libcap-dev
libcmocka-dev perl mandoc python3 clang libclang-rt-dev gnuplot-nox
prometheus iproute2 util-linux procps systemd libjson-c-dev valgrind
libcap2-bin logrotate libbpf-dev bpftool strace libseccomp2 zlib1g-dev
debhelper dpkg-dev fakeroot lintian"

# `deps.sh kernels`: what `make test-kernels` needs besides, to boot
# Debian's kernels under QEMU (tools/kernel-run): the emulator without its
# recommended desktop packages, a static busybox for the guest, cpio.
if [ "${1:-}" = kernels ]; then
	PACKAGES="qemu-system-x86 busybox-static cpio"
fi
# `deps.sh systemd`: `make test-systemd` boots a Debian root filesystem that
# debootstrap makes (tools/kernel-rootfs), in the same QEMU guests.
if [ "${1:-}" = systemd ]; then
	PACKAGES="qemu-system-x86 busybox-static cpio debootstrap"
fi

# libclang-rt-dev is versioned on Debian 12 (libclang-rt-14-dev).
resolve() {
	for p in $PACKAGES; do
		if [ "$p" = libclang-rt-dev ]; then
			v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n1)
			[ -n "$v" ] && p="libclang-rt-$v-dev" || p="libclang-rt-14-dev"
		fi
		echo "$p"
	done
}

missing=""
for p in $(resolve); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
# clang first decides which compiler-rt package is the right one.
if ! command -v clang >/dev/null 2>&1; then missing="$missing clang"; fi

[ -z "$missing" ] && { echo "deps: all build and test dependencies are installed"; exit 0; }

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing:$missing"
	echo "deps: run as root: apt-get install -y$missing"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
# Now clang is present, the compiler-rt package name can be resolved.
for p in $(resolve); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		apt-get install -y -qq --no-install-recommends "$p" >/dev/null
done
echo "deps: installed:$missing"
