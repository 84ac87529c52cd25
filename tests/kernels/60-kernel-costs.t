#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/kernel-costs on one kernel, small: the table, CSV, JSON and plot
# come back; the repeats of every cell agree (the clock counts
# instructions); and the figures have the shape the kernel's code gives
# them: a thread's exit costs more than a process's (the tgid accumulator),
# a listener costs more than the accumulator, a second listener less than
# the first (no second message to build), delay accounting adds to a
# thread's exit (fill_tgid_exit adds the delays) and nothing to a process's
# when nobody listens (no fill_stats then).  Its second boot (one vCPU)
# counts the whole exit and each listener per record.
. "$(dirname "$0")/../e2e/lib.sh"
need_taskstats
command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
KC=$TOP/tools/kernel-costs
K=${KERNEL_COSTS:-6.19}

"$KC" --exits 5 --out "$T/u" 2> "$T/u.err"; rc=$?
check "--exits 5: usage error (exit $rc), one line" \
	[ $rc -eq 2 ] && [ "$(wc -l < "$T/u.err")" -eq 1 ]
"$KC" --kernel "$T/no-such-kernel" --out "$T/u" 2> "$T/u.err"; rc=$?
check "a kernel that does not exist: usage error (exit $rc)" [ $rc -eq 2 ]
check "... saying which" grep -q "no-such-kernel" "$T/u.err"

"$KC" --kernel "$K" --exits 300 --listener-exits 2000 --repeats 2 --out "$T/c" > "$T/c.out" 2> "$T/c.err"
rc=$?
check "kernel-costs --kernel $K exits 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/c.err" | sed 's/^/# /'
sed 's/^/# /' "$T/c.out"
for f in costs.txt costs.csv costs.json; do
	check "$f written" [ -s "$T/c/$f" ]
done
if command -v gnuplot >/dev/null; then
	check "costs.png is a PNG" sh -c "file '$T/c/costs.png' | grep -q 'PNG image'"
fi
check "the text says the figures are instructions, not time" \
	grep -q 'instructions (QEMU icount: counts, not time)' "$T/c/costs.txt"
check "the CSV has 12 cells" [ "$(tail -n +2 "$T/c/costs.csv" | wc -l)" -eq 12 ]

python3 - "$T/c/costs.json" > "$T/c/checks" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
k = d["kernels"][0]
off, on = k["differences"]["delayacct_off"], k["differences"]["delayacct_on"]
c = {(x["delayacct"], x["listeners"], x["shape"]): x for x in k["cells"]}
def say(ok, what):
    print(("1" if ok else "0") + " " + what)
say(d["unit"] == "instr", f"unit {d['unit']}")
say(all(x["agree"] for x in k["cells"]), "both repeats agree in every cell (within 0.5%)")
print("# the modes: " + " ".join(f"{x['mode_min']:.0f}..{x['mode_max']:.0f}"
      if x["mode_min"] != x["mode_max"] else f"{x['mode']:.0f}" for x in k["cells"]))
say(all(x["foreign"] == 0 for x in k["cells"]), "no foreign listener met")
say(off["tgid_accumulation"] > 0, f"tgid accumulation {off['tgid_accumulation']:.0f} > 0")
for s in ("thread", "process"):
    f1, f2 = off["first_listener_" + s], off["second_listener_" + s]
    say(f1 > off["tgid_accumulation"], f"{s}: a listener ({f1:.0f}) costs more than the accumulator")
    say(0 < f2 < f1, f"{s}: a second listener ({f2:.0f}) costs less than the first")
say(on["delayacct_thread_0"] > 0, f"delay accounting adds {on['delayacct_thread_0']:.0f} to a thread's exit")
say(on["delayacct_process_0"] == 0, f"and {on['delayacct_process_0']:.0f} to a process's with no listener")
say(c[(0, 0, "process")]["at_mode_share"] >= 0.9,
    f"most calls at the mode ({c[(0, 0, 'process')]['at_mode_share']:.1%} of process exits, no listener)")
w = k["whole_exit_per_exit"]
say(set(w) == {"thread", "process"} and all(1000 < w[s]["median"] < 10**7 for s in w),
    "the whole create+exit counted for both shapes: " +
    ", ".join(f"{s} {w[s]['median']:.0f}" for s in sorted(w)))
L = k["listener_per_record"]
say(len(L) == 6, f"six listeners counted per record ({' '.join(sorted(L))})")
say(all(L[c]["lost"] == 0 for c in L), "none lost a record")
say(all(L[c]["ratio"] > 1 for c in ("csv", "jsonl", "text", "capture") if c in L),
    "exitmon costs more than the floor in every output: " +
    ", ".join(f"{c} {L[c]['ratio']:.2f}" for c in sorted(L)))
PY
while read -r ok what; do
	case $ok in
	1) ok "$what" ;; 0) nok "$what" ;; *) echo "$ok $what" ;;
	esac
done < "$T/c/checks"
check "the JSON checks ran" [ "$(grep -c "^[01] " "$T/c/checks")" -ge 15 ]
done_testing
