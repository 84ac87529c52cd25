#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# Every exitgen shape yields exactly the pid and tgid records it should,
# as seen by a real exitmon filtering on the run's tag.
#
#   thread   N pid records, all with tgid = exitgen's pid, no tgid record.
#            The tasks are threads of exitgen, so the kernel sums them into
#            exitgen's tgid accumulator, but the tgid record goes out only
#            when exitgen's whole thread group dies, in the same message as
#            the pid record of its last task: the main thread, which exitgen
#            names "exitgen-main" (never a tag) before it makes any task.
#            So the tag matches no tgid record; a second pass below checks
#            that the record is there, attributed to exitgen-main.
#   process  N pid records, each its own tgid, no tgid record (single-
#            threaded processes have no tgid accumulator).
#   fork     the same as process.
#   group:3  3N pid records, N tgid records (one per group death), each
#            group's three pid records share the tgid of its record.
# exitmon missing is a failure, not a skip: this is the contract between the
# two programs.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }

N=50

# count_records CSV EXITGEN_PID SHAPE: prints
# "pid_records tgid_records pid_with_exitgen_tgid own_tgid distinct_tgids
#  groups_ok"
count_records() {
	python3 - "$@" <<'PY'
import collections, csv, sys
path, egpid, shape = sys.argv[1], sys.argv[2], sys.argv[3]
with open(path, newline='') as f:
    rows = list(csv.DictReader(f))
pid = [r for r in rows if r['type'] == 'pid']
tg = [r for r in rows if r['type'] == 'tgid']
in_eg = sum(1 for r in pid if r['tgid'] == egpid and r['pid'] != egpid)
own = sum(1 for r in pid if r['tgid'] == r['pid'])
by_tgid = collections.Counter(r['tgid'] for r in pid)
groups_ok = int(all(by_tgid[r['tgid']] == 3 for r in tg) and
                len(set(r['tgid'] for r in tg)) == len(tg))
print(len(pid), len(tg), in_eg, own, len(by_tgid), groups_ok)
PY
}

# run_shape SHAPE: collector on a fresh tag, one exitgen run, stop.
run_shape() {
	shape=$1 name=sh-${1%%:*}
	tag=eg25$(printf %.4s "$1")$$	# within 15 bytes
	start_exitmon $name -f csv --comm "$tag" || return 1
	"$EXITGEN" --shape "$shape" --count $N --rate 500 --tag "$tag" -q \
		--summary "$T/$name.gen" 2>"$T/$name.generr" &
	EGPID=$!
	wait $EGPID; EGRC=$?
	# no wait: every record is sent before its task is reaped or joined,
	# and the collector drains its socket when it stops
	stop_exitmon
}

for shape in thread process fork group:3; do
	if ! run_shape $shape; then
		nok "$shape: exitmon ready"
		continue
	fi
	name=sh-${shape%%:*}
	check "$shape: exitgen exit 0" [ "$EGRC" -eq 0 ]
	check "$shape: exitgen made $N exits" [ "$(kv "$T/$name.gen" exits)" = $N ]
	check "$shape: collector lost nothing" [ "$(kv "$T/$name.sum" dropped)" = 0 ]
	read np ntg ineg own ntgids gok < <(count_records "$T/$name.out" $EGPID $shape)
	diag "$shape: pid=$np tgid=$ntg in_exitgen=$ineg own_tgid=$own tgids=$ntgids"
	case $shape in
	thread)
		check "thread: $N pid records (got $np)" [ "$np" -eq $N ]
		check "thread: all in exitgen's group (got $ineg)" [ "$ineg" -eq $N ]
		check "thread: no tgid record (got $ntg)" [ "$ntg" -eq 0 ] ;;
	process|fork)
		check "$shape: $N pid records (got $np)" [ "$np" -eq $N ]
		check "$shape: each its own process (got $own)" [ "$own" -eq $N ]
		check "$shape: $N distinct tgids (got $ntgids)" [ "$ntgids" -eq $N ]
		check "$shape: no tgid record (got $ntg)" [ "$ntg" -eq 0 ] ;;
	group:3)
		check "group:3: $((3 * N)) pid records (got $np)" [ "$np" -eq $((3 * N)) ]
		check "group:3: $N tgid records (got $ntg)" [ "$ntg" -eq $N ]
		check "group:3: $N groups (got $ntgids)" [ "$ntgids" -eq $N ]
		check "group:3: each tgid record has its 3 threads" [ "$gok" -eq 1 ] ;;
	esac
	check "$shape: matched = records" \
		[ "$(kv "$T/$name.sum" matched)" -eq $((np + ntg)) ]
done

# --exit-by signal: the records carry the signal (exit code 9, SIGKILL);
# tasks that exit by themselves carry 0.
exitcodes() { # exitcodes CSV: the distinct exit codes of the pid records
	python3 - "$1" <<'PY'
import csv, sys
print(','.join(sorted({r['exitcode'] for r in csv.DictReader(open(sys.argv[1], newline=''))
                       if r['type'] == 'pid'})) or '-')
PY
}
check "exit: pid records carry exit code 0" [ "$(exitcodes "$T/sh-process.out")" = 0 ]
for shape in process fork group:2; do
	name=sig-${shape%%:*} tag=eg25k$(printf %.4s $shape)$$
	start_exitmon $name -f csv --comm "$tag" || { nok "$name: exitmon ready"; continue; }
	"$EXITGEN" --shape $shape --exit-by signal --count 20 --rate 200 --tag "$tag" -q \
		--summary "$T/$name.gen"
	stop_exitmon
	per=1; [ $shape = group:2 ] && per=2
	read np ntg ineg own ntgids gok < <(count_records "$T/$name.out" 0 $shape)
	check "signal $shape: $((20 * per)) pid records (got $np)" [ "$np" -eq $((20 * per)) ]
	check "signal $shape: all killed by signal 9 (got $(exitcodes "$T/$name.out"))" \
		[ "$(exitcodes "$T/$name.out")" = 9 ]
	check "signal $shape: kill_reap_s reported" [ -n "$(kv "$T/$name.gen" kill_reap_s)" ]
done

# The tgid record of exitgen itself: a thread-shape run, collected without
# a comm filter and picked out by exitgen's pid.  Its threads other than the
# tasks are the main thread and one spawner; the tgid record comes with the
# main thread's pid record, whose comm is exitgen-main.
start_exitmon self -f csv || nok "self: exitmon ready"
"$EXITGEN" --shape thread --count $N --rate 1000 --tag eg25self$$ -q &
EGPID=$!
wait $EGPID
stop_exitmon
read ours tgrec last_comm < <(python3 - "$T/self.out" $EGPID <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline=''))
        if r['tgid'] == sys.argv[2]]
pid = [r for r in rows if r['type'] == 'pid']
tg = [r for r in rows if r['type'] == 'tgid']
main = [r for r in pid if r['pid'] == sys.argv[2]]
print(len(pid), len(tg), main[0]['comm'] if main else '-')
PY
)
diag "self: pid records in exitgen's group=$ours tgid=$tgrec main comm=$last_comm"
check "self: N tasks + spawner + main pid records (got $ours)" [ "$ours" -eq $((N + 2)) ]
check "self: exactly one tgid record for exitgen (got $tgrec)" [ "$tgrec" -eq 1 ]
check "self: exitgen's main thread is exitgen-main (got $last_comm)" \
	[ "$last_comm" = exitgen-main ]
done_testing
