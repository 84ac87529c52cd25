#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# --work sync: tasks wait for their writes to reach the disk, so with delay
# accounting on their exit records carry block I/O waits; plain write: does
# not wait.  The sysctl is put back whatever happens.
. "$(dirname "$0")/lib.sh"
need_taskstats

need_writable_delayacct
trap 'echo "$da0" > $DA; cleanup' EXIT
F=/var/tmp/exitmon-sync-test.$$
TAG=xsync$$
echo 0 > $DA
# Every record, not only ours: exitmon's implausible counter covers every
# pid record it receives, so the CSV must hold them all to be compared.
start_exitmon sync -f csv || nok "collector ready"
# Switched on just before the tasks start, as exitsweep --delayacct does.
echo 1 > $DA
"$EXITGEN" --shape process --count 3 --work sync:1M:"$F.a" --tag "$TAG" -q; rc=$?
check "sync: exitgen exits 0" [ "$rc" -eq 0 ]
sleep 0.3
stop_exitmon
echo "$da0" > $DA
python3 - "$T/sync.out" "$TAG" > "$T/c" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['comm'] == sys.argv[2]]
print(len(rows), sum(int(r['blkio_count']) > 0 for r in rows),
      sum(int(r['write_bytes']) >= 1 << 20 for r in rows))
PY
read n waited wrote < "$T/c"
# Right after the sysctl is switched on the kernel sometimes reports a
# block I/O wait as long as the uptime; exitmon counts such records.
bad=$(python3 - "$T/sync.out" <<'PY'
import csv, sys
cols = ('cpu_delay_ns', 'blkio_delay_ns', 'swapin_delay_ns', 'freepages_delay_ns',
        'thrashing_delay_ns', 'compact_delay_ns', 'wpcopy_delay_ns', 'irq_delay_ns',
        )
print(sum(any(int(r[c] or 0) > int(r['elapsed_us']) * 1000 + 10**7 for c in cols)
          for r in csv.DictReader(open(sys.argv[1])) if r['type'] == 'pid'))
PY
)
check "implausible records counted as the CSV shows them ($bad)" \
	[ "$(kv "$T/sync.sum" implausible)" -eq "$bad" ]
check "three records ($n)" [ "$n" -eq 3 ]
check "every task waited for block I/O ($waited of 3)" [ "$waited" -eq 3 ]
check "every task wrote its megabyte ($wrote of 3)" [ "$wrote" -eq 3 ]
check "the file holds the writes" [ "$(stat -c %s "$F.a")" -ge $((1 << 20)) ]
"$EXITGEN" --count 1 --work sync: -q 2>"$T/e"; rc=$?
check "sync: without a size is refused (exit 2)" [ "$rc" -eq 2 ]
rm -f "$F.a"
check "delay accounting restored" [ "$(cat $DA)" = "$da0" ]
done_testing
