#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitsweep compare and the instruction clock, on hand-made result files
# (no guest, no privileges): a file of tools/kernel-run --clock
# instructions (unit instr) is never set beside one timed in ns (or one
# from before the unit was recorded, ns): one line naming which file is
# which, exit 1 as for files of different kinds, no table; two files in
# instr get the deltas B - A with the spread of their repeats.
. "$(dirname "$0")/lib.sh"
need_exitsweep

# result FILE UNIT TS_MEAN TS_LO TS_HI COST COST_LO COST_HI: an overhead
# result with one cell mean of taskstats_exit and one tgid cost row
# (UNIT "" leaves the unit out, as files from before it did).
result() {
	python3 - "$@" <<'PY'
import json, sys
path, unit, m, mlo, mhi, c, clo, chi = sys.argv[1:9]
u = unit or 'ns'
name = 'ts_instr_per_exit' if u == 'instr' else 'ts_ns_per_exit'
import os
doc = {'format': os.environ['FORMAT'], 'kind': 'overhead', 'runs_done': 6,
       'runs_planned': 6, 'partial': False,
       'machine': {'hostname': 'guest', 'kernel': path, 'emulated': 'tcg'},
       'config': {'runs': 3, 'count': 300},
       'summary': [
           {'section': 'cost:tgid', 'title': 'Cost per exit, mean a - mean b: tgid on over off',
            'key': 'rate=max listener=none delayacct=keep', 'metric': name,
            'label': 'taskstats_exit', 'unit': u, 'value': float(c), 'lo': float(clo),
            'hi': float(chi), 'significant': True},
           {'section': 'means', 'title': 'Means per cell',
            'key': 'rate=max tgid=on listener=none delayacct=keep', 'metric': name,
            'label': 'taskstats_exit', 'unit': u, 'value': float(m), 'lo': float(mlo),
            'hi': float(mhi), 'significant': None}]}
if unit:
    doc['unit'] = unit
json.dump(doc, open(path, 'w'), indent=2)
PY
}
FORMAT=$(sed -n 's/.*SWEEP_JSON_FORMAT *"\(.*\)".*/\1/p' "$TOP/src/exitsweep/sweep_json.h")
export FORMAT
check "the result format's name ($FORMAT)" [ -n "$FORMAT" ]
cd "$T" || exit 1

result a.json instr 479 479 479 139 139 139
result b.json instr 589 589 589 255 255 255
result n.json ns 612.4 598 626.8 180 90 270
result old.json "" 612.4 598 626.8 180 90 270

# --- a mixed pair: refused, either way round, naming which is which ---
"$EXITSWEEP" compare a.json n.json > c.out 2> c.err; rc=$?
check "instr beside ns: exit 1 (as for files of different kinds)" [ $rc -eq 1 ]
check "instr beside ns: one line, naming both files and their clocks" \
	sh -c "[ \$(wc -l < c.err) -eq 1 ] && grep -q '^exitsweep: a.json counts instructions (made under kernel-run --clock instructions) but n.json times in ns (the ordinary clock): instructions are not time; compare result files of one clock\$' c.err"
check "instr beside ns: no table" [ ! -s c.out ]
"$EXITSWEEP" compare n.json b.json a.json > c.out 2> c.err; rc=$?
check "ns first, then instr: refused too, naming b.json (exit $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q '^exitsweep: n.json times in ns .* but b.json counts instructions' c.err && [ ! -s c.out ]"
"$EXITSWEEP" compare a.json old.json > c.out 2> c.err; rc=$?
check "a file without a unit (older exitsweep) is ns: refused beside instr" \
	sh -c "[ $rc -eq 1 ] && grep -q 'but old.json times in ns' c.err"
"$EXITSWEEP" compare n.json old.json > c.out 2> c.err; rc=$?
check "ns beside a file without a unit: compared (exit $rc)" [ $rc -eq 0 ]
check "...with no delta column" sh -c "! grep -q 'B - A' c.out"

# --- two files in instructions: the deltas with their spread ---
"$EXITSWEEP" compare a.json b.json > c.out 2> c.err; rc=$?
check "instr beside instr: exit 0" [ $rc -eq 0 ]
check "the figures are labelled instr" grep -q 'taskstats_exit instr' c.out
check "a B - A column" grep -q 'B - A' c.out
check "the cost's delta: 255 - 139 = +116, repeats exact: ±0" \
	grep -Eq '^  rate=max listener=none delayacct=keep +taskstats_exit instr +\+139 ±0 +\+255 ±0 +\+116 ±0 *$' c.out
check "exact repeats are evidence in instructions: no '~' on ±0" \
	sh -c "! grep -q '±0~' c.out"
check "the cell mean's delta: 589 - 479 = +110 ±0" \
	grep -Eq 'tgid=on .*taskstats_exit instr +479.0 ±0 +589.0 ±0 +\+110 ±0 *$' c.out
check "says the files count instructions" grep -q '^Every file counts guest instructions' c.out
result c.json instr 480 470 490 139 129 149
"$EXITSWEEP" compare a.json c.json > c.out 2> c.err
check "a spread in the repeats: +1 ±10~ (root of 0² + 10²), not significant" \
	grep -Eq 'tgid=on .*479.0 ±0 +480.0 ±10 +\+1 ±10~ *$' c.out
done_testing
