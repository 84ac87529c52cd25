#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Rate accuracy of exitgen's open-loop pacing: measure the flat-out rate of
# each shape (median of 5 runs), then run targets at fractions of it and
# print achieved rate, error and lateness.
#
#   tools/exitgen-accuracy.sh [-d SECONDS] [-w WORKERS] [-f "FRACTIONS"] [SHAPE...]
#
# Defaults: 3-second runs, 1 worker, fractions "0.2 0.4 0.6 0.8", shapes
# thread and process.
set -eu
secs=3 workers=1 fracs="0.2 0.4 0.6 0.8"
USAGE='[-d SECONDS] [-w WORKERS] [-f FRACTIONS] [SHAPE...]'
. "$(dirname "$0")/exitgen-lib.sh"
while getopts d:w:f: o; do
	case $o in
	f) fracs=$OPTARG ;;
	*) common_opt "$o" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- thread process

printf '%-8s %5s %10s %10s %8s %4s %9s %9s\n' shape frac target/s achieved/s error% sat late_p50 late_p99
for shape in "$@"; do
	max=$(for i in 1 2 3 4 5; do
		secs=2 rate --rate max --shape "$shape"
	done | median)
	printf '%-8s %5s %10s %10.1f\n' "$shape" max - "$max"
	for f in $fracs; do
		target=$(awk -v m="$max" -v f="$f" 'BEGIN { printf "%d", m * f }')
		a=$(rate --rate "$target" --shape "$shape")
		printf '%-8s %5s %10s %10.1f %8.3f %4s %9s %9s\n' "$shape" "$f" \
			"$target" "$a" "$(awk -v a="$a" -v t="$target" 'BEGIN { print (a / t - 1) * 100 }')" \
			"$(kv saturated)" "$(kv late_p50_us)" "$(kv late_p99_us)"
	done
done
