#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs inside a kernel under test (tools/kernel-run --add this file), in the
# work directory the rig sends back.  It only runs things and keeps what
# they said; tests/kernels/30-real-kernels.t on the host judges the files.
# POSIX sh: the guest has busybox, not bash.
#
#   KT_N        exits per shape (default 300)
#   KT_PROBE_N  exits per exitprobe run (default 1000)
set -u
N=${KT_N:-300}
PN=${KT_PROBE_N:-1000}

# step NAME COMMAND...: run it, keep its status in NAME.rc, stderr in NAME.err
step() {
	name=$1; shift
	"$@" 2> "$name.err"
	echo $? > "$name.rc"
}

# wait_file FILE: until it is non-empty, at most 60 s (emulated start-up).
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ]
}

uname -r > uname.txt
uname -v > uname-v.txt
echo "${EXITMON_EMULATED:-}" > emulated.txt
if [ -r /sys/kernel/btf/vmlinux ]; then
	gzip -c /sys/kernel/btf/vmlinux > btf.gz
fi

# 1. Records of all four shapes, to CSV and a capture of the same messages.
exitmon -f csv -o live.csv --capture live.pcap --summary mon.sum \
	--pidfile mon.pid 2> mon.err &
MON=$!
if wait_file mon.pid; then
	for shape in thread process fork group:4; do
		tag=kt-${shape%%:*}
		step "gen-$tag" exitgen --shape "$shape" --count "$N" --rate 1000 \
			--tag "$tag" -q --summary "gen-$tag.sum"
	done
fi
sleep 0.5	# the collector drains every 10 ms; emulated time runs slow
kill -TERM $MON
wait $MON
echo $? > mon.rc

# 2. What the records say, through exitstat.
step stat exitstat live.csv > stat.txt
step stat-csv exitstat -f csv live.csv > stat.csv

# 3. The probe, every method, both shapes, no listener of ours.
for method in fentry sample auto; do
	for shape in thread process; do
		step "probe-$method-$shape" exitprobe --method "$method" -q \
			--summary "probe-$method-$shape.sum" -- \
			exitgen --shape "$shape" --count "$PN" --rate 2000 -q
	done
done

# 4. With our collector running and declared: every exit meets it.
exitmon -o /dev/null --pidfile lis.pid 2> lis.err &
LIS=$!
if wait_file lis.pid; then
	for method in fentry sample; do
		step "probe-$method-listener" exitprobe --method "$method" -q \
			--listener-pid "$LIS" --summary "probe-$method-listener.sum" -- \
			exitgen --shape thread --count "$PN" --rate 2000 -q
	done
fi
kill -TERM $LIS
wait $LIS

# 5. A short capture to keep as a fixture: 4 threads, 3 processes, a group
#    of 3 processes x 3 threads (the shape of tests/data/real-v16.pcap).
exitmon --capture fixture.pcap -o /dev/null --pidfile fix.pid 2> fix.err &
FIX=$!
if wait_file fix.pid; then
	exitgen --shape thread --count 4 --rate 100 --tag xcapthr -q
	exitgen --shape process --count 3 --rate 100 --tag xcapproc -q
	exitgen --shape group:3 --count 3 --rate 100 --tag xcapgrp -q
fi
sleep 0.5
kill -TERM $FIX
wait $FIX
echo $? > fix.rc
echo done > suite.done
