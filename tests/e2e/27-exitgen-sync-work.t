#!/bin/bash
# --work sync: tasks wait for their writes to reach the disk, so with delay
# accounting on their exit records carry block I/O waits; plain write: does
# not wait.  The sysctl is put back whatever happens.
. "$(dirname "$0")/lib.sh"
need_taskstats

DA=/proc/sys/kernel/task_delayacct
da0=$(cat $DA)
trap 'echo "$da0" > $DA; cleanup' EXIT
echo 1 > $DA
F=/var/tmp/exitmon-sync-test.$$
TAG=xsync$$
start_exitmon sync -f csv --comm "$TAG" || nok "collector ready"
"$EXITGEN" --shape process --count 3 --work sync:1M:"$F.a" --tag "$TAG" -q
check "sync: exitgen exits 0" [ $? -eq 0 ]
sleep 0.3
stop_exitmon
echo "$da0" > $DA
python3 - "$T/sync.out" > "$T/c" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), sum(int(r['blkio_count']) > 0 for r in rows),
      sum(int(r['write_bytes']) >= 1 << 20 for r in rows))
PY
read n waited wrote < "$T/c"
check "three records ($n)" [ "$n" -eq 3 ]
check "every task waited for block I/O ($waited of 3)" [ "$waited" -eq 3 ]
check "every task wrote its megabyte ($wrote of 3)" [ "$wrote" -eq 3 ]
check "the file holds the writes" [ "$(stat -c %s "$F.a")" -ge $((1 << 20)) ]
"$EXITGEN" --count 1 --work sync: -q 2>"$T/e"
check "sync: without a size is refused (exit 2)" [ $? -eq 2 ]
rm -f "$F.a"
check "delay accounting restored" [ "$(cat $DA)" = "$da0" ]
done_testing
