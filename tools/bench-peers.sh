#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the kernel's own taskstats sample listeners, getdelays and procacct
# (tools/accounting in the kernel source), for the peers part of make bench
# (tools/bench.sh), which measures them beside exitmon and the floor.
#
# The sources are looked for, in order, in $KERNEL_SRC (a kernel tree or a
# kernel source tarball) and /usr/src/linux-source-*.tar.* (Debian's
# linux-source-6.1 package, optional; LINUX_SOURCE_GLOB overrides that
# pattern).  Only tools/accounting/*.c and the
# uapi headers they use are taken from a tarball.  Built with -O2 against
# the system's headers, or against the source's uapi headers where those
# fail, into OUT (default build/bench/peers/), and cached there: a second
# run with the same source builds nothing.
#
#   tools/bench-peers.sh [OUT]
#
# Exit 0: OUT/getdelays and OUT/procacct are built.  Exit 77: no kernel
# source was found (one line on stderr says what to install).  Otherwise a
# build failed (its compiler output is in OUT/build.log).
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$TOP/build/bench/peers}
PROGS="getdelays procacct"
HEADERS="taskstats cgroupstats acct"
SOURCE_GLOB=${LINUX_SOURCE_GLOB:-/usr/src/linux-source-*.tar.*}

# find_source: the first kernel source there is, on stdout
find_source() {
	if [ -n "${KERNEL_SRC:-}" ]; then
		[ -e "$KERNEL_SRC" ] && { echo "$KERNEL_SRC"; return 0; }
		echo "bench-peers: KERNEL_SRC=$KERNEL_SRC does not exist" >&2
	fi
	local t
	for t in $SOURCE_GLOB; do
		[ -f "$t" ] && { echo "$t"; return 0; }
	done
	return 1
}

# identity SOURCE: what the cache is keyed on (path, size, modification time)
identity() {
	if [ -d "$1" ]; then
		stat -c '%n %s %Y' "$1/tools/accounting/getdelays.c" \
			"$1/tools/accounting/procacct.c"
	else
		stat -c '%n %s %Y' "$1"
	fi
}

# unpack SOURCE DIR: tools/accounting and the uapi headers into DIR/tools,
# DIR/include/linux
unpack() {
	local src=$1 dir=$2 h
	rm -rf "$dir"; mkdir -p "$dir/tools" "$dir/include/linux"
	if [ -d "$src" ]; then
		cp "$src"/tools/accounting/*.c "$dir/tools/"
		for h in $HEADERS; do
			cp "$src/include/uapi/linux/$h.h" "$dir/include/linux/" 2>/dev/null || true
		done
		return 0
	fi
	# Member paths only (the tarball's top directory varies: linux-6.1/,
	# linux-source-6.1/); tar reads the whole compressed stream once.
	local x=$dir/x members=("*/tools/accounting/*.c")
	for h in $HEADERS; do members+=("*/include/uapi/linux/$h.h"); done
	mkdir -p "$x"
	tar -xf "$src" -C "$x" --wildcards "${members[@]}"
	find "$x" -path '*/tools/accounting/*.c' -exec cp {} "$dir/tools/" \;
	find "$x" -path '*/include/uapi/linux/*.h' -exec cp {} "$dir/include/linux/" \;
	rm -rf "$x"
}

# build PROG DIR: system headers first, the source's uapi headers second
build() {
	local p=$1 dir=$2 cc=${CC:-cc}
	"$cc" -O2 -w -o "$OUT/$p" "$dir/tools/$p.c" >>"$OUT/build.log" 2>&1 && return 0
	echo "bench-peers: $p: the system headers failed, trying the source's uapi headers" >>"$OUT/build.log"
	"$cc" -O2 -w -I"$dir/include" -o "$OUT/$p" "$dir/tools/$p.c" >>"$OUT/build.log" 2>&1
}

main() {
	local src id dir=$OUT/src p
	if ! src=$(find_source); then
		echo "bench: peers skipped: no kernel source (apt-get install linux-source-6.1, or set KERNEL_SRC to a kernel tree or tarball)" >&2
		exit 77
	fi
	mkdir -p "$OUT"
	id=$(identity "$src")
	if [ -f "$OUT/source" ] && [ "$(cat "$OUT/source")" = "$id" ] &&
		[ -x "$OUT/getdelays" ] && [ -x "$OUT/procacct" ]; then
		return 0
	fi
	echo "bench: building getdelays and procacct from $src" >&2
	rm -f "$OUT/source" "$OUT/build.log"
	unpack "$src" "$dir"
	for p in $PROGS; do
		[ -f "$dir/tools/$p.c" ] || { echo "bench-peers: $src has no tools/accounting/$p.c" >&2; exit 1; }
		build "$p" "$dir" || { echo "bench-peers: $p did not build: see $OUT/build.log" >&2; exit 1; }
	done
	echo "$id" > "$OUT/source"
}

main
