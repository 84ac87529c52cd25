#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The collector's performance gate (make instr-gate, run by make check):
# callgrind's instructions per record of `exitmon --replay`, per case,
# against the committed baseline (tests/bench/instr-baseline).  A rise of
# more than 2% fails, naming the case, both counts and the change; a fall
# of more than 2% passes and says to refresh the baseline.
#
#   tests/bench/instr-gate.sh [--write] [--baseline FILE] [--exitmon PATH]
#
# --write (make instr-baseline) rewrites the baseline from this build.
#
# The input is made here from committed data, the same on every machine:
# the packets of five real captures (tests/data/, struct versions 13, 14,
# 16 with and without version-0 TGID records, 17; process exits and thread
# exits with their PID+TGID pairs) over and over, 5,100 records.  Records
# 1,001 to 4,000 are counted (tools/instr-per-record: the difference of two
# --count lengths, so start-up cancels out).
#
# Counts depend on the compiler, its flags, glibc and valgrind: the
# baseline names the toolchain it was taken with, read from the binary
# (its DWARF producer, else its .comment) and the machine.  Under another
# the counts are compared all the same, after one line that says the
# toolchains differ (CI's is the baseline's: Debian 12, gcc 12.2,
# valgrind 3.19).  No privileges, no taskstats; a few seconds.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BASELINE=$TOP/tests/bench/instr-baseline
EXITMON=$TOP/exitmon
WRITE=false
while [ $# -gt 0 ]; do
	case $1 in
	--write) WRITE=true; shift ;;
	--baseline) BASELINE=$2; shift 2 ;;
	--exitmon) EXITMON=$2; shift 2 ;;
	*) sed -n 's/^#   //p' "$0" | sed 's/^/usage: /' >&2; exit 2 ;;
	esac
done
[ -x "$EXITMON" ] || { echo "instr-gate: $EXITMON is not built: run make" >&2; exit 1; }
MAX_RISE=2	# percent
N1=1000 N2=4000 ROUNDS=30
DATA=(real-6.1.176-v13 real-6.12.117-v14 real-6.19.14-v16 real-7.3.4-v17 real-v16)
# The ten columns of tools/bench.sh's BENCH_FIELDS, its --fields row.
FIELDS=type,pid,tgid,comm,uid,exitcode,elapsed_us,utime_us,stime_us,cpu_run_real_ns
# case=exitmon options; each run is in an empty scratch directory
CASES=(
	"csv=-f csv -o out.csv"
	"jsonl=-f jsonl -o out.jsonl"
	"text=-f text -o out.txt"
	"csv-fields=-f csv -F $FIELDS -o out.csv"
	"capture=--capture copy.pcap -o /dev/null"
)

T=$(mktemp -d /tmp/exitmon-instr-gate.XXXXXX)
trap 'rm -rf "$T"' EXIT

# The capture: one pcap file header, then every packet of each file
# ROUNDS times over (the five share their header: netlink, microseconds).
for d in "${DATA[@]}"; do tail -c +25 "$TOP/tests/data/$d.pcap"; done > "$T/round"
{
	head -c 24 "$TOP/tests/data/${DATA[0]}.pcap"
	for ((i = 0; i < ROUNDS; i++)); do cat "$T/round"; done
} > "$T/in.pcap"
"$EXITMON" --replay "$T/in.pcap" -o /dev/null --summary "$T/in.sum" 2>/dev/null
RECORDS=$(sed -n 's/^records=//p' "$T/in.sum")

# The toolchain the counts were taken with, on one line.
toolchain() {
	local cc
	cc=$(readelf --debug-dump=info "$EXITMON" 2>/dev/null |
		sed -n 's/.*DW_AT_producer[^:]*: *\(([^)]*): *\)\{0,1\}//p' |
		sort | uniq -c | sort -rn | sed -n '1s/^ *[0-9]* //p')
	[ -n "$cc" ] || cc="$(readelf -p .comment "$EXITMON" 2>/dev/null |
		sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | tail -1) (no debug info: flags unknown)"
	echo "$cc; $(getconf GNU_LIBC_VERSION 2>/dev/null || echo 'libc unknown');" \
		"$(valgrind --version 2>/dev/null || echo 'no valgrind')"
}
HERE=$(toolchain)

declare -A now
for c in "${CASES[@]}"; do
	# shellcheck disable=SC2086  # the options split on spaces
	now[${c%%=*}]=$("$TOP/tools/instr-per-record" --exitmon "$EXITMON" \
		"$T/in.pcap" "$N1" "$N2" ${c#*=})
done

if $WRITE; then
	old=$(cat "$BASELINE" 2>/dev/null || true)
	{
		echo "# Instructions per record of exitmon --replay, one line a case (callgrind,"
		echo "# records $N1 to $N2; the cases and input: tests/bench/instr-gate.sh)."
		echo "# make instr-gate (in make check) fails on a rise of more than $MAX_RISE%."
		echo "# Rewritten by: make instr-baseline (a commit that moves it says why)"
		echo "# toolchain: $HERE"
		for c in "${CASES[@]}"; do echo "${c%%=*}=${now[${c%%=*}]}"; done
	} > "$BASELINE"
	echo "instr-gate: wrote $BASELINE ($HERE)"
	for c in "${CASES[@]}"; do
		k=${c%%=*}
		was=$(sed -n "s/^$k=//p" <<<"$old")
		printf '  %-12s %10s -> %s\n' "$k" "${was:-none}" "${now[$k]}"
	done
	echo "instr-gate: commit it saying why the counts moved"
	exit 0
fi

[ -r "$BASELINE" ] ||
	{ echo "instr-gate: no baseline $BASELINE: make instr-baseline writes one" >&2; exit 1; }
THEN=$(sed -n 's/^# toolchain: //p' "$BASELINE")
differs=false
if [ "$THEN" != "$HERE" ]; then
	differs=true
	echo "instr-gate: WARNING: toolchain differs from the baseline's ($THEN), here $HERE: compared all the same"
fi
echo "instr-gate: instructions per record of exitmon --replay, records $N1 to $N2" \
	"of $RECORDS (five of tests/data/real-*.pcap, $ROUNDS times over), against $BASELINE"
printf '  %-12s %10s %10s %8s\n' case baseline now change
failed=() said=()
for c in "${CASES[@]}"; do
	k=${c%%=*}
	was=$(sed -n "s/^$k=//p" "$BASELINE")
	if [ -z "$was" ]; then
		printf '  %-12s %10s %10s\n' "$k" none "${now[$k]}"
		said+=("instr-gate: FAIL $k: not in the baseline (make instr-baseline)")
		failed+=("$k")
		continue
	fi
	pct=$(awk -v a="$was" -v b="${now[$k]}" 'BEGIN { printf "%+.1f", (b - a) / a * 100 }')
	printf '  %-12s %10s %10s %7s%%\n' "$k" "$was" "${now[$k]}" "$pct"
	if awk -v a="$was" -v b="${now[$k]}" -v m="$MAX_RISE" 'BEGIN { exit !((b - a) / a * 100 > m) }'; then
		said+=("instr-gate: FAIL $k: ${now[$k]} instructions per record, baseline $was: $pct%, a rise of more than $MAX_RISE%")
		failed+=("$k")
	elif awk -v a="$was" -v b="${now[$k]}" -v m="$MAX_RISE" 'BEGIN { exit !((a - b) / a * 100 > m) }'; then
		said+=("instr-gate: $k fell by more than $MAX_RISE% ($was -> ${now[$k]}, $pct%): passes; refresh the baseline (make instr-baseline) and commit it saying why")
	fi
done
[ ${#said[@]} -eq 0 ] || printf '%s\n' "${said[@]}"
if [ ${#failed[@]} -gt 0 ]; then
	echo "instr-gate: FAILED: ${#failed[@]} of ${#CASES[@]} cases (${failed[*]})$($differs &&
		echo ", under another toolchain than the baseline's: it may be the compiler's doing")"
	exit 1
fi
echo "instr-gate: passed: ${#CASES[@]} cases, none rose more than $MAX_RISE%"
