#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-exitstat: exitstat's reading speed against a plain awk summary
# of the same file, measured side by side.
#
# Builds a CSV of RECORDS rows (default 10 million) from a real collection
# (tests/data/real-v16.csv: its pid rows repeated with 1000 command names),
# then runs, in ABBA order, `exitstat -f csv` (the default per-command
# summary: 18 figures per group) and an awk script that computes only exits
# and utime+stime per command.  Reports CPU time (user+sys of the child),
# records per second per core, and the ratio.
#
#   tools/bench-exitstat.sh [RECORDS [ROUNDS]]
#
# With --memory GROUPS [MAX_GROUPS]: exitstat -g tgid's peak RSS and time on
# GROUPS records of distinct tgids (the real capture's row, streamed on a
# pipe, so no file of that size is written), with --max-groups MAX_GROUPS
# (default: exitstat's own default), and how many groups it marked partial
# (none came back, so every one is a false mark).  --rising gives record i
# cpu_run_virtual_ns i, so each new group is the largest yet and every fold
# keeps the newest half (without it all figures tie and ties go by key):
# the input that showed 131,257 false partials in 5 million groups.
#
#   tools/bench-exitstat.sh --memory [--rising] 5000000 [MAX_GROUPS]
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
# A pid row of exitmon's CSV: run, seq, time_ns, then type (column 4); pid
# is column 5, tgid 6, comm 8, utime_us 19, stime_us 20.
PID_ROW='^[0-9a-f]*,[0-9]*,[0-9]*,pid,'
if [ "${1:-}" = --memory ]; then
	[ -x "$TOP/exitstat" ] || { echo "bench-exitstat: $TOP/exitstat is not built: run make" >&2; exit 1; }
	rising=0
	[ "${2:-}" = --rising ] && { rising=1; shift; }
	n=${2:?--memory GROUPS}
	max=${3:+--max-groups $3}
	csv=$TOP/tests/data/real-v16.csv
	col=$(head -1 "$csv" | tr , '\n' | grep -nx cpu_run_virtual_ns | cut -d: -f1)
	res=$(mktemp /tmp/exitstat-mem.XXXXXX)
	err=$(mktemp /tmp/exitstat-mem.XXXXXX)
	{ head -1 "$csv"
	  grep -m1 "$PID_ROW" "$csv" |
		awk -F, -v OFS=, -v n="$n" -v col="$((rising ? col : 0))" \
			'{ for (i = 1; i <= n; i++) { $2 = i; $5 = i; $6 = i; if (col) $col = i; print } }'
	} | /usr/bin/time -f '%M %e' -o "$res" "$TOP/exitstat" -g tgid -f csv $max >/dev/null 2>"$err"
	read -r kib secs <"$res"
	partial=$(grep -o '[0-9]* groups marked partial' "$err" | cut -d' ' -f1 || true)
	rm -f "$res" "$err"
	echo "bench-exitstat: $n groups${max:+ ($max)}$( ((rising)) && echo ', rising'): peak RSS $((kib / 1024)) MiB, $secs s, ${partial:-0} marked partial"
	exit 0
fi
RECORDS=${1:-10000000}
ROUNDS=${2:-2}
T=$(mktemp -d /tmp/exitstat-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
[ -x "$TOP/exitstat" ] || { echo "bench-exitstat: $TOP/exitstat is not built: run make" >&2; exit 1; }

head -1 "$TOP/tests/data/real-v16.csv" >"$T/big.csv"
grep "$PID_ROW" "$TOP/tests/data/real-v16.csv" >"$T/rows"
awk -F, -v OFS=, -v n="$RECORDS" '
	{ row[NR] = $0 } END {
		for (i = 0; i < n; i++) {
			$0 = row[i % NR + 1]; $2 = i + 1; $5 = i; $8 = "cmd" (i % 1000); print
		}
	}' "$T/rows" >>"$T/big.csv"
size=$(stat -c %s "$T/big.csv")
echo "bench-exitstat: $RECORDS records, $((size / 1048576)) MiB, $(nproc) CPUs, $ROUNDS ABBA rounds" >&2

# cpu CMD...: user+sys seconds of CMD (its output discarded)
cpu() {
	local TIMEFORMAT='%U + %S'
	{ time "$@" >/dev/null 2>&1; } 2>&1 | bc
}
run_exitstat() { "$TOP/exitstat" -f csv "$T/big.csv"; }
run_awk() {
	awk -F, 'NR > 1 && $4 == "pid" { n[$8]++; c[$8] += $19 + $20 }
		 END { for (k in n) print k "," n[k] "," c[k] }' "$T/big.csv"
}
cat "$T/big.csv" >/dev/null	# page cache warm for both
: >"$T/res"
for r in $(seq "$ROUNDS"); do
	for p in exitstat awk awk exitstat; do
		echo "$p $(cpu "run_$p")" >>"$T/res"
	done
done
awk -v n="$RECORDS" '
	{ s[$1] += $2; k[$1]++ }
	END {
		e = s["exitstat"] / k["exitstat"]; a = s["awk"] / k["awk"]
		printf "exitstat: %.2f s CPU, %.2f M records/s per core\n", e, n / e / 1e6
		printf "awk:      %.2f s CPU, %.2f M records/s per core\n", a, n / a / 1e6
		printf "ratio exitstat/awk records per second: %.1f\n", a / e
	}' "$T/res"
