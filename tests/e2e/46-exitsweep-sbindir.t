#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An installed exitsweep finds exitmon in the sbin directory it was built
# for (make install puts exitmon there), even when sbin is not on PATH:
# exitsweep built from a copy of the tree with SBINDIR set, exitmon put
# there, neither next to exitsweep nor on PATH.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$EXITGEN" ] || { echo "Bail out! exitgen not built"; exit 1; }
mkdir -p "$T/tree" "$T/sbin" "$T/bin"
sweep_tmpdir
cp -r "$TOP/Makefile" "$TOP/src" "$TOP/include" "$TOP/tools" "$TOP/tests" "$TOP/man" "$T/tree/"
make -C "$T/tree" -s -j"$(nproc)" exitsweep SBINDIR="$T/sbin" >"$T/make.out" 2>&1; rc=$?
check "exitsweep builds with SBINDIR=$T/sbin" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/make.out"
cp "$T/tree/exitsweep" "$EXITGEN" "$T/bin/"
cp "$TOP/exitmon" "$T/sbin/"

env PATH=/usr/bin:/bin "$T/bin/exitsweep" --listener batch --rates max --count 50 \
	--runs 2 --tgid on --probe off --quiet --json "$T/s.json" >"$T/s.out" 2>"$T/s.err"; rc=$?
check "exitmon found in SBINDIR, not on PATH: the sweep runs" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/s.err"
check "records came from that exitmon" grep -Eq '^ +max +[0-9.]+ +batch +2 +100 +100 +0 ' "$T/s.out"

rm "$T/sbin/exitmon"
env PATH=/usr/bin:/bin "$T/bin/exitsweep" --listener batch --rates max --count 50 \
	--runs 2 --probe off >/dev/null 2>"$T/n.err"; rc=$?
check "no exitmon anywhere: exit 1, the message names the sbin directory" \
	sh -c "[ $rc -eq 1 ] && grep -q 'cannot find exitmon next to exitsweep, in $T/sbin or in PATH' '$T/n.err'"
done_testing
