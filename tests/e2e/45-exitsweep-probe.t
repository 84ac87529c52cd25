#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitsweep --probe: each overhead run under exitprobe.  Per cell the
# in-kernel ts_ns_per_exit, tgid_on_share ~1 for thread exits and ~0 for
# process exits, listener_share ~1 with a listener; a cell whose exits
# met a collector the sweep did not start (with a listener of its own or
# not) is marked, says how many exits did, and is left out of the
# comparisons; fentry falls back or is refused in one line;
# --probe off says so once; under the instruction clock a probe in ns is
# refused, and the files say their unit.  The probe's own cost (a flat-out loop's
# speed under it over alone; its BPF time and samples per exit) is in the
# header, the JSON and the CSV.
. "$(dirname "$0")/lib.sh"
need_taskstats
need_exitsweep "$EXITPROBE"
sweep_tmpdir

"$EXITSWEEP" --probe sometimes >/dev/null 2>"$T/u.err"; rc=$?
check "--probe sometimes: usage error" sh -c "[ $rc -eq 2 ] && grep -q -- \"--probe: 'sometimes' (auto, fentry, sample or off)\" '$T/u.err'"
"$EXITSWEEP" --kind reap --probe sample >/dev/null 2>"$T/u2.err"; rc=$?
check "--probe with --kind reap: usage error" sh -c "[ $rc -eq 2 ] && grep -q -- '--probe applies to --kind overhead only' '$T/u2.err'"

"$EXITPROBE" --method sample --summary "$T/p.sum" -- /bin/true 2>"$T/p.err"; rc=$?
[ $rc -eq 121 ] && skip_all "BPF is not usable here: $(tail -1 "$T/p.err")"

# a collector the sweep does not know of: every exit meets a listener
start_exitmon foreign -f csv || { echo "Bail out! exitmon did not start"; exit 1; }
"$EXITSWEEP" --probe sample --rates 2000 --count 2000 --runs 2 --tgid on,off \
	--listener none,batch --seed 3 --json "$T/s.json" --csv "$T/s.csv" >"$T/s.out" 2>"$T/s.err"; rc=$?
stop_exitmon
check "--probe sample sweep: exit 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/s.err"
check "the probe is named once at the top" \
	sh -c "[ \$(grep -c '^exitsweep: probe sample' '$T/s.err') -eq 1 ] && grep -q '^probe: exitprobe .*sample' '$T/s.out'"
check "the probe's own cost in the header: the flat-out speed ratio, BPF time and samples per exit" \
	sh -c "grep -Eq '^probe cost: a flat-out thread exit loop ran at [0-9]+\\.[0-9]+ of its speed under the probe \\(3 ABBA blocks of 2000 exits' '$T/s.out' && grep -Eq '^  in the runs its BPF programs took [0-9.]+ to [0-9.]+ ns per exit and it took [0-9.]+ to [0-9.]+ samples per exit' '$T/s.out'"
check "the main table: taskstats_exit in ns per exit" \
	grep -q '^What tgid accumulation costs per thread exit' "$T/s.out"
check "no-listener cells that met the foreign collector are marked" \
	sh -c "grep -Eq '^ +2000 +on +none\\* ' '$T/s.out' && grep -Eq '^ +2000 +off +none\\* ' '$T/s.out'"
check "listener cells that met it too are marked (their per-exit cost carries its reply)" \
	sh -c "grep -Eq '^ +2000 +on +batch\\* ' '$T/s.out' && grep -Eq '^ +2000 +off +batch\\* ' '$T/s.out'"
check "the per-cell table says how many exits met a foreign listener" \
	sh -c "grep -q 'Foreign' '$T/s.out' && grep -Eq '^ +2000 +on +batch\\* .* [0-9]+ of 4[0-9]{3}\$' '$T/s.out'"
check "... and left out of the comparison" grep -q 'excluded\*' "$T/s.out"
check "the 2006 table comes second, marked tick-sampled" \
	sh -c "grep -n 'TICK-SAMPLED' '$T/s.out' | cut -d: -f1 | { read l; [ \$l -gt \$(grep -n '^What tgid' '$T/s.out' | cut -d: -f1) ]; }"

python3 - "$T/s.json" "$T/s.csv" >"$T/py.out" 2>&1 <<'PY'; rc=$?
import csv, json, sys
d = json.load(open(sys.argv[1]))
assert d['config']['probe'] == 'sample', d['config']
pc = d['config']['probe_cost']
assert len(pc['blocks']) == 3 and pc['exits_per_run'] == 2000, pc
assert pc['speed_ratio'] > 0 and pc['speed_ratio_lo'] <= pc['speed_ratio'] <= pc['speed_ratio_hi'], pc
assert pc['alone_rate'] > 0 and pc['probed_rate'] > 0, pc
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows and all(abs(float(r['probe_speed_ratio']) - pc['speed_ratio']) < 1e-6 for r in rows), rows[0]
assert all(float(r['probe_samples_per_exit']) > 0 for r in rows if r['row'] == 'run'), rows[0]
assert d['machine']['exitprobe_version'].startswith('exitprobe '), d['machine']
for c in d['cells']:
    dims, m = c['dimensions'], c['metrics']
    ts = m['ts_ns_per_exit']
    assert ts['n'] == 2 and ts['mean'] > 0, c
    share = m['tgid_on_share']['mean']
    if dims['tgid'] == 'on':
        assert share >= 0.99, ('thread exits', share)
    else:
        assert share <= 0.01, ('process exits', share)
    assert m['listener_share']['mean'] >= 0.99, c
    assert m['probe_samples_per_exit']['n'] == 2 and m['probe_samples_per_exit']['mean'] > 0, c
    assert m['probe_bpf_ns_per_exit']['n'] == 2 and m['probe_bpf_ns_per_exit']['mean'] > 0, c
    assert c['foreign_listener'] is True, c
    # every exit met the foreign collector, with or without ours
    assert m['foreign_listener_exits']['sum'] > 0, c
for k in d['comparisons']:
    for f in k['figures']:
        assert f['excluded'] is True and f['overhead_pct'] is None, f
print('ok')
PY
check "per cell: ts_ns_per_exit, tgid_on_share ~1 threads ~0 processes, listener_share ~1, all cells met the foreign listener and are excluded; the probe's cost in JSON and CSV" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/py.out"

# fentry: used where the kernel allows trampolines, else refused in one line
"$EXITSWEEP" --probe fentry --rates max --count 300 --runs 2 --tgid on --listener none \
	--quiet --json "$T/f.json" >"$T/f.out" 2>"$T/f.err"; rc=$?
if [ $rc -eq 0 ]; then
	check "--probe fentry: used" python3 -c "
import json, sys; assert json.load(open(sys.argv[1]))['config']['probe'] == 'fentry'" "$T/f.json"
else
	check "--probe fentry refused here: exit 1, one line with the reason" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$T/f.err') -eq 1 ] && grep -q '^exitsweep: --probe fentry cannot run: ' '$T/f.err'"
fi

"$EXITSWEEP" --probe off --rates max --count 300 --runs 2 --tgid on --listener none \
	--json "$T/o.json" >"$T/o.out" 2>"$T/o.err"; rc=$?
check "--probe off: exit 0, said once at the top" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c 'probe off' '$T/o.err') -eq 1 ] && grep -q '^probe: off (--probe off)' '$T/o.out'"
check "--probe off: no in-kernel figures" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['config']['probe'] == 'off' and 'probe_cost' not in d['config']
assert all(c['metrics']['ts_ns_per_exit']['n'] == 0 for c in d['cells'])" "$T/o.json"
check "--probe off: no probe cost measured or reported" \
	sh -c "! grep -q 'probe cost' '$T/o.out' '$T/o.err'"

# The instruction clock (EXITMON_CLOCK=instructions, as kernel-run sets
# it) with a probe whose summary says ns (another environment, or an
# exitprobe from before the clock): never mixed into the sweep's figures.
printf '#!/bin/sh\nexec env -u EXITMON_CLOCK "%s" "$@"\n' "$EXITPROBE" >"$T/probe-ns"
chmod 755 "$T/probe-ns"
EXITMON_CLOCK=instructions "$EXITSWEEP" --probe sample --exitprobe "$T/probe-ns" \
	--rates max --count 100 --runs 2 --tgid on --listener none -q >"$T/m.out" 2>"$T/m.err"; rc=$?
check "instruction clock, --probe sample in ns: exit 1, one line saying why" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$T/m.err') -eq 1 ] && grep -q '^exitsweep: --probe sample cannot run: exitprobe gives its figures in ns, but the clock counts instructions' '$T/m.err'"
EXITMON_CLOCK=instructions "$EXITSWEEP" --exitprobe "$T/probe-ns" --rates max \
	--count 100 --runs 2 --tgid on --listener none -q --json "$T/m.json" \
	--csv "$T/m.csv" >"$T/m.out" 2>"$T/m.err"; rc=$?
check "instruction clock, --probe auto in ns: the probe off, the header says why" \
	sh -c "[ $rc -eq 0 ] && grep -q '^probe: off: exitprobe gives its figures in ns' '$T/m.out'"
check "instruction clock: JSON unit instr, keys and CSV columns in instr" python3 -c "
import csv, json, sys
d = json.load(open(sys.argv[1]))
assert d['unit'] == 'instr', d['unit']
assert 'cpu_instr_per_exit' in d['runs'][0]['values'] and 'cpu_us_per_exit' not in d['runs'][0]['values']
r = next(csv.DictReader(open(sys.argv[2])))
assert r['unit'] == 'instr' and 'user_instr' in r and 'user_s' not in r
" "$T/m.json" "$T/m.csv"
check "the machine's own clock: JSON and CSV unit ns" python3 -c "
import csv, json, sys
assert json.load(open(sys.argv[1]))['unit'] == 'ns'
assert next(csv.DictReader(open(sys.argv[2])))['unit'] == 'ns'
" "$T/s.json" "$T/s.csv"
done_testing
