#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# exitsweep end to end: a real tiny sweep against the kernel with exitmon
# and exitgen, its tables, progress, CSV and JSON read back with Python's
# own readers (the overhead formula recomputed from the runs), the SVG, the
# machine record, compare, the seeded order, and the refusals before any
# run (bad options, missing programs, gnuplot, delay accounting unprivileged).
. "$(dirname "$0")/lib.sh"
need_taskstats
need_exitsweep
delayacct_now
sweep_tmpdir

# --- refusals: exit 2 for usage, before anything runs ---
usage() { # usage DESCRIPTION ARGS...: exit 2 and a one-line message
	d=$1; shift
	"$EXITSWEEP" "$@" >"$T/u.out" 2>"$T/u.err"; rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$T/u.err")" -eq 1 ] && grep -q '^exitsweep: ' "$T/u.err"; then
		ok "$d"
	else
		nok "$d (rc $rc)"; sed 's/^/# /' "$T/u.err"
	fi
}
usage "unknown option" --frobnicate
usage "--runs 1 (no interval from one run)" --runs 1
usage "--rates 0" --rates 0
usage "--rates junk" --rates 500,fast
usage "--rates repeated" --rates 500,500
usage "--tgid maybe" --tgid maybe
usage "--listener recv" --listener recv
usage "--delayacct sometimes" --delayacct sometimes
usage "--kind bogus" --kind bogus
usage "--rates with --kind reap" --kind reap --rates 500
usage "--background with --kind overhead" --background 100
usage "cohort without a listener" --kind cohort --listener none
usage "--work junk" --kind cohort --work sleep:5
usage "--count with --kind cohort" --kind cohort --count 5
usage "stray argument" extra
usage "compare without files" compare
usage "--exitgen that is not there" --exitgen "$T/nothing"
check "--version" sh -c "'$EXITSWEEP' --version | grep -q '^exitsweep [0-9]'"
check "--help lists --delayacct and compare" \
	sh -c "'$EXITSWEEP' --help | grep -q -- '--delayacct MODE' && '$EXITSWEEP' --help | grep -q 'compare RESULT.json'"

# --- gnuplot missing: said at once, exit 1, nothing run ---
mkdir "$T/nopath"
PATH=$T/nopath "$EXITSWEEP" --plot "$T/x.svg" --rates max --count 10 --runs 2 \
	>"$T/g.out" 2>"$T/g.err"; rc=$?
check "no gnuplot: exit 1" [ $rc -eq 1 ]
check "no gnuplot: clear message" grep -q 'gnuplot, which is not installed' "$T/g.err"
check "no gnuplot: no run started" sh -c "! grep -q 'run 1 of' '$T/g.err'"

# --- delay accounting needs root: refuse, leave it alone ---
if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	PUBLIC_SWEEP=$(public_bin)/exitsweep
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PUBLIC_SWEEP" --delayacct both --listener none --rates max --count 10 --runs 2 \
		>"$T/p.out" 2>"$T/p.err"; rc=$?
	check "unprivileged --delayacct both: exit 1" [ $rc -eq 1 ]
	check "unprivileged: one line naming the sysctl" \
		sh -c "[ \$(wc -l <'$T/p.err') -eq 1 ] && grep -q 'needs to write /proc/sys/kernel/task_delayacct' '$T/p.err'"
	check "unprivileged: sysctl untouched" [ "$(cat $DA)" = "$da0" ]
	# no listener, no sysctl: an unprivileged sweep runs
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PUBLIC_SWEEP" --listener none --rates max --tgid off --count 50 --runs 2 --quiet \
		>"$T/p2.out" 2>"$T/p2.err"; rc=$?
	check "unprivileged sweep without a listener runs" \
		sh -c "[ $rc -eq 0 ] && grep -q 'Means per cell' '$T/p2.out'"
else
	nok "setpriv cannot drop privileges here"
fi

# --- a real tiny sweep ---
"$EXITSWEEP" --rates 2000,max --count 300 --runs 2 --listener none,batch,wakeup \
	--seed 5 --csv "$T/s.csv" --json "$T/s.json" --plot "$T/s.svg" \
	>"$T/s.out" 2>"$T/s.err"; rc=$?
check "sweep: exit 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/s.err"
check "sweep: the 2006 table" grep -q '^%ovhd of tgid on over off' "$T/s.out"
check "sweep: listener batch over none" grep -q '^%ovhd of listener batch over no listener' "$T/s.out"
check "sweep: listener wakeup over none" grep -q '^%ovhd of listener wakeup over no listener' "$T/s.out"
check "sweep: header has User Sys Elapsed and achieved rates" \
	grep -Eq 'Exit rate +Achieved on/off +Listener +User +Sys +Elapsed' "$T/s.out"
check "sweep: loss table" grep -q '^Loss: records received' "$T/s.out"
check "sweep: machine line" grep -q "Linux $(uname -r)" "$T/s.out"
check "sweep: progress, run i of n with time left" \
	sh -c "grep -q 'run 1 of 24 (' '$T/s.err' && grep -q 'run 24 of 24 (.*elapsed, about' '$T/s.err'"
check "sweep: delay accounting untouched (keep)" [ "$(cat $DA)" = "$da0" ]
check "sweep: scratch directory removed" [ -z "$(ls -A "$T/tmp")" ]

python3 - "$T/s.csv" "$T/s.json" "$(uname -r)" "$(nproc)" >"$T/py.out" 2>&1 <<'EOF'
import csv, json, sys
csvp, jsonp, kernel, ncpu = sys.argv[1:5]
rows = list(csv.DictReader(open(csvp, newline='')))
runs = [r for r in rows if r['row'] == 'run']
cells = [r for r in rows if r['row'] == 'cell']
assert len(runs) == 24, len(runs)
assert len(cells) == 12, len(cells)
for r in rows:
    assert r['kernel'] == kernel and r['cpus'] == ncpu, r
    assert int(r['struct_version']) >= 8, r['struct_version']
    assert r['cpu_model'] and r['exitmon_version'].startswith('exitmon ')
for r in runs:
    if r['listener'] == 'none':
        assert r['records'] == '' and r['lost'] == '', r
    else:
        assert int(r['records']) + int(r['lost']) == int(r['exits']) == 300, r
    assert float(r["user_s"]) >= 0 and float(r["sys_s"]) >= 0 and float(r["elapsed_s"]) > 0
    assert len(r['tag']) <= 15
assert len({r['tag'] for r in runs}) == 24
d = json.load(open(jsonp))
assert d['format'] == 'exitsweep/1' and d['kind'] == 'overhead'
m = d['machine']
assert m['kernel'] == kernel and m['cpus'] == int(ncpu) and m['taskstats_version'] >= 8
assert m['exitgen_version'].startswith('exitgen ')
assert d['config']['seed'] == 5 and d['config']['runs'] == 2
assert len(d['runs']) == 24
secs = [c['section'] for c in d['comparisons']]
assert secs == ['tgid', 'listener:batch', 'listener:wakeup'], secs
# the overhead formula, recomputed from the runs themselves
vals = {}
for r in d['runs']:
    vals.setdefault(r['cell'], []).append(r['values'])
n = 0
for c in d['comparisons']:
    for f in c['figures']:
        a = [v[f['metric']] for v in vals[f['a_cell']] if v[f['metric']] is not None]
        b = [v[f['metric']] for v in vals[f['b_cell']] if v[f['metric']] is not None]
        n += 1
        if f['excluded']:   # a cell met a foreign listener
            assert f['overhead_pct'] is None and f['diff'] is None, f
            continue
        if len(a) < 2 or len(b) < 2:   # no probe here: no ts_ns_per_exit
            assert f['overhead_pct'] is None and f['metric'] == 'ts_ns_per_exit', f
            continue
        ma, mb = sum(a) / len(a), sum(b) / len(b)
        # the runs' values are in the file to 9 digits (%.9g); the figures
        # were made from the exact ones
        slack = 1e-8 * (abs(ma) + abs(mb))
        assert abs(f['diff'] - (ma - mb)) <= 1e-6 * max(1, abs(ma - mb)) + slack, f
        if f['overhead_pct'] is None:   # n/a: nothing to divide by
            assert mb == 0 and f['significant'] is None, f
            continue
        want = (ma - mb) / mb * 100
        got = f['overhead_pct']
        assert abs(got - want) <= 1e-6 * max(1, abs(want)) + slack / abs(mb) * 100, (f, want)
        assert f['ci_lo'] <= got <= f['ci_hi'], f
        # never significant when a cell's runs are all equal
        sig = (f['ci_lo'] > 0 or f['ci_hi'] < 0) and len(set(a)) > 1 and len(set(b)) > 1
        assert f['significant'] == sig, f
# 6 metrics (ts_ns, cpu_us, machine_cpu_us, user, sys, elapsed) x
# tgid: 2 rates x 3 listeners; batch, wakeup: 2 rates x 2 tgid
assert n == 6 * (6 + 2 * 4), n
for c in d['cells']:
    m = c['metrics']
    assert m['cpu_us_per_exit']['n'] == 2 and m['cpu_us_per_exit']['mean'] > 0, c
    assert m['machine_cpu_us_per_exit']['n'] == 2, c
    if c['dimensions']['listener'] != 'none':
        assert m['monitor_us_per_record']['mean'] > 0, c
for r in d['runs']:
    v = r['values']
    want = (v['user_s'] + v['sys_s']) / v['exits'] * 1e6
    assert abs(v['cpu_us_per_exit'] - want) <= 1e-6 * want, r
assert all(l['expected'] == 600 for l in d['loss'])
print('ok', n)
EOF
check "CSV and JSON read back; overhead = (on - off) / off x 100 from the runs" grep -q '^ok' "$T/py.out"
grep -q '^ok' "$T/py.out" || sed 's/^/# /' "$T/py.out"
check "SVG is well-formed XML with panels" python3 -c "
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
assert r.tag.endswith('svg')
t = open(sys.argv[1]).read()
assert 'tgid on over off' in t and 'lost and dropped' in t
" "$T/s.svg"

# --- compare ---
cp "$T/s.json" "$T/other.json"
"$EXITSWEEP" compare "$T/s.json" "$T/other.json" >"$T/c.out" 2>"$T/c.err"; rc=$?
check "compare: exit 0" [ "$rc" -eq 0 ]
check "compare: machines A and B" sh -c "grep -q '^  A  ' '$T/c.out' && grep -q '^  B  ' '$T/c.out'"
check "compare: a row per cell and figure" \
	grep -Eq 'rate=2000 listener=batch delayacct=keep +Sys ' "$T/c.out"
echo '{"format": "something else"}' >"$T/bad.json"
"$EXITSWEEP" compare "$T/s.json" "$T/bad.json" >/dev/null 2>"$T/cb.err"; rc=$?
check "compare: a foreign file is refused, exit 1" \
	sh -c "[ $rc -eq 1 ] && grep -q 'not an exitsweep result file' '$T/cb.err'"

# --- the same seed gives the same order ---
for i in 1 2; do
	"$EXITSWEEP" --listener none --rates 5000,max --count 50 --runs 2 --seed 99 \
		--probe off --quiet --json "$T/o$i.json" >/dev/null 2>&1
done
check "same seed, same run order" python3 -c "
import json, sys
o = [[r['cell'] for r in json.load(open(f))['runs']] for f in sys.argv[1:]]
assert o[0] == o[1] and o[0] != sorted(o[0]), o
" "$T/o1.json" "$T/o2.json"

done_testing
