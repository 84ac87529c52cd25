#!/bin/bash
# Open-loop pacing: short runs hit the target rate within 1% for the thread
# and process shapes, with the exact number of exits; a target beyond the
# machine is reported as saturated, not as reached.  The JSON report and
# the summary file carry the same keys and values.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }

within() { # within ACHIEVED TARGET PERCENT
	python3 -c "import sys; a,t,p=map(float,sys.argv[1:]); sys.exit(abs(a/t-1)*100>p)" "$@"
}

for shape in thread process; do
	for rate in 500 2000; do
		s=$T/$shape-$rate.sum
		"$EXITGEN" --shape $shape --rate $rate --duration 2 -q --summary "$s"; rc=$?
		check "$shape at $rate/s: exit 0" [ "$rc" -eq 0 ]
		a=$(kv "$s" achieved_rate)
		diag "$shape $rate/s: achieved $a, late p50 $(kv "$s" late_p50_us) us, p99 $(kv "$s" late_p99_us) us"
		check "$shape at $rate/s: $((2 * rate)) exits" [ "$(kv "$s" exits)" -eq $((2 * rate)) ]
		check "$shape at $rate/s: within 1% (got $a)" within "$a" $rate 1
		check "$shape at $rate/s: not saturated" [ "$(kv "$s" saturated)" = 0 ]
		check "$shape at $rate/s: stopped by duration" [ "$(kv "$s" stopped_by)" = duration ]
	done
done

# Two spawners share one schedule: the count is exact, the rate holds.
"$EXITGEN" --shape process --rate 2000 --count 3000 --workers 2 -q --summary "$T/w2.sum"
check "2 workers: exactly 3000 exits" [ "$(kv "$T/w2.sum" exits)" -eq 3000 ]
check "2 workers: within 1%" within "$(kv "$T/w2.sum" achieved_rate)" 2000 1
check "2 workers: stopped by count" [ "$(kv "$T/w2.sum" stopped_by)" = count ]

# Far beyond the machine: saturated, said plainly.
"$EXITGEN" --shape thread --rate 5000000 --duration 0.5 >"$T/sat.txt" --summary "$T/sat.sum"; rc=$?
check "saturated run: exit 0" [ "$rc" -eq 0 ]
check "saturated run: saturated=1" [ "$(kv "$T/sat.sum" saturated)" = 1 ]
check "saturated run: the text says SATURATED" grep -q SATURATED "$T/sat.txt"
check "saturated run: achieved below target" \
	python3 -c "import sys; sys.exit(float(sys.argv[1]) >= 5000000)" "$(kv "$T/sat.sum" achieved_rate)"
check "saturated run: ends with its duration" \
	python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 1.5)" "$(kv "$T/sat.sum" elapsed)"

# JSON and summary: the same keys, the same values, readable by a real
# JSON parser; the contract keys are all there.
"$EXITGEN" --shape group:2 --rate 1000 --count 300 --json --summary "$T/j.sum" >"$T/j.json"
check "JSON and summary agree" python3 - "$T/j.json" "$T/j.sum" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[2]))
need = ('exits target_rate achieved_rate elapsed user sys user_self sys_self '
        'user_children sys_children saturated late_p50_us late_p99_us '
        'late_max_us shape tag tasks_created stopped_by').split()
assert all(k in kv for k in need), [k for k in need if k not in kv]
assert list(j) == list(kv), (list(j), list(kv))
for k, v in j.items():
    assert str(v) == kv[k] or abs(float(v) - float(kv[k])) < 1e-9, (k, v, kv[k])
assert kv['shape'] == 'group:2' and kv['exits'] == '300'
PY
check "every summary key is documented in exitgen(1)" python3 - "$T/j.sum" "$TOP/man/exitgen.1" <<'PY'
import sys
man = open(sys.argv[2]).read()
keys = [l.split('=', 1)[0] for l in open(sys.argv[1])]
missing = [k for k in keys if k not in man]
assert not missing, missing
PY
done_testing
