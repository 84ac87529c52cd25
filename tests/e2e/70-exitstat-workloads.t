#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# exitstat against a real collection: two tagged exitgen workloads with known
# counts and work, collected by exitmon as CSV and as a pcap capture (and
# the capture replayed to JSON lines).  The summary's counts, CPU and I/O
# agree with what exitgen reports and with the CSV summed independently
# (Python's csv module); the three formats of the same run give the same
# summary.
. "$(dirname "$0")/lib.sh"
need_taskstats
EXITSTAT=$TOP/exitstat
[ -x "$EXITSTAT" ] && [ -x "$EXITGEN" ] || { echo "Bail out! exitstat/exitgen not built"; exit 1; }

A=stxa$$ B=stxb$$	# within comm's 15 bytes
NA=40 NB=10 WORK_US=2000 WBYTES=65536
start_exitmon run -f csv --comm "stx*$$" --capture "$T/run.pcap" || { nok "exitmon ready"; done_testing; }
"$EXITGEN" --shape process --count $NA --rate 400 --work cpu:$WORK_US --tag $A \
	--summary "$T/a.gen" -q; rca=$?
"$EXITGEN" --shape group:2 --count $NB --rate 100 --work write:$WBYTES:"$T/wfile" \
	--tag $B --summary "$T/b.gen" -q; rcb=$?
sleep 0.3
stop_exitmon
check "exitgen runs exit 0" [ $rca -eq 0 -a $rcb -eq 0 ]
check "collector lost nothing" [ "$(kv "$T/run.sum" dropped)" = 0 ]
"$EXITMON" --replay "$T/run.pcap" -f jsonl --comm "stx*$$" -o "$T/run.jsonl" 2>/dev/null

"$EXITSTAT" -f csv "$T/run.out" >"$T/csv.sum" 2>"$T/csv.err"; rc=$?
check "exitstat on the CSV exits 0" [ $rc -eq 0 ]
"$EXITSTAT" -f csv "$T/run.jsonl" >"$T/jsonl.sum" 2>/dev/null
"$EXITSTAT" -f csv --comm "stx*$$" "$T/run.pcap" >"$T/pcap.sum" 2>/dev/null
check "JSON lines give the same summary as CSV" cmp -s "$T/csv.sum" "$T/jsonl.sum"
check "the pcap capture gives the same summary as CSV" cmp -s "$T/csv.sum" "$T/pcap.sum"
check "a note says how pid and tgid rows were counted" \
	grep -q "pid rows summed, $NB tgid rows not summed" "$T/csv.err"

# The same figures from the CSV, summed with Python's csv module.
python3 - "$T/run.out" "$T/csv.sum" >"$T/indep.out" <<'PY'
import csv, sys
recs = [r for r in csv.DictReader(open(sys.argv[1], newline='', encoding='latin-1'))
        if r['type'] == 'pid']
got = {r['comm']: r for r in csv.DictReader(open(sys.argv[2], newline=''))}
bad = 0
for comm in sorted({r['comm'] for r in recs}):
    rs = [r for r in recs if r['comm'] == comm]
    want = {
        'exits': len(rs),
        'cpu_us': sum(int(r['utime_us']) + int(r['stime_us']) for r in rs),
        'cpu_run_virtual_ns': sum(int(r['cpu_run_virtual_ns']) for r in rs),
        'elapsed_us': sum(int(r['elapsed_us']) for r in rs),
        'cpu_delay_ns': sum(int(r['cpu_delay_ns']) for r in rs),
        'read_bytes': sum(int(r['read_bytes']) for r in rs),
        'write_bytes': sum(int(r['write_bytes']) for r in rs),
        'hiwater_rss_kb': max(int(r['hiwater_rss_kb']) for r in rs),
        'cpu_delay_max_ns': max(int(r['cpu_delay_max_ns']) for r in rs),
    }
    for k, v in want.items():
        if int(got[comm][k]) != v:
            print("# %s %s: exitstat %s, python %d" % (comm, k, got[comm][k], v))
            bad += 1
print("mismatches", bad)
PY
check "every figure equals the CSV summed independently" grep -qx "mismatches 0" "$T/indep.out"
grep '^#' "$T/indep.out"

col() { # col COMM NAME: a figure of exitstat's CSV summary (COMM "": the total row)
	python3 -c 'import csv,sys; print(next(r[sys.argv[3]] for r in csv.DictReader(open(sys.argv[1])) if (r["comm"]==sys.argv[2] if sys.argv[2] else r["row"]=="total")))' "$T/csv.sum" "$1" "$2"
}
check "$A: $NA exits, as exitgen made ($(kv "$T/a.gen" exits))" \
	[ "$(col $A exits)" -eq $NA -a "$(kv "$T/a.gen" exits)" -eq $NA ]
check "$B: $((2 * NB)) exits: $NB groups of 2 threads" [ "$(col $B exits)" -eq $((2 * NB)) ]
# CPU: the kernel's exact run time (sum_exec_runtime) against exitgen's
# getrusage of its reaped children, which the kernel scales to the same
# total; at least the work asked for.
run_ns=$(col $A cpu_run_virtual_ns)
gen_ns=$(python3 -c "import sys; print(int((float(sys.argv[1]) + float(sys.argv[2])) * 1e9))" \
	"$(kv "$T/a.gen" user_children)" "$(kv "$T/a.gen" sys_children)")
diag "$A: exitstat cpu_run_virtual_ns=$run_ns, exitgen children user+sys=${gen_ns} ns"
check "$A: CPU agrees with exitgen's within 5%" python3 -c \
	"import sys; a,b=int(sys.argv[1]),int(sys.argv[2]); sys.exit(not abs(a-b) <= 0.05*b)" "$run_ns" "$gen_ns"
check "$A: CPU is at least the work asked for ($NA x $WORK_US us)" \
	[ "$run_ns" -ge $((NA * WORK_US * 1000)) ]
check "$B: write_bytes = $NB x $WBYTES" [ "$(col $B write_bytes)" -eq $((NB * WBYTES)) ]
check "the total row is the sum of the two" [ "$(col "" exits)" -eq $((NA + 2 * NB)) ]

# Group by tgid: the group shape makes NB processes of 2 threads each.
"$EXITSTAT" -f csv -g tgid --comm $B "$T/run.out" 2>/dev/null >"$T/tgid.sum"
check "-g tgid: $NB groups, 2 exits each" python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["row"] == "group"]
sys.exit(not (len(rows) == int(sys.argv[2]) and all(r["exits"] == "2" for r in rows)))' "$T/tgid.sum" $NB
# Listing: one line per pid row of the filtered command.
"$EXITSTAT" --list --comm $A "$T/run.out" >"$T/list.out" 2>/dev/null
check "-l lists the $NA exits of $A" [ "$(grep -c "^$A " "$T/list.out")" -eq $NA ]
"$EXITSTAT" --list -f csv --comm $A "$T/run.out" >"$T/list.csv" 2>/dev/null
check "-l -f csv writes exitmon's own rows" \
	[ "$(head -1 "$T/list.csv")" = "$(head -1 "$T/run.out")" -a "$(grep -c "^${ROW}pid,.*,$A," "$T/list.csv")" -eq $NA ]
done_testing
