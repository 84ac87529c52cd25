#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An interrupted sweep (SIGINT) says so in every result file: JSON and CSV
# are marked partial with runs done of planned, and the plot of what
# finished is still drawn (a valid SVG, no gnuplot error).  compare shows
# each side's runs, and refuses result files of different kinds.
. "$(dirname "$0")/lib.sh"
need_taskstats
need_exitsweep
command -v gnuplot >/dev/null || { echo "Bail out! gnuplot not installed (tools/deps.sh)"; exit 1; }
sweep_tmpdir

# 16 runs, half of them of 1000 exits at 1000/s (a second each); stop
# once run 4 started (a fast run may already be done: N says how many)
"$EXITSWEEP" --rates 1000,max --count 1000 --runs 2 --listener none,batch \
	--probe off --seed 7 --csv "$T/i.csv" --json "$T/i.json" --plot "$T/i.svg" \
	>"$T/i.out" 2>"$T/i.err" &
SW=$!
_pids="$_pids $SW"
for i in $(seq 600); do
	grep -q 'run 4 of 16' "$T/i.err" && break
	sleep 0.05
done
kill -INT $SW
wait $SW; rc=$?
check "interrupted sweep: killed by SIGINT (status 130)" [ $rc -eq 130 ]
[ $rc -eq 130 ] || sed 's/^/# /' "$T/i.err"
N=$(sed -n 's/.*interrupted by signal 2 after \([0-9]*\) of 16 runs.*/\1/p' "$T/i.err")
check "interrupted sweep: says so on stderr, after 3 to 15 of 16 runs" \
	in_range "$N" 3 15
check "interrupted sweep: the report says partial" grep -q "^$N of 16 runs in .*INTERRUPTED: partial results" "$T/i.out"
check "interrupted sweep: no gnuplot error" sh -c "! grep -qi 'gnuplot\|range is invalid' '$T/i.err'"
check "interrupted sweep: scratch directory removed" [ -z "$(ls -A "$T/tmp")" ]

python3 - "$T/i.json" "$T/i.csv" "$T/i.svg" "$N" >"$T/py.out" 2>&1 <<'PY'; rc=$?
import csv, json, sys
import xml.etree.ElementTree as ET
n = int(sys.argv[4])
d = json.load(open(sys.argv[1]))
assert d['partial'] is True and d['runs_done'] == n and d['runs_planned'] == 16, d
assert len(d['runs']) == n, len(d['runs'])
rows = list(csv.DictReader(open(sys.argv[2], newline='')))
assert rows and all(r['partial'] == 'true' and r['runs_done'] == str(n) and
                    r['runs_planned'] == '16' for r in rows), rows[0]
assert len([r for r in rows if r['row'] == 'run']) == n
svg = ET.parse(sys.argv[3]).getroot()
assert svg.tag.endswith('svg'), svg.tag
text = open(sys.argv[3]).read()
assert '%d of 16 runs (INTERRUPTED: partial)' % n in text, 'plot title'
assert text.count('<path') > 20, 'an empty plot'
PY
check "interrupted sweep: JSON and CSV partial ($N of 16), the SVG valid and drawn" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/py.out"

# --- compare: each side's runs; files of different kinds refused ---
"$EXITSWEEP" --rates max --count 200 --runs 2 --listener none --probe off \
	--quiet --json "$T/full.json" >/dev/null 2>"$T/f.err"; rc=$?
check "a short complete sweep" [ $rc -eq 0 ]
"$EXITSWEEP" compare "$T/i.json" "$T/full.json" >"$T/c.out" 2>"$T/c.err"; rc=$?
check "compare: exit 0" [ $rc -eq 0 ]
check "compare: the partial side's runs" grep -Eq "^  A +$T/i.json +overhead +$N of 16, partial +2 x 1000 " "$T/c.out"
check "compare: the full side's runs" grep -Eq "^  B +$T/full.json +overhead +4 of 4 +2 x 200 " "$T/c.out"
"$EXITSWEEP" --kind reap --count 10 --background 0 --mmap none --runs 2 \
	--quiet --json "$T/reap.json" >/dev/null 2>"$T/r.err"; rc=$?
check "a short reap sweep" [ $rc -eq 0 ]
"$EXITSWEEP" compare "$T/full.json" "$T/reap.json" >"$T/k.out" 2>"$T/k.err"; rc=$?
check "compare of different kinds: exit 1" [ $rc -eq 1 ]
check "compare of different kinds: one line naming both kinds" \
	sh -c "[ \$(wc -l <'$T/k.err') -eq 1 ] && grep -q '^exitsweep: .*kind overhead but .*reap.json one of kind reap: compare result files of one kind' '$T/k.err'"
check "compare of different kinds: no table" [ ! -s "$T/k.out" ]
done_testing
