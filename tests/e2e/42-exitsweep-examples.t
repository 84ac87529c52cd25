#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# Every command in the EXAMPLES of exitsweep(1) runs, in a quick form: the
# test appends options that shrink it (fewer runs, fewer exits, smaller
# loads; later options win), runs it in a scratch directory, and checks
# its exit status, its tables and the files it names.
. "$(dirname "$0")/lib.sh"
need_taskstats
need_exitsweep
MAN=$TOP/man/exitsweep.1
delayacct_now

# The literal blocks of the EXAMPLES section, one command a line.
awk '/^\.Sh /{ex = ($2 == "EXAMPLES")} ex && /^\.Bd -literal/{lit = 1; next}
     ex && /^\.Ed/{lit = 0} ex && lit' "$MAN" >"$T/examples"
n=$(wc -l <"$T/examples")
check "the man page has examples ($n)" [ "$n" -ge 5 ]
check "every example is an exitsweep command" sh -c "! grep -v '^exitsweep ' '$T/examples'"

# quick ARGS...: the options that make a command of this kind short
quick() {
	case " $* " in
	*" compare "*) echo "" ;;
	*" --kind reap "*) echo "--runs 2 --count 20 --kill-batch 10 --background 0,100 --quiet" ;;
	*" --kind cohort "*) echo "--runs 2 --cohort 4 --work cpu:20000,write:256K:$T/cohort.dat --quiet" ;;
	# the probe (and its 10-second cost measurement) is 45-exitsweep-probe.t's
	*) echo "--runs 2 --count 200 --probe off --quiet" ;;
	esac
}

mkdir -p "$T/run"
i=0
while IFS= read -r line; do
	i=$((i + 1))
	set -- $line
	shift	# "exitsweep"
	if [ "$1" = compare ]; then
		# the files of another machine: a copy of this one's
		for f in "$@"; do
			[ "$f" = compare ] || [ -e "$T/run/$f" ] || cp "$T/run/tgid.json" "$T/run/$f"
		done
	fi
	q=$(quick "$@")
	(cd "$T/run" && "$EXITSWEEP" "$@" $q) >"$T/ex$i.out" 2>"$T/ex$i.err"; rc=$?
	check "example $i exits 0: exitsweep $*" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || sed 's/^/# /' "$T/ex$i.err"
	if [ "$1" = compare ]; then
		check "example $i: machines side by side" grep -q '^Machines' "$T/ex$i.out"
	else
		check "example $i: a report" grep -q '^Means per cell' "$T/ex$i.out"
	fi
	# every file the example names was written
	prev=
	for a in "$@"; do
		case $prev in
		--csv|--json|--plot)
			check "example $i: wrote $a" [ -s "$T/run/$a" ] ;;
		esac
		prev=$a
	done
	[ -z "$da0" ] || check "example $i: delay accounting is $da0 again" [ "$(cat $DA)" = "$da0" ]
done <"$T/examples"

check "the 2006 example made its table" grep -q '^%ovhd of tgid on over off' "$T/ex2.out"
check "the delay accounting example compared on and off" \
	grep -q '^%ovhd of delay accounting on over off' "$T/ex4.out"
check "the reap example has the three ostest figures" \
	grep -Eq 'Fork\+reap p50 us +Fork\+reap p99 us +Kill\+reap batch s +Kill background s' "$T/ex5.out"
check "the cohort example shows delays and groups" \
	grep -Eq 'CPU delay ms .*Groups \(runs\)' "$T/ex6.out"

done_testing
