#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitsweep(1)'s own I/O example (--kind cohort, sync: work, --delayacct on)
# reports delays only the data support: a record that waited longer than
# it lived (the kernel's "delay = uptime" records right after the sysctl
# flips) is left out of the delay statistics and counted; exitmon's own
# implausible count is carried along.
. "$(dirname "$0")/lib.sh"
need_taskstats
need_exitsweep
need_writable_delayacct
sweep_tmpdir

# the man page's example, its file in our scratch directory, two runs
ex=$(awk '/^\.Sh /{ex = ($2 == "EXAMPLES")} ex && /^\.Bd -literal/{lit = 1; next}
	  ex && /^\.Ed/{lit = 0} ex && lit' "$TOP/man/exitsweep.1" |
	grep -- '--kind cohort.*sync:' | head -1)
check "exitsweep(1) has the I/O example" [ -n "$ex" ]
args=$(echo "$ex" | sed -e 's/^exitsweep //' -e "s|/var/tmp/exitsweep.dat|$T/io.dat|")
# shellcheck disable=SC2086
"$EXITSWEEP" $args --runs 2 --quiet --json "$T/c.json" >"$T/c.out" 2>"$T/c.err"; rc=$?
check "the I/O example runs: exit 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$T/c.err"
diag "exitsweep $args --runs 2"
check "delay accounting restored" [ "$(cat $DA)" = "$da0" ]
check "the table says which records are left out" \
	grep -q 'delays leave out the Excluded records' "$T/c.out"
check "the table counts them" grep -Eq 'Excluded \(all runs\) +Implausible \(all runs\)' "$T/c.out"

python3 - "$T/c.json" >"$T/py.out" 2>&1 <<'PY'; rc=$?
import json, sys
d = json.load(open(sys.argv[1]))
assert d['kind'] == 'cohort' and len(d['runs']) == 4, len(d['runs'])
for r in d['runs']:
    v = r['values']
    # counted, whole numbers, never more than the workers
    assert v['excluded_records'] is not None and v['implausible'] is not None, v
    assert v['excluded_records'] == int(v['excluded_records']) and 0 <= v['excluded_records'] <= 6, v
    # what is left lived at least as long as it waited (10 ms clock slack):
    # a mean delay is below the longest lifetime
    longest_ms = max(r['exit_times_s']) * 1000 if v['excluded_records'] < 6 else 0
    for k in ('cpu_delay_mean_ms', 'blkio_delay_mean_ms', 'cpu_delay_max_ms', 'blkio_delay_max_ms'):
        if v[k] is not None:
            assert v[k] <= longest_ms + 10, (k, v[k], longest_ms, r)
s = [i for i in d['summary'] if i['metric'] == 'excluded_records']
assert len(s) == 2, s
print('ok', sum(r['values']['excluded_records'] for r in d['runs']), 'excluded')
PY
check "every delay statistic below the longest lifetime; exclusions counted" [ $rc -eq 0 ]
sed 's/^/# /' "$T/py.out"
done_testing
