#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# The classic lifecycle tests and the other modes: background children,
# the shared mapping, cohorts, batches, kill and reap, work that writes.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }

gt0() { python3 -c "import sys; sys.exit(not float(sys.argv[1]) > 0)" "$1"; }

# Fork and reap among other children: every exit timed, the others killed
# and reaped at the end, and timed too.
s=$T/bg.sum
"$EXITGEN" --shape fork --count 100 --background 300 -q --summary "$s"; rc=$?
check "background: exit 0" [ "$rc" -eq 0 ]
check "background: 100 exits" [ "$(kv "$s" exits)" = 100 ]
check "background: 300 children kept" [ "$(kv "$s" background)" = 300 ]
check "background: kill and reap timed" gt0 "$(kv "$s" kill_background_s)"
check "background: create+reap timed" gt0 "$(kv "$s" reap_p50_us)"
check "background: p50 <= p99 <= max" python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); sys.exit(not a<=b<=c)" \
	"$(kv "$s" reap_p50_us)" "$(kv "$s" reap_p99_us)" "$(kv "$s" reap_max_us)"
check "background: none left" [ "$(kv "$s" children_left)" = 0 ]

# The shared mapping, anonymous and in a named file.
"$EXITGEN" --shape fork --count 50 --mmap 64M -q --summary "$T/map.sum"; rc=$?
check "mmap: exit 0" [ "$rc" -eq 0 ]
check "mmap: size reported" [ "$(kv "$T/map.sum" mmap_bytes)" = 67108864 ]
"$EXITGEN" --shape fork --count 10 --mmap 1M:"$T/mapfile" -q
check "mmap PATH: the file has the size" [ "$(stat -c %s "$T/mapfile")" = 1048576 ]
check "mmap PATH: its pages were written" [ "$(tr -d '\0' <"$T/mapfile" | wc -c)" = 256 ]

# Kill and reap: a batch of waiting children killed on the schedule.
s=$T/kill.sum
"$EXITGEN" --shape fork --batch 100 --count 100 --exit-by signal --background 100 -q --summary "$s"; rc=$?
check "kill+reap: exit 0" [ "$rc" -eq 0 ]
check "kill+reap: 100 exits" [ "$(kv "$s" exits)" = 100 ]
check "kill+reap: timed" gt0 "$(kv "$s" kill_reap_s)"
check "kill+reap: exit_by=signal" [ "$(kv "$s" exit_by)" = signal ]

# Batches released on a schedule keep the rate.
s=$T/batch.sum
"$EXITGEN" --shape thread --batch 50 --rate 1000 --count 500 -q --summary "$s"
check "batch: 500 exits" [ "$(kv "$s" exits)" = 500 ]
check "batch: mode=batch" [ "$(kv "$s" mode)" = batch ]
# (or, on a machine too busy to keep it, says so and its lateness shows why)
if [ "$(kv "$s" saturated)" = 0 ]; then
	check "batch: rate within 2%" python3 -c "import sys; sys.exit(abs(float(sys.argv[1])/1000-1) > 0.02)" "$(kv "$s" achieved_rate)"
else
	check "batch: saturated, lateness accounts for it: $(pace_explained "$s" 1000 50)" \
		pace_explains "$s" 1000 50
fi

# Cohorts in every shape: every finish time reported, in order, grouped.
for shape in thread process fork group:2; do
	"$EXITGEN" --cohort 6 --shape $shape --work cpu:30000 --summary "$T/c.sum" >"$T/c.txt"; rc=$?
	check "cohort $shape: exit 0" [ "$rc" -eq 0 ]
	check "cohort $shape: 6 tasks" [ "$(kv "$T/c.sum" cohort_n)" = 6 ]
	check "cohort $shape: 6 finish times printed" \
		[ "$(sed -n 's/^  finished *//p' "$T/c.txt" | wc -w)" = 6 ]
	check "cohort $shape: consistent figures" python3 - "$T/c.sum" <<'PY'
import sys
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[1]))
f, l, s = (float(kv[k]) for k in ('cohort_first_s', 'cohort_last_s', 'cohort_spread_s'))
g = [int(x) for x in kv['cohort_groups'].split(',')]
assert 0 < f <= l and abs(l - f - s) < 2e-6, (f, l, s)
assert f >= 0.03 * 0.9, f          # each burnt 30 ms of CPU at least
assert sum(g) == 6 and len(g) == int(kv['cohort_ngroups']), g
t = [float(x) for x in kv['cohort_finish_s'].split(',')]
assert len(t) == 6 and t == sorted(t) and t[0] == f and t[-1] == l, t
PY
done

# Work that writes: offsets cycle over 64 slots of the size.
"$EXITGEN" --shape fork --count 10 --work write:4K:"$T/wfile" -q
check "write: 10 tasks wrote 10 x 4 KiB at their offsets" [ "$(stat -c %s "$T/wfile")" = 40960 ]
"$EXITGEN" --shape process --count 100 --work write:1K:"$T/wfile2" --work touch:32K --work cpu:10 -q
check "write+touch+cpu in process tasks" [ "$(stat -c %s "$T/wfile2")" = 65536 ]
done_testing
