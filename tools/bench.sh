#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: what the collector costs the workload, measured side by side.
#
# The generator's peak thread-exit rate (one spawner per CPU) with no
# listener, with exitmon in its default batched mode writing CSV to a file,
# and with exitmon --wakeup, in rounds whose order rotates (so drift on a
# noisy VM favours no mode), repeated.  Reports each mode's median rate,
# the median of the per-round ratios to no listener, records lost, and the
# collector's CPU time per record.
#
# Then the collector's own CPU against the floor of any listener: a bare
# recvmmsg drain (tests/bench/floor.c) registered at the same time as
# exitmon, so both receive the same records; per output format, the
# median of the per-round ratios of their CPU times over the run (each
# one's threads' schedstat, exact ns, read before the generator starts and
# after the last record is drained: start-up and stop are a cost per run,
# not per record), and beside it the ratio of their whole-process CPU
# (getrusage at exit, start-up included).  Besides the formats: a --fields
# subset, --capture alone, and in exitmon's place the floor listener that
# writes every datagram to a pcap file and parses nothing (capture-floor:
# the least any listener keeping a capture can spend).
#
# Optionally (BENCH_PARTS=split), where each format's excess over the
# floor goes: the same side-by-side ratio for exitmon that writes nothing
# (a filter no record matches: receive, parse, filter), then per format
# exitmon that formats every record to a file in memory and that writes
# them to a file on disk.
#
# Last, the user-space ceiling with no kernel in the loop: a capture of
# EXITS thread exits replayed to each format (records per second per core
# of CPU), and instructions per record from callgrind (the difference of
# two replay lengths, so start-up cancels out; repeatable on a busy VM).
#
# And the collector among its peers, the kernel's own sample listeners
# (tools/accounting: getdelays and procacct, built by tools/bench-peers.sh
# from a kernel source if one is at hand, else skipped): the floor, exitmon
# writing CSV, `getdelays -l -d -i -q` and procacct, both writing text to
# a file, all registered at once and hearing the same EXITS thread exits
# at a paced rate (BENCH_PEERS_RATE, default 20000/s: the kernel's tools
# read one record per recv and would drop at full speed).  CPU per record
# from each one's threads' schedstat (exact ns) read just before it is
# stopped, less what it had spent before the run, against the floor's;
# drops from /proc/net/netlink.
#
#   tools/bench.sh [ROUNDS [EXITS]]     (defaults 5 and 200000)
#   BENCH_PARTS="rate floor replay peers" (the default; "split" as well on
#   demand), BENCH_FORMATS="csv jsonl text"
#   BENCH_BASELINE=PATH: another exitmon (an earlier commit's build) beside
#   exitmon in the floor and split parts: its ratio to the same floor, from
#   the same records, in a column of its own
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-${BENCH_ROUNDS:-5}}
EXITS=${2:-${BENCH_EXITS:-200000}}
WORKERS=${BENCH_WORKERS:-$(nproc)}
MODES=(none batch wakeup)
PARTS=${BENCH_PARTS:-rate floor replay peers}
FORMATS=${BENCH_FORMATS:-csv jsonl text}
BENCH_FIELDS=${BENCH_FIELDS:-type,pid,tgid,comm,uid,exitcode,elapsed_us,utime_us,stime_us,cpu_run_real_ns}
FLOOR=${BENCH_FLOOR:-$TOP/build/bench/floor}
BASELINE=${BENCH_BASELINE:-}
PEERS=${BENCH_PEERS_DIR:-$TOP/build/bench/peers}
PEERS_RATE=${BENCH_PEERS_RATE:-20000}
T=$(mktemp -d /tmp/exitmon-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$T"' EXIT

[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (CAP_NET_ADMIN) for the listener" >&2; exit 1; }
for p in exitmon exitgen; do
	[ -x "$TOP/$p" ] || { echo "bench: $TOP/$p is not built: run make" >&2; exit 1; }
done

kv() { sed -n "s/^$2=//p" "$1"; }

# wait_ready FILE: until FILE has content (a pidfile, the floor's "ready")
wait_ready() {
	for _ in $(seq 200); do [ -s "$1" ] && return 0; sleep 0.05; done
	echo "bench: a listener did not start ($1)" >&2; exit 1
}

# run MODE ROUND: one generator run under MODE; appends a line to results
run() {
	local mode=$1 round=$2
	local tag=bench$round$mode mon=""
	local sum=$T/$round.$mode
	if [ "$mode" != none ]; then
		local extra=""
		[ "$mode" = wakeup ] && extra=--wakeup
		"$TOP/exitmon" $extra -f csv -o "$T/out.csv" --comm "$tag" \
			--summary "$sum.mon" --pidfile "$T/mon.pid" 2>/dev/null &
		mon=$!
		wait_ready "$T/mon.pid"
	fi
	"$TOP/exitgen" --shape thread --rate max --workers "$WORKERS" \
		--count "$EXITS" --tag "$tag" --summary "$sum.gen" >/dev/null
	if [ -n "$mon" ]; then
		sleep 0.2
		kill -TERM "$mon"; wait "$mon" || true
		rm -f "$T/mon.pid" "$T/out.csv"
	fi
	local rate lost="-" cpu="-"
	rate=$(kv "$sum.gen" achieved_rate)
	if [ -n "$mon" ]; then
		lost=$(( EXITS - $(kv "$sum.mon" matched) ))
		cpu=$(kv "$sum.mon" cpu_us_per_record)
	fi
	echo "$round $mode $rate $lost $cpu" >> "$T/results"
}


# floor FORMAT ROUND [LABEL OUTPUT [EXITMON OPTIONS...]]: exitmon -f FORMAT
# and the floor listener side by side; a line of $T/floor, labelled FORMAT
# or LABEL.  A LABEL ending in -floor measures, in exitmon's place, the
# floor listener writing to OUTPUT: every datagram as a pcap record
# (capture-floor, floor -w), or LINE_BYTES bytes a datagram when that is
# set (floor -w -b).  exitmon's output bytes per record are left in
# $T/floor.LABEL.ROUND.bytes.
floor() {
	local fmt=$1 round=$2 label=${3:-$1} out=${4:-$T/out.$1}
	local sum=$T/floor.$label.$round
	shift $(( $# < 4 ? $# : 4 ))
	"$FLOOR" > "$sum.floor" &
	local fl=$!
	wait_ready "$sum.floor"
	local wf=false
	[[ $label = *-floor ]] && wf=true
	if $wf; then
		"$FLOOR" -w "$out" ${LINE_BYTES:+-b "$LINE_BYTES"} > "$sum.wfloor" &
		wait_ready "$sum.wfloor"
	else
		"$TOP/exitmon" -f "$fmt" -o "$out" --summary "$sum.mon" \
			--pidfile "$T/mon.pid" "$@" 2>/dev/null &
		wait_ready "$T/mon.pid"
	fi
	local mon=$! base=""
	if [ -n "$BASELINE" ] && ! $wf; then
		baseline_start "$fmt" "$out" "$sum.base" "$@"
		base=$!
	fi
	# CPU over the run's window, from each one's threads' schedstat:
	# what the records cost, without each program's start-up and stop
	local f0 m0 b0=0 f1 m1 b1=0
	f0=$(cpu_ns "$fl"); m0=$(cpu_ns "$mon")
	[ -z "$base" ] || b0=$(cpu_ns "$base")
	"$TOP/exitgen" --shape thread --rate max --workers "$WORKERS" \
		--count "$EXITS" --tag benchfloor >/dev/null
	sleep 0.2
	f1=$(cpu_ns "$fl"); m1=$(cpu_ns "$mon")
	[ -z "$base" ] || b1=$(cpu_ns "$base")
	kill -TERM "$mon" "$fl" $base; wait "$mon" "$fl" $base || true
	if ! $wf && [ -f "$out" ] && [ "$(kv "$sum.mon" matched)" -gt 0 ]; then
		echo $(( $(stat -c %s "$out") / $(kv "$sum.mon" matched) )) > "$sum.bytes"
	fi
	rm -f "$T/mon.pid" "$T/base.pid" "$T/out.$fmt" "$T/base.out" "$T/base.pcap"
	! $wf || rm -f "$out"
	local n fcpu mcpu lost
	n=$(floor_said "$sum.floor" datagrams)
	fcpu=$(floor_said "$sum.floor" cpu_us)
	if $wf; then
		mcpu=$(floor_said "$sum.wfloor" cpu_us)
		lost=$(floor_said "$sum.wfloor" drops)
	else
		mcpu=$(python3 -c "print(round(($(kv "$sum.mon" cpu_user)+$(kv "$sum.mon" cpu_sys))*1e6))")
		lost=$(kv "$sum.mon" dropped)
	fi
	lost=$(( lost + $(floor_said "$sum.floor" drops) ))
	local bcpu=-
	if [ -n "$base" ]; then
		bcpu=$(python3 -c "print(round(($(kv "$sum.base" cpu_user)+$(kv "$sum.base" cpu_sys))*1e6))")
		lost=$(( lost + $(kv "$sum.base" dropped) ))
	fi
	echo "$label $round $n $fcpu $mcpu $lost $bcpu $(( (f1 - f0) / 1000 ))" \
		"$(( (m1 - m0) / 1000 ))" \
		"$( [ -n "$base" ] && echo $(( (b1 - b0) / 1000 )) || echo - )" >> "$T/floor"
	echo "bench: floor round $((round + 1))/$ROUNDS $label: $n records," \
		"floor $fcpu us, exitmon $mcpu us${base:+, baseline $bcpu us}" >&2
}

# floor_said FILE KEY: KEY's value on the floor listener's last line
floor_said() { tail -1 "$1" | sed -n "s/.*$2=\([0-9]*\).*/\1/p"; }

# baseline_start FORMAT OUTPUT SUMMARY [OPTIONS...]: BENCH_BASELINE (another
# exitmon, say an earlier commit's) registered beside exitmon with the same
# options, into files of its own: both hear the same records, so their
# ratios to the one floor compare two builds in one run.
baseline_start() {
	local fmt=$1 out=$2 sum=$3 a prev="" args=()
	shift 3
	[ "$out" = /dev/null ] || out=$T/base.out
	for a in "$@"; do
		[ "$prev" = --capture ] && a=$T/base.pcap
		args+=("$a")
		prev=$a
	done
	"$BASELINE" -f "$fmt" -o "$out" --summary "$sum" --pidfile "$T/base.pid" \
		"${args[@]}" 2>/dev/null &
	wait_ready "$T/base.pid"
}

floor_table() {
	python3 - "$T/floor" "$1" <<'PY'
import statistics as st, sys
# Per line: label round records, whole-process CPU (floor, exitmon; lost;
# baseline), then CPU over the run's window (floor, exitmon, baseline), us.
by, base, whole = {}, {}, {}
for l in open(sys.argv[1]):
    fmt, rnd, n, fcpu, mcpu, lost, bcpu, fwin, mwin, bwin = l.split()
    by.setdefault(fmt, []).append((int(n), float(fwin), float(mwin), int(lost)))
    whole.setdefault(fmt, []).append(float(mcpu) / float(fcpu))
    if bwin != "-":
        base.setdefault(fmt, []).append(float(bwin) / float(fwin))
def cell(xs):
    xs = sorted(xs)
    return f"{st.median(xs):.2f} ({xs[0]:.2f}-{xs[-1]:.2f})"
head = (f"{sys.argv[2]:<14}{'floor us/rec':>13}{'exitmon us/rec':>16}"
        f"{'ratio (median, range)':>28}{'lost':>7}{'whole-process ratio':>22}")
print(head + (f"{'baseline ratio (median, range)':>34}" if base else ""))
for fmt, runs in by.items():
    fl = [f / n for n, f, m, l in runs]
    mo = [m / n for n, f, m, l in runs]
    line = (f"{fmt:<14}{st.median(fl):>13.2f}{st.median(mo):>16.2f}"
            f"{cell(m / f for n, f, m, l in runs):>28}{sum(r[3] for r in runs):>7}"
            f"{st.median(whole[fmt]):>22.2f}")
    if fmt in base:
        line += f"{cell(base[fmt]):>34}"
    print(line)
print(f"({'all' if base else 'both'} registered at once, same records; {len(runs)} rounds each;"
      " CPU from schedstat over the run, start-up and stop excluded; whole-process"
      " ratio: getrusage at exit, start-up included, median"
      + ("; baseline: BENCH_BASELINE" if base else "") + ")")
if "capture-floor" in by:
    print("(capture-floor: in exitmon's columns, the floor listener itself writing every"
          " datagram to a pcap file, nothing parsed: the least any listener keeping a"
          " capture spends)")
if any(k.endswith("-floor") and k != "capture-floor" for k in by):
    print("(FORMAT-floor: in exitmon's columns, the floor listener itself writing, per"
          " datagram, as many bytes as exitmon's FORMAT-file row wrote per record in the"
          " same round, nothing parsed or formatted: the least any listener writing lines"
          " that long spends)")
PY
	rm -f "$T/floor"
}

need_floor() {
	[ -x "$FLOOR" ] || { echo "bench: $FLOOR is not built: run make bench" >&2; exit 1; }
}

floor_part() {
	need_floor
	echo "bench: collector CPU against the floor listener, $ROUNDS rounds x" \
		"formats ($FORMATS), $EXITS thread exits each" >&2
	for ((r = 0; r < ROUNDS; r++)); do
		for fmt in $FORMATS; do floor "$fmt" "$r"; done
		# the documented way to the lowest cost: a --fields subset; and
		# --capture alone (-o /dev/null skips formatting)
		floor csv "$r" csv-fields "$T/out.csv" --fields "$BENCH_FIELDS"
		floor csv "$r" capture /dev/null --capture "$T/floor.pcap"
		rm -f "$T/floor.pcap"
		# what keeping a capture costs any listener: no parse, no count
		floor csv "$r" capture-floor "$T/wfloor.pcap"
	done
	floor_table "exitmon -f"
}

# What each format's excess is made of: nothing written, formatted to a
# file in memory (tmpfs: the write is a copy; /dev/null would skip the
# formatting itself), written to a file on disk (the floor part's rows),
# and the floor listener writing as many bytes a record to disk.
split_part() {
	need_floor
	local mem=$T
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ] &&
		mem=$(mktemp -d /dev/shm/exitmon-bench.XXXXXX)
	echo "bench: each format's cost against the floor in steps, $ROUNDS" \
		"rounds, $EXITS thread exits each (format rows to $mem)" >&2
	for ((r = 0; r < ROUNDS; r++)); do
		floor csv "$r" parse /dev/null --comm nomatch-bench
		for fmt in $FORMATS; do
			floor "$fmt" "$r" "$fmt-format" "$mem/out.$fmt"
			rm -f "$mem/out.$fmt"
			floor "$fmt" "$r" "$fmt-file"
			# the least any listener writing lines this long spends
			LINE_BYTES=$(cat "$T/floor.$fmt-file.$r.bytes") \
				floor "$fmt" "$r" "$fmt-floor" "$T/wfloor.out"
		done
	done
	[ "$mem" = "$T" ] || rm -rf "$mem"
	floor_table "exitmon"
}

# replay_run FORMAT: replay the capture; its summary in $T/replay.sum
replay_run() {
	"$TOP/exitmon" --replay "$T/cap.pcap" -f "$1" -o "$T/replay.$1" \
		--summary "$T/replay.sum" 2>/dev/null
	rm -f "$T/replay.$1"
}

replay_part() {
	"$TOP/exitmon" --capture "$T/cap.pcap" -o /dev/null --comm benchreplay \
		--pidfile "$T/mon.pid" 2>/dev/null &
	local mon=$!
	wait_ready "$T/mon.pid"
	"$TOP/exitgen" --shape thread --rate max --workers "$WORKERS" \
		--count "$EXITS" --tag benchreplay >/dev/null
	sleep 0.2
	kill -TERM "$mon"; wait "$mon" || true; rm -f "$T/mon.pid"
	echo "bench: replaying a capture of $(du -h "$T/cap.pcap" | cut -f1)" >&2
	printf '%-8s%10s%18s%18s\n' format records "records/s/core" "instr/record"
	local fmt recs cpu n_lo n_hi ipr
	for fmt in $FORMATS; do
		replay_run "$fmt"
		recs=$(kv "$T/replay.sum" records)
		cpu=$(python3 -c "print($(kv "$T/replay.sum" cpu_user)+$(kv "$T/replay.sum" cpu_sys))")
		# two lengths within the capture: 1/5 of it (at most 5,000), all
		# of it (at most 25,000); callgrind's difference of the two
		# (tools/instr-per-record, as make instr-gate asks it)
		n_lo=$(( recs / 5 < 5000 ? recs / 5 : 5000 ))
		n_hi=$(( recs < 25000 ? recs : 25000 ))
		ipr=$("$TOP/tools/instr-per-record" "$T/cap.pcap" "$n_lo" "$n_hi" \
			-f "$fmt" -o "out.$fmt")
		printf '%-8s%10s%18.0f%18.0f\n' "$fmt" "$recs" \
			"$(python3 -c "print($recs/max($cpu,1e-6))")" "$ipr"
	done
}

# socket_inodes PID: the inodes of PID's sockets, one a line
socket_inodes() {
	find "/proc/$1/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null |
		sed 's/^socket:\[\([0-9]*\)\]$/\1/'
}

# netlink_drops PID: records the kernel dropped on PID's generic netlink
# sockets (the Drops column of /proc/net/netlink); "-" if it has none
netlink_drops() {
	awk -v inodes="$(socket_inodes "$1")" '
		BEGIN { n = split(inodes, a, "\n"); for (i = 1; i <= n; i++) mine[a[i]] = 1 }
		NR > 1 && $2 == 16 && ($10 in mine) { seen = 1; d += $9 }
		END { print seen ? d : "-" }' /proc/net/netlink
}

# cpu_ns PID: CPU time of PID's threads so far, exact (schedstat's first field)
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# wait_socket PID NAME: until PID has a generic netlink socket (it
# registers right after opening it); fails if PID died first
wait_socket() {
	for _ in $(seq 200); do
		kill -0 "$1" 2>/dev/null || break
		[ "$(netlink_drops "$1")" != - ] && return 0
		sleep 0.05
	done
	echo "bench: $2 did not start; it said:" >&2
	cat "$T/peers.$2.err" >&2; exit 1
}

# peers ROUND: the floor, exitmon (CSV) and the kernel's getdelays and
# procacct hear the same exits; lines "ROUND NAME CPU_NS DROPS" of
# $T/peers, and "ROUND records N" (the floor's count)
peers() {
	local r=$1 cpus name pid
	cpus=$(cat /sys/devices/system/cpu/possible)
	local -A pids
	"$FLOOR" > "$T/peers.floor" 2>"$T/peers.floor.err" &
	pids[floor]=$!
	wait_ready "$T/peers.floor"
	"$TOP/exitmon" -f csv -o "$T/peers.csv" --pidfile "$T/mon.pid" 2>"$T/peers.exitmon.err" &
	pids[exitmon]=$!
	wait_ready "$T/mon.pid"
	# text on stdout to a file, as a user of either tool would keep it
	"$PEERS/getdelays" -l -d -i -q -m "$cpus" > "$T/peers.getdelays" 2>"$T/peers.getdelays.err" &
	pids[getdelays]=$!
	"$PEERS/procacct" -m "$cpus" > "$T/peers.procacct" 2>"$T/peers.procacct.err" &
	pids[procacct]=$!
	wait_socket "${pids[getdelays]}" getdelays
	wait_socket "${pids[procacct]}" procacct
	sleep 0.2	# each registers its CPUs just after opening its socket
	# CPU from here on: start-up (exitmon's self-check) is not per record
	local -A before
	for name in "${!pids[@]}"; do before[$name]=$(cpu_ns "${pids[$name]}"); done
	"$TOP/exitgen" --shape thread --rate "$PEERS_RATE" --workers "$WORKERS" \
		--count "$EXITS" --tag benchpeers >/dev/null
	sleep 0.5	# let every listener drain its socket
	for name in floor exitmon getdelays procacct; do
		pid=${pids[$name]}
		kill -0 "$pid" 2>/dev/null ||
			{ echo "bench: $name exited during the run; it said:" >&2
			  cat "$T/peers.$name.err" >&2; exit 1; }
		echo "$r $name $(( $(cpu_ns "$pid") - ${before[$name]} ))" \
			"$(netlink_drops "$pid")" >> "$T/peers"
	done
	kill -TERM "${pids[@]}"; wait "${pids[@]}" || true
	echo "$r records $(sed -n 's/.*datagrams=\([0-9]*\).*/\1/p' "$T/peers.floor" | tail -1)" >> "$T/peers"
	rm -f "$T/mon.pid" "$T"/peers.csv "$T"/peers.getdelays "$T"/peers.procacct
	echo "bench: peers round $((r + 1))/$ROUNDS: $(tail -1 "$T/peers" | cut -d' ' -f3) records" >&2
}

peers_table() {
	python3 - "$T/peers" "$PEERS_RATE" <<'PY'
import statistics as st, sys
rounds, names = {}, []
for rnd, name, *v in (l.split() for l in open(sys.argv[1])):
    rounds.setdefault(rnd, {})[name] = v
    if name != "records" and name not in names:
        names.append(name)
label = {"floor": "floor (bare recvmmsg drain)",
         "exitmon": "exitmon -f csv, to a file",
         "getdelays": "getdelays -l -d -i -q, to a file",
         "procacct": "procacct, to a file"}
def span(xs, f):
    xs = sorted(xs)
    return f"{f.format(st.median(xs))} ({f.format(xs[0])}-{f.format(xs[-1])})"
print(f"{'listener':<34}{'CPU us/record':>22}{'x floor':>22}{'dropped':>9}")
for name in names:
    us = [int(r[name][0]) / 1000 / max(int(r["records"][0]), 1) for r in rounds.values()]
    ratio = [int(r[name][0]) / max(int(r["floor"][0]), 1) for r in rounds.values()]
    drops = [r[name][1] for r in rounds.values()]
    dropped = "-" if "-" in drops else str(sum(map(int, drops)))
    print(f"{label[name]:<34}{span(us, '{:.2f}'):>22}{span(ratio, '{:.2f}'):>22}{dropped:>9}")
n = [int(r["records"][0]) for r in rounds.values()]
print(f"(all registered at once, same {min(n)}-{max(n)} records at {sys.argv[2]}/s; "
      f"medians (ranges) over {len(n)} rounds; dropped summed)")
PY
	rm -f "$T/peers"
}

peers_part() {
	need_floor
	local rc=0
	"$TOP/tools/bench-peers.sh" "$PEERS" || rc=$?
	[ "$rc" -eq 77 ] && return 0	# no kernel source: said so, skipped
	[ "$rc" -eq 0 ] || exit "$rc"
	echo "bench: exitmon among the kernel's sample listeners, $ROUNDS rounds," \
		"$EXITS thread exits each at $PEERS_RATE/s" >&2
	for ((r = 0; r < ROUNDS; r++)); do peers "$r"; done
	peers_table
}

rate_part() {
	echo "bench: $ROUNDS rounds x ${#MODES[@]} modes, $EXITS thread exits each," \
		"$WORKERS spawners, $(nproc) CPUs, $(uname -r)" >&2
	for ((r = 0; r < ROUNDS; r++)); do
		# Rotate the order each round: none,batch,wakeup / batch,wakeup,none ...
		for ((k = 0; k < ${#MODES[@]}; k++)); do
			m=${MODES[$(( (r + k) % ${#MODES[@]} ))]}
			run "$m" "$r"
			echo "bench: round $((r + 1))/$ROUNDS $m: $(tail -1 "$T/results" | cut -d' ' -f3) exits/s" >&2
		done
	done
	python3 - "$T/results" "$EXITS" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
exits = int(sys.argv[2])
by = {}
for rnd, mode, rate, lost, cpu in rows:
    by.setdefault(mode, {})[rnd] = (float(rate), lost, cpu)
base = by["none"]
print(f"{'listener':<26}{'median exits/s':>15}{'ratio to none':>15}{'records lost':>14}{'CPU us/record':>15}")
names = {"none": "none", "batch": "exitmon (default, CSV)", "wakeup": "exitmon --wakeup"}
for mode in ("none", "batch", "wakeup"):
    runs = by.get(mode, {})
    rates = [v[0] for v in runs.values()]
    ratios = [runs[r][0] / base[r][0] for r in runs if r in base]
    lost = "-" if mode == "none" else str(sum(int(v[1]) for v in runs.values()))
    cpu = "-" if mode == "none" else f"{st.median(float(v[2]) for v in runs.values()):.2f}"
    print(f"{names[mode]:<26}{st.median(rates):>15.0f}{st.median(ratios):>15.3f}{lost:>14}{cpu:>15}")
print(f"(medians over {len(base)} rounds; lost summed over {len(base) * exits} exits per mode)")
PY
}

for part in $PARTS; do
	case $part in
	rate) rate_part ;;
	floor) floor_part ;;
	replay) replay_part ;;
	split) split_part ;;
	peers) peers_part ;;
	*) echo "bench: unknown part '$part' (rate, floor, replay, split, peers)" >&2; exit 2 ;;
	esac
done
