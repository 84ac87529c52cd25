# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tools/exitgen-*.sh: exitgen's path, a scratch folder, the
# options every script takes (-d SECONDS, -w WORKERS), one run's achieved
# rate, and quantiles.  A script sets secs, workers and USAGE first.
EXITGEN=${EXITGEN:-$(dirname "$0")/../exitgen}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

usage() { echo "usage: $0 $USAGE" >&2; exit 2; }

# common_opt LETTER: take -d or -w (value in OPTARG); otherwise a usage error.
common_opt() {
	case $1 in
	d) secs=$OPTARG ;;
	w) workers=$OPTARG ;;
	*) usage ;;
	esac
}

# rate ARG...: one exitgen run of secs seconds on workers spawners with
# ARG... (a mode and --shape), its achieved rate; the summary in $tmp/s.
rate() {
	"$EXITGEN" "$@" --workers "$workers" --duration "$secs" -q \
		--summary "$tmp/s" && kv achieved_rate
}

kv() { sed -n "s/^$1=//p" "$tmp/s"; }

# quantile Q: the Q-quantile of the numbers on stdin (linear interpolation
# between order statistics, as stats_percentile in src/common/stats.c).
quantile() {
	sort -g | awk -v q="$1" '{ v[NR] = $1 } END {
		h = (NR - 1) * q; lo = int(h); f = h - lo
		if (f == 0)	# an order statistic itself, as written
			print v[lo + 1]
		else
			printf "%.17g\n", v[lo + 1] + f * (v[lo + 2] - v[lo + 1]) }'
}
median() { quantile 0.5; }
