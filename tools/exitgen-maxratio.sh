#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# How close does `exitgen --rate max` come to a bare create-and-join loop
# of the same shape (`exitgen --baseline`)?  Runs both in ABBA blocks
# (baseline, max, max, baseline) so drift on a noisy machine cancels out,
# and prints the medians of the rates and of the per-block ratios.
#
#   tools/exitgen-maxratio.sh [-a] [-b BLOCKS] [-d SECONDS] [-w WORKERS] [SHAPE...]
#
# -a runs the baseline against itself (an A/A test): the spread of its
# ratios is the noise of the machine, and its median should be 1.
#
# Defaults: 5 blocks of 1-second runs, 1 worker, shapes thread and process.
# On a noisy virtual machine single blocks differ by 20%: use many short
# blocks (-b 41 -d 0.25) and read the median and the quartiles.
# VERBOSE=1 also prints every block's ratio.
set -eu
blocks=5 secs=1 workers=1 b_mode=--rate\ max
USAGE='[-a] [-b BLOCKS] [-d SECONDS] [-w WORKERS] [SHAPE...]'
. "$(dirname "$0")/exitgen-lib.sh"
while getopts ab:d:w: o; do
	case $o in
	a) b_mode=--baseline ;;
	b) blocks=$OPTARG ;;
	*) common_opt "$o" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- thread process

printf '%-10s %7s %12s %12s %8s %17s\n' shape workers baseline/s max/s ratio "ratio p25..p75"
for shape in "$@"; do
	: >"$tmp/b"; : >"$tmp/m"; : >"$tmp/r"
	i=0
	while [ $i -lt "$blocks" ]; do
		b1=$(rate --baseline --shape "$shape")
		m1=$(rate $b_mode --shape "$shape")
		m2=$(rate $b_mode --shape "$shape")
		b2=$(rate --baseline --shape "$shape")
		echo "$b1" >>"$tmp/b"; echo "$b2" >>"$tmp/b"
		echo "$m1" >>"$tmp/m"; echo "$m2" >>"$tmp/m"
		echo "$m1 $m2 $b1 $b2" | awk '{ printf "%.4f\n", ($1 + $2) / ($3 + $4) }' >>"$tmp/r"
		i=$((i + 1))
	done
	printf '%-10s %7s %12.1f %12.1f %8.4f %8.4f..%.4f\n' "$shape" "$workers" \
		"$(median <"$tmp/b")" "$(median <"$tmp/m")" "$(median <"$tmp/r")" \
		"$(quantile 0.25 <"$tmp/r")" "$(quantile 0.75 <"$tmp/r")"
	[ -z "${VERBOSE:-}" ] || echo "# block ratios: $(tr '\n' ' ' <"$tmp/r")"
done
