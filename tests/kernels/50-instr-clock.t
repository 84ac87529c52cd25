#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitprobe's exact figure under the instruction clock, in each kernel of
# the tier (Debian's 6.1, 6.12, 6.19 and newest 7.x; KERNELS="6.1 7" to
# choose): one boot per kernel with tools/kernel-run --clock instructions,
# in it exitprobe --method fentry around exitgen --rate max, twice for
# thread exits and twice for process exits.  Checked per kernel:
#   - the two runs of a class agree within 0.5% on the headline, the mode
#     of that class (issue 32; exitprobe(8), INSTRUCTION CLOCK);
#   - the classes are right: every exit of a thread run is tgid on, and
#     they are exitgen's N threads plus its own named threads (exitprobe
#     counts the command's exits too: exitgen-main, -spawn, -tls, at most
#     3); a process run has exactly N tgid off exits, the rest (at most 3)
#     exitgen's own threads, tgid on; no exit met a listener;
#   - the figures are instructions: unit=instr and headline=mode in the
#     summary, and the text report says so and has no ns or us label;
#   - the mode is a plausible count of instructions, 100 to 5000 (below),
#     with at least 90% of the class's calls at it.
# Kernels before 6.5 run with --smp 1 (kernel-run refuses 2 under QEMU
# before 8.0, whose icount stalls their second CPU at boot); the others
# with 2, the common case.  Skips (77) without QEMU or kernels.
. "$(dirname "$0")/../e2e/lib.sh"

KR=$TOP/tools/kernel-run
KERNELS=${KERNELS:-6.1 6.12 6.19 7}
# Exits per run.  The common path repeats to the instruction, so a few
# hundred calls make an unambiguous mode (2,000 and 300 gave the same
# modes); each 1,000 exits costs about 2.5 s of wall time per run here.
N=${INSTR_N:-300}
# The plausible mode.  taskstats_exit() with no listener is a few hundred
# instructions of the call's own work plus the trampoline's fixed stretch
# between exitprobe's two clock reads (292 to 589 on the tier's kernels,
# docs/results/2026-12-05-exitprobe-instructions.md).  Fewer than 100 is
# less than those alone; more than 5000 is more than a call that also
# builds and sends a record to a listener (about 3,400 to 3,700), so the
# clock is counting something else (time, or another vCPU's work).
LO=100 HI=5000

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
for p in exitprobe exitgen; do
	[ -x "$TOP/$p" ] || { echo "Bail out! $TOP/$p not built"; exit 1; }
done

# The kernels, fetched (or found in the cache) first: all in one call (a
# call resolves the series through apt, about 2 s), else one by one to
# tell which is missing and why.
declare -A IMG
have=""
# shellcheck disable=SC2086  # $KERNELS is a list
if "$TOP/tools/kernel-fetch" $KERNELS > "$T/fetch.out" 2> "$T/fetch.err" &&
	[ "$(wc -l < "$T/fetch.out")" = "$(echo $KERNELS | wc -w)" ]; then
	set -- $KERNELS
	while read -r img; do IMG[$1]=$img; shift; done < "$T/fetch.out"
fi
for k in $KERNELS; do
	[ -n "${IMG[$k]:-}" ] ||
		IMG[$k]=$("$TOP/tools/kernel-fetch" "$k" 2> "$T/fetch-$k.err" | tail -n 1)
	if [ -s "${IMG[$k]}" ]; then
		have="$have $k"
	else
		unset "IMG[$k]"
		echo "$k: $(tail -n 1 "$T/fetch-$k.err")" >> "$T/missing"
	fi
done
[ -n "$have" ] || skip_all "no kernel to boot: $(sed ':a;N;$!ba;s/\n/; /g' "$T/missing")"

# What the guest runs, in /out: a sleep first (free under the clock, idle
# time being skipped) lets the boot's leftover work on the other vCPU end;
# then the four runs, the classes alternating.
GUEST="uname -r > uname; grep -c ^processor /proc/cpuinfo > cpus; sleep 2
for r in 1 2; do for s in thread process; do
	exitprobe --method fentry --summary \$s\$r.sum -- \
		exitgen --shape \$s --rate max --count $N -q --summary gen-\$s\$r.sum 2> \$s\$r.err
	echo \$? > \$s\$r.rc
done; done"

# run K SMP: one boot of kernel K into $T/K; its status.  kernel-run's
# own timeout (600 s): one boot took 315 s beside tools/busy-load.sh and
# two other helpers' guests (load 17 on 2 vCPUs), against 18-25 s alone.
run() {
	rm -rf "${T:?}/$1"
	"$KR" -q --kernel "${IMG[$1]}" --clock instructions --smp "$2" \
		--out "$T/$1" -- sh -c "$GUEST" > "$T/$1.out" 2> "$T/$1.err"
}

# mode_of FILE CLASS: the class's mode; count FILE KEY: the value, 0 when absent
mode_of() { kv "$1" "mode_$2"; }
count() { local v; v=$(kv "$1" "$2"); echo "${v:-0}"; }
# agree A B: within 0.5% of each other
agree() { [ -n "$1" ] && [ -n "$2" ] && [ $(( ($1 > $2 ? $1 - $2 : $2 - $1) * 200 )) -le $(($1 + $2)) ]; }
# labels FILE: the report's figures labelled as times (ns, us, µs)
labels() { grep -Eiw 'ns|us|µs|usec|nsec|nanoseconds?|microseconds?' "$1"; }

t0=$(date +%s)
for k in $have; do
	start=$(date +%s)
	smp=2
	run "$k" $smp; rc=$?
	if [ $rc = 2 ] && grep -q 'use --smp 1' "$T/$k.err"; then
		diag "$k: $(sed 's/^kernel-run: //' "$T/$k.err")"
		diag "$k: so --smp 1 here"
		smp=1
		run "$k" $smp; rc=$?
	fi
	# Under TCG a guest now and then dies as exitprobe attaches
	# (30-real-kernels.t): two retries, each said; a third death fails.
	for retry in 1 2; do
		[ $rc -eq 125 ] && grep -q 'panicked\|Oops' "$T/$k.err" || break
		diag "$k: the guest kernel died: $(grep -m 1 'Oops\|RIP:\|panic' "$T/$k.err")"
		diag "$k: booting it once more (retry $retry of 2)"
		run "$k" $smp; rc=$?
	done
	secs=$(( $(date +%s) - start ))
	D=$T/$k
	K="$k ($(cat "$D/uname" 2>/dev/null || echo '?'), --smp $smp)"
	check "$K: the guest ran the four runs (exit $rc) in $secs s, CPUs up: $(cat "$D/cpus" 2>/dev/null || echo '?')" \
		[ $rc = 0 -a "$(cat "$D/cpus" 2>/dev/null)" = $smp ]
	[ $rc = 0 ] || { tail -n 20 "$T/$k.err" | sed 's/^/# /'; continue; }

	for r in 1 2; do for s in thread process; do
		f=$D/$s$r.sum R="$K: $s run $r"
		prc=$(cat "$D/$s$r.rc" 2>/dev/null)
		check "$R: exitprobe exit 0 (got $prc)" [ "$prc" = 0 ]
		[ "$prc" = 0 ] || { sed 's/^/# /' "$D/$s$r.err" | tail -n 5; continue; }
		check "$R: exitgen made $N exits ($(kv "$D/gen-$s$r.sum" tasks_exited))" \
			[ "$(kv "$D/gen-$s$r.sum" exits)" = $N -a "$(kv "$D/gen-$s$r.sum" tasks_exited)" = $N ]
		check "$R: unit=$(kv "$f" unit), headline=$(kv "$f" headline), method=$(kv "$f" method)" \
			[ "$(kv "$f" unit):$(kv "$f" headline):$(kv "$f" method)" = instr:mode:fentry ]
		check "$R: the report says it counts instructions" \
			grep -q '^the clock counts instructions' "$D/$s$r.err"
		check "$R: no figure in the report labelled ns or us" eval '! labels "$D/$s$r.err" > /dev/null'
		labels "$D/$s$r.err" | sed 's/^/# /'

		exits=$(count "$f" exits) on=$(count "$f" exits_tgid_on_nolistener)
		off=$(count "$f" exits_tgid_off_nolistener)
		check "$R: no exit met a listener ($(count "$f" exits_listener))" \
			[ "$(count "$f" exits_listener)" = 0 ]
		if [ $s = thread ]; then
			c=tgid_on_nolistener
			check "$R: all $exits exits are thread exits (tgid on: $on, off: $off), $N to $((N + 3))" \
				eval '[ $on = $exits ] && in_range $on $N $((N + 3))'
		else
			c=tgid_off_nolistener
			check "$R: $N process exits (tgid off: $off), the other $((exits - off)) exitgen's own threads (tgid on: $on, at most 3)" \
				eval '[ $off = $N ] && [ $((on + off)) = $exits ] && in_range $on 0 3'
		fi
		m=$(mode_of "$f" $c) at=$(count "$f" exits_at_mode_$c) n=$(count "$f" exits_$c)
		check "$R: mode $m instructions, $LO to $HI" in_range "$m" $LO $HI
		check "$R: $at of $n calls at the mode (>= 90%), $(count "$f" exits_below_mode_$c) below, $(count "$f" exits_above_mode_$c) above" \
			[ $((at * 10)) -ge $((n * 9)) -a "$n" -gt 0 ]
		echo "$m" > "$D/mode-$s$r"
	done; done

	for s in thread process; do
		a=$(cat "$D/mode-${s}1" 2>/dev/null) b=$(cat "$D/mode-${s}2" 2>/dev/null)
		check "$K: $s exits: the two runs' modes agree within 0.5% ($a and $b instructions)" \
			agree "$a" "$b"
	done
done
for k in $KERNELS; do
	[ -n "${IMG[$k]:-}" ] || ok "# SKIP $(grep "^$k: " "$T/missing")"
done
diag "$N exits per run; all kernels in $(( $(date +%s) - t0 )) s"
done_testing
