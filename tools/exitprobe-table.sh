#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The exitprobe figures of docs/results/ (2026-12-02-exitprobe-classes.md
# and 2026-12-02-exitprobe-cost.md), as commands (run as root):
#
#   tools/exitprobe-table.sh table [-n EXITS] [-r RATE] [-w SECONDS]
#       taskstats_exit() ns per exit for thread and process exits, each
#       without and with an exitmon listener (declared with --listener-pid):
#       one `exitprobe --method sample` run of EXITS exits (40000) at RATE
#       exits/s (4000) per cell.  On a machine where other collectors come
#       and go, -w waits up to SECONDS before each cell for a moment when a
#       short probe sees no listener at all, and reruns a cell (up to 3
#       times) that met a foreign one; the "foreign" column says whether
#       a cell is clean anyway.
#   tools/exitprobe-table.sh overhead [-b BLOCKS] [-d SECONDS] [-p US]
#       what the probe costs the workload: `exitgen --shape thread --rate
#       max` alone and under exitprobe, in ABBA blocks (alone, probed,
#       probed, alone) of SECONDS (1) each; BLOCKS (5) blocks; the probe
#       samples every US microseconds (100); prints the
#       median rates and the median of the per-block ratios probed/alone.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
EXITPROBE=${EXITPROBE:-$TOP/exitprobe}
EXITGEN=${EXITGEN:-$TOP/exitgen}
EXITMON=${EXITMON:-$TOP/exitmon}
tmp=$(mktemp -d)
mon=
trap '[ -n "$mon" ] && kill "$mon" 2>/dev/null; rm -rf "$tmp"' EXIT

kv() { sed -n "s/^$2=//p" "$1"; }

# median: of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# quiet: no listener met by 200 exits (none of ours runs at that time).
quiet() {
	"$EXITPROBE" --method sample --summary "$tmp/q.sum" -q -- \
		"$EXITGEN" --shape process --count 200 --rate 2000 -q &&
		[ "$(kv "$tmp/q.sum" exits_listener)" -eq 0 ]
}

wait_quiet() {
	end=$(( $(date +%s) + wait_s ))
	until [ "$wait_s" -eq 0 ] || quiet || [ "$(date +%s)" -ge "$end" ]; do
		sleep 2
	done
}

cell() { # cell SHAPE LISTENER-ARGS...
	shape=$1; shift
	for try in 1 2 3; do
		wait_quiet
		"$EXITPROBE" --method sample --summary "$tmp/c.sum" -q "$@" -- \
			"$EXITGEN" --shape "$shape" --count "$n" --rate "$rate" -q
		[ "$wait_s" -eq 0 ] || [ "$(kv "$tmp/c.sum" exits_foreign_listener)" -eq 0 ] &&
			break
	done
	f=$tmp/c.sum
	printf '| %s | %s | %s | %s | %s | %.0f ± %.0f |' "$shape" "$label" \
		"$(kv "$f" exits)" "$(kv "$f" exits_tgid_on)" \
		"$(kv "$f" exits_foreign_listener)" "$(kv "$f" ns_per_exit)" \
		"$(kv "$f" ns_per_exit_ci95)"
	for k in self fill_stats fill_tgid_exit alloc mk_reply netlink_unicast other; do
		printf ' %.0f |' "$(kv "$f" "ns_per_exit_in_$k")"
	done
	printf ' %s |\n' "$(kv "$f" samples)"
}

table() {
	n=40000 rate=4000 wait_s=0
	while getopts n:r:w: o; do
		case $o in
		n) n=$OPTARG ;; r) rate=$OPTARG ;; w) wait_s=$OPTARG ;; *) exit 2 ;;
		esac
	done
	echo "| shape | listener | exits | tgid on | foreign | ns/exit ± 95% | self | fill_stats | fill_tgid_exit | alloc | mk_reply | netlink_unicast | other | samples |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for shape in thread process; do
		label=none
		cell "$shape"
		"$EXITMON" -f csv -o /dev/null --pidfile "$tmp/mon.pid" 2>/dev/null &
		mon=$!
		while [ ! -s "$tmp/mon.pid" ]; do sleep 0.05; done
		label=exitmon
		cell "$shape" --listener-pid "$mon"
		kill "$mon"; wait "$mon" || true
		mon=; rm -f "$tmp/mon.pid"
	done
}

rate_of() { # rate_of probed|alone
	if [ "$1" = probed ]; then
		"$EXITPROBE" --method sample --period "$period" -q -- \
			"$EXITGEN" --shape thread \
			--rate max --duration "$secs" -q --summary "$tmp/g.sum"
	else
		"$EXITGEN" --shape thread --rate max --duration "$secs" -q \
			--summary "$tmp/g.sum"
	fi
	kv "$tmp/g.sum" achieved_rate
}

overhead() {
	blocks=5 secs=1 period=100
	while getopts b:d:p: o; do
		case $o in
		b) blocks=$OPTARG ;; d) secs=$OPTARG ;; p) period=$OPTARG ;;
		*) exit 2 ;;
		esac
	done
	: > "$tmp/a"; : > "$tmp/p"; : > "$tmp/r"
	for i in $(seq "$blocks"); do
		a1=$(rate_of alone); p1=$(rate_of probed)
		p2=$(rate_of probed); a2=$(rate_of alone)
		echo "$a1" >> "$tmp/a"; echo "$a2" >> "$tmp/a"
		echo "$p1" >> "$tmp/p"; echo "$p2" >> "$tmp/p"
		awk -v a="$a1" -v b="$a2" -v c="$p1" -v d="$p2" \
			'BEGIN { printf "%.4f\n", (c + d) / (a + b) }' >> "$tmp/r"
	done
	echo "alone:  median $(median < "$tmp/a") exits/s"
	echo "probed: median $(median < "$tmp/p") exits/s"
	echo "ratio probed/alone: median $(median < "$tmp/r") of $blocks ABBA blocks" \
		"(min $(sort -g "$tmp/r" | head -1), max $(sort -g "$tmp/r" | tail -1))"
}

what=${1:-}
[ $# -gt 0 ] && shift
case $what in
table) table "$@" ;;
overhead) overhead "$@" ;;
*) echo "usage: $0 table [-n EXITS] [-r RATE] [-w SECONDS] | overhead [-b BLOCKS] [-d SECONDS] [-p US]" >&2; exit 2 ;;
esac
