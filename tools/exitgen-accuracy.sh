#!/bin/sh
# Rate accuracy of exitgen's open-loop pacing: measure the flat-out rate of
# each shape (median of 5 runs), then run targets at fractions of it and
# print achieved rate, error and lateness.
#
#   tools/exitgen-accuracy.sh [-d SECONDS] [-w WORKERS] [-f "FRACTIONS"] [SHAPE...]
#
# Defaults: 3-second runs, 1 worker, fractions "0.2 0.4 0.6 0.8", shapes
# thread and process.
set -eu
EXITGEN=${EXITGEN:-$(dirname "$0")/../exitgen}
secs=3 workers=1 fracs="0.2 0.4 0.6 0.8"
while getopts d:w:f: o; do
	case $o in
	d) secs=$OPTARG ;;
	w) workers=$OPTARG ;;
	f) fracs=$OPTARG ;;
	*) echo "usage: $0 [-d SECONDS] [-w WORKERS] [-f FRACTIONS] [SHAPE...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- thread process
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kv() { sed -n "s/^$1=//p" "$tmp/s"; }

printf '%-8s %5s %10s %10s %8s %4s %9s %9s\n' shape frac target/s achieved/s error% sat late_p50 late_p99
for shape in "$@"; do
	for i in 1 2 3 4 5; do
		"$EXITGEN" --shape "$shape" --workers "$workers" --rate max \
			--duration 2 -q --summary "$tmp/s"
		kv achieved_rate
	done | sort -g | sed -n 3p >"$tmp/max"
	max=$(cat "$tmp/max")
	printf '%-8s %5s %10s %10.1f\n' "$shape" max - "$max"
	for f in $fracs; do
		target=$(awk -v m="$max" -v f="$f" 'BEGIN { printf "%d", m * f }')
		"$EXITGEN" --shape "$shape" --workers "$workers" --rate "$target" \
			--duration "$secs" -q --summary "$tmp/s"
		a=$(kv achieved_rate)
		printf '%-8s %5s %10s %10.1f %8.3f %4s %9s %9s\n' "$shape" "$f" \
			"$target" "$a" "$(awk -v a="$a" -v t="$target" 'BEGIN { print (a / t - 1) * 100 }')" \
			"$(kv saturated)" "$(kv late_p50_us)" "$(kv late_p99_us)"
	done
done
