#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make soak: millions of exits at a high rate with exitmon writing CSV.
# Reports records lost (must be 0), the collector's RSS at start and end
# (must stay flat) and its CPU time per record.
#
#   tools/soak.sh [EXITS]      (default 10000000; SOAK_RATE=max)
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
EXITS=${1:-${SOAK_EXITS:-10000000}}
RATE=${SOAK_RATE:-max}
TAG=soak$$
T=$(mktemp -d /tmp/exitmon-soak.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$T"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "soak: needs root (CAP_NET_ADMIN)" >&2; exit 1; }

kv() { sed -n "s/^$2=//p" "$1"; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

"$TOP/exitmon" -f csv -o "$T/out.csv" --comm "$TAG" --summary "$T/mon.sum" \
	--pidfile "$T/mon.pid" --stats 60 &
mon=$!
for _ in $(seq 200); do [ -s "$T/mon.pid" ] && break; sleep 0.05; done
[ -s "$T/mon.pid" ] || { echo "soak: exitmon did not start" >&2; exit 1; }
rss0=$(rss $mon)
# The output would reach gigabytes: keep only the last part.
( while kill -0 $mon 2>/dev/null; do sleep 30; : > "$T/out.csv"; done ) &
echo "soak: $EXITS thread exits at rate $RATE, exitmon pid $mon, RSS ${rss0} KiB" >&2
"$TOP/exitgen" --shape thread --rate "$RATE" --workers "$(nproc)" \
	--count "$EXITS" --tag "$TAG" --summary "$T/gen.sum" >/dev/null
sleep 0.5
rss1=$(rss $mon)
kill -TERM $mon; wait $mon
matched=$(kv "$T/mon.sum" matched)
lost=$((EXITS - matched))
printf 'exits %s at %.0f/s for %.0f s\n' "$EXITS" "$(kv "$T/gen.sum" achieved_rate)" "$(kv "$T/gen.sum" elapsed)"
printf 'records received %s, lost %s (dropped %s, ENOBUFS %s, unwritten %s)\n' \
	"$matched" "$lost" "$(kv "$T/mon.sum" dropped)" "$(kv "$T/mon.sum" enobufs)" "$(kv "$T/mon.sum" unwritten)"
printf 'collector RSS %s KiB at start, %s KiB at end; peak %s KiB\n' "$rss0" "$rss1" "$(kv "$T/mon.sum" max_rss_kb)"
printf 'collector CPU %.2f us per record (user %s s, sys %s s)\n' \
	"$(kv "$T/mon.sum" cpu_us_per_record)" "$(kv "$T/mon.sum" cpu_user)" "$(kv "$T/mon.sum" cpu_sys)"
[ "$lost" -eq 0 ] && [ "$rss1" -le $((rss0 + 1024)) ]
