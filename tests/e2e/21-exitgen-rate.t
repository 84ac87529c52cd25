#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# Open-loop pacing: a run keeps its promise, which is one of two: the
# target rate within 1% with the exact number of exits, or, when the
# machine cannot keep up (a busy machine may not, even at 500/s), a
# "saturated" report whose lateness figures account for the shortfall
# against the schedule.  Never a bare timing.  The JSON report and the
# summary file carry the same keys and values.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }

within() { # within ACHIEVED TARGET PERCENT
	python3 -c "import sys; a,t,p=map(float,sys.argv[1:]); sys.exit(abs(a/t-1)*100>p)" "$@"
}

# promise NAME RATE EXITS STOPPED_BY WORKERS EXITGEN-ARGS...: run exitgen
# (text report in $T/NAME.txt, summary in $T/NAME.sum); check the promise.
promise() {
	local name=$1 rate=$2 n=$3 by=$4 w=$5 rc a s; shift 5
	s=$T/$name.sum
	"$EXITGEN" "$@" --summary "$s" >"$T/$name.txt"; rc=$?
	check "$name: exit 0" [ "$rc" -eq 0 ]
	a=$(kv "$s" achieved_rate)
	diag "$name: achieved $a, late p50 $(kv "$s" late_p50_us) us, p99 $(kv "$s" late_p99_us) us," \
		"max $(kv "$s" late_max_us) us, reap max $(kv "$s" reap_max_us) us"
	check "$name: stopped by $by" [ "$(kv "$s" stopped_by)" = "$by" ]
	if [ "$(kv "$s" saturated)" = 0 ]; then
		check "$name: $n exits" [ "$(kv "$s" exits)" -eq "$n" ]
		check "$name: within 1% (got $a)" within "$a" "$rate" 1
		check "$name: the text gives the rate" sh -c "! grep -q SATURATED '$T/$name.txt'"
	else
		diag "$name: saturated (a busy machine?)"
		check "$name: saturated, and more than 1% below (got $a)" \
			python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 0.99 * $rate)" "$a"
		check "$name: saturated, the text says so" grep -q SATURATED "$T/$name.txt"
		check "$name: saturated, no more than $n exits" [ "$(kv "$s" exits)" -le "$n" ]
		check "$name: saturated, lateness accounts for it: $(pace_explained "$s" "$rate" "$w")" \
			pace_explains "$s" "$rate" "$w"
	fi
}

for shape in thread process; do
	for rate in 500 2000; do
		promise "$shape-$rate" $rate $((2 * rate)) duration 1 \
			--shape $shape --rate $rate --duration 2
	done
done

# Two spawners share one schedule: the count is exact, the rate holds.
promise w2 2000 3000 count 2 --shape process --rate 2000 --count 3000 --workers 2
check "2 workers: exactly 3000 exits" [ "$(kv "$T/w2.sum" exits)" -eq 3000 ]

# Far beyond the machine: saturated, said plainly, and still stopped at
# its duration (plus the grace, a tenth of it) by the clock, not the count.
"$EXITGEN" --shape thread --rate 5000000 --duration 0.5 >"$T/sat.txt" --summary "$T/sat.sum"; rc=$?
check "saturated run: exit 0" [ "$rc" -eq 0 ]
check "saturated run: saturated=1" [ "$(kv "$T/sat.sum" saturated)" = 1 ]
check "saturated run: the text says SATURATED" grep -q SATURATED "$T/sat.txt"
check "saturated run: achieved below target" \
	python3 -c "import sys; sys.exit(float(sys.argv[1]) >= 5000000)" "$(kv "$T/sat.sum" achieved_rate)"
check "saturated run: stopped by duration" [ "$(kv "$T/sat.sum" stopped_by)" = duration ]
check "saturated run: lateness accounts for it: $(pace_explained "$T/sat.sum" 5000000 1)" \
	pace_explains "$T/sat.sum" 5000000 1
check "saturated run: issued nothing after its duration and grace" python3 - "$T/sat.sum" <<'PY'
import sys
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[1]))
sys.exit(not float(kv['elapsed']) - float(kv['reap_max_us']) * 1.02e-6 <= 0.55 + 0.01)
PY

# JSON and summary: the same keys, the same values, readable by a real
# JSON parser; the contract keys are all there.
"$EXITGEN" --shape group:2 --rate 1000 --count 300 --json --summary "$T/j.sum" >"$T/j.json"
check "JSON and summary agree" python3 - "$T/j.json" "$T/j.sum" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[2]))
need = ('exits target_rate achieved_rate elapsed user sys user_self sys_self '
        'user_children sys_children saturated late_p50_us late_p99_us '
        'late_max_us shape tag tasks_created stopped_by cpu_unit cpu_self '
        'cpu_children cpu_total cpu_per_exit').split()
assert all(k in kv for k in need), [k for k in need if k not in kv]
assert list(j) == list(kv), (list(j), list(kv))
for k, v in j.items():
    assert str(v) == kv[k] or abs(float(v) - float(kv[k])) < 1e-9, (k, v, kv[k])
assert kv['shape'] == 'group:2' and kv['exits'] == '300'
PY
# The exact CPU: its parts add up, per exit is the total over the exits,
# and it is the sum getrusage gives (both are the scheduler's runtime,
# read a moment apart); ns on this machine.
check "exact CPU: parts, per exit, unit ns, and getrusage's sum" python3 - "$T/j.sum" <<'PY'
import sys
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[1]))
self_, ch, tot = int(kv['cpu_self']), int(kv['cpu_children']), int(kv['cpu_total'])
assert kv['cpu_unit'] == 'ns', kv['cpu_unit']
assert self_ > 0 and ch > 0 and tot == self_ + ch, (self_, ch, tot)
assert abs(float(kv['cpu_per_exit']) - tot / 300) < 0.1, kv['cpu_per_exit']
ru = (float(kv['user']) + float(kv['sys'])) * 1e9
assert abs(tot - ru) < 0.02 * ru + 1e6, (tot, ru)
PY
check "every summary key is documented in exitgen(1)" python3 - "$T/j.sum" "$TOP/man/exitgen.1" <<'PY'
import sys
man = open(sys.argv[2]).read()
keys = [l.split('=', 1)[0] for l in open(sys.argv[1])]
missing = [k for k in keys if k not in man]
assert not missing, missing
PY
done_testing
