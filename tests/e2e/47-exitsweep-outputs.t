#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitsweep's outputs and leftovers.  Every output (--csv, --json, --plot
# SVG or PNG) goes through the one safe open and is checked before the
# runs: a link or a file another user planted in a sticky shared directory
# is refused, in words, with fs.protected_symlinks=0 (so the kernel does
# not refuse it for us); so are a directory and /proc.  A link planted
# during the runs is refused when the plot is written.  compare says which
# file is not a result and where.  A SIGKILLed sweep takes its exitmon and
# exitgen with it and its scratch directory is removed; so after three
# SIGINTs.
. "$(dirname "$0")/lib.sh"
need_taskstats
need_exitsweep
command -v gnuplot >/dev/null || { echo "Bail out! gnuplot not installed (tools/deps.sh)"; exit 1; }
command -v setpriv >/dev/null || { echo "Bail out! setpriv (util-linux) not installed"; exit 1; }
sweep_tmpdir

PS=/proc/sys/fs/protected_symlinks
ps0=$(cat $PS)
trap 'echo "$ps0" >$PS; cleanup' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
echo 0 >$PS || { echo "Bail out! cannot set $PS"; exit 1; }

S=$T/shared			# a sticky world-writable directory, like /tmp
mkdir "$S" && chmod 1777 "$S"
as_nobody() { setpriv --reuid nobody --regid nogroup --clear-groups "$@"; }
echo victim >"$T/victim"
SWEEP="--rates 2000 --runs 2 --count 500 --listener none --tgid on --probe off"

# refused OPT PATH WHY: refused before any run, exit 8, one line in words
refused() {
	"$EXITSWEEP" $SWEEP "$1" "$2" >"$T/r.out" 2>"$T/r.err"; rc=$?
	check "$1 $2: refused, exit 8 (got $rc)" [ $rc -eq 8 ]
	check "$1 $2: says why, in words" grep -q "^exitsweep: $1 $2: .*$3" "$T/r.err"
	check "$1 $2: no 'Unknown error', no gnuplot failure" \
		sh -c "! grep -qi 'unknown error\|gnuplot' '$T/r.err'"
	check "$1 $2: refused before the runs" \
		sh -c "[ ! -s '$T/r.out' ] && ! grep -q 'run 1 of' '$T/r.err'"
	[ $rc -eq 8 ] || sed 's/^/# /' "$T/r.err"
}

# --- planted links and files in a sticky shared directory ---
as_nobody ln -s "$T/victim" "$S/p.svg"
as_nobody ln -s "$T/victim" "$S/p.png"
as_nobody sh -c "echo theirs >'$S/q.svg'"
for o in plot json csv; do
	refused --$o "$S/p.svg" "another user's file in a world-writable sticky"
done
refused --plot "$S/p.png" "another user's file"
refused --plot "$S/q.svg" "another user's file in a world-writable sticky"
check "the linked file is untouched" [ "$(cat "$T/victim")" = victim ]
check "the other user's file is untouched" [ "$(cat "$S/q.svg")" = theirs ]

# --- paths no file can be made at ---
refused --plot /proc/exitsweep-test.svg "cannot create a file in /proc"
refused --plot "$T" "it is a directory"
refused --json "$T/none/r.json" "cannot create a file in $T/none"

# --- a link planted during the runs: refused when the plot is written ---
"$EXITSWEEP" --rates 500 --runs 2 --count 500 --listener none --tgid on \
	--probe off --plot "$S/late.svg" --json "$T/late.json" --csv "$T/res.csv" \
	>"$T/l.out" 2>"$T/l.err" &
SW=$!
_pids="$_pids $SW"
for i in $(seq 200); do
	grep -q 'run 1 of' "$T/l.err" && break
	sleep 0.05
done
as_nobody ln -s "$T/victim" "$S/late.svg"
wait $SW; rc=$?
check "a link planted during the runs: exit 8 (got $rc)" [ $rc -eq 8 ]
check "... refused when the plot is written, in words" \
	grep -q "^exitsweep: cannot write $S/late.svg: it is another user's file" "$T/l.err"
check "... the linked file is untouched" [ "$(cat "$T/victim")" = victim ]
check "... the other outputs are written" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/late.json"
[ $rc -eq 8 ] || sed 's/^/# /' "$T/l.err"

# --- a plot of our own: a PNG, through the safe open ---
"$EXITSWEEP" $SWEEP -q --plot "$S/mine.png" >/dev/null 2>"$T/m.err"; rc=$?
check "a PNG plot: exit 0" [ $rc -eq 0 ]
check "a PNG plot: a PNG, ours, mode 644" sh -c \
	"file '$S/mine.png' | grep -q 'PNG image' && [ \"\$(stat -c '%U %a' '$S/mine.png')\" = 'root 644' ]"
check "no scratch file left beside it" [ "$(ls -A "$S" | grep -c '^\.')" -eq 0 ]

# --- compare: which file, where, and that it is not a result ---
head -c 300 "$T/late.json" >"$T/cut.json"
for f in /dev/null "$T/cut.json" "$T/res.csv"; do
	"$EXITSWEEP" compare "$f" >"$T/c.out" 2>"$T/c.err"; rc=$?
	check "compare $f: exit 1" [ $rc -eq 1 ]
	check "compare $f: one line, the file, not a result file" sh -c \
		"[ \$(wc -l <'$T/c.err') -eq 1 ] && grep -q '^exitsweep: $f is not an exitsweep result file (written by exitsweep --json): ' '$T/c.err'"
	check "compare $f: not json-c's words" sh -c "! grep -q 'json_tokener\|failed: continue' '$T/c.err'"
	[ $rc -eq 1 ] || sed 's/^/# /' "$T/c.err"
done
"$EXITSWEEP" compare /dev/null 2>&1 | grep -q ': it is empty$'
check "compare of /dev/null: it is empty" [ $? -eq 0 ]
"$EXITSWEEP" compare "$T/cut.json" 2>&1 | grep -q 'its JSON ends early, at line [0-9]*, column [0-9]* (cut off?)$'
check "compare of a cut-off file: ends early, at line and column" [ $? -eq 0 ]
"$EXITSWEEP" compare "$T/res.csv" 2>&1 | grep -q "not JSON at line 1, column 1 ('.')$"
check "compare of a CSV: not JSON at line 1, column 1" [ $? -eq 0 ]

# --- a killed sweep takes its children and scratch directory with it ---
# children_of PID: the processes whose parent is PID
children_of() { pgrep -P "$1" | tr '\n' ' '; }
# gone PIDS...: within 5 s none of them runs (a zombie has ended)
gone() {
	for i in $(seq 100); do
		local alive=0 p
		for p in "$@"; do
			[ -d /proc/$p ] && ! grep -q '^State:.*Z' /proc/$p/status 2>/dev/null && alive=1
		done
		[ $alive -eq 0 ] && return 0
		sleep 0.05
	done
	return 1
}
# scratch_empty: TMPDIR holds nothing within 5 s
scratch_empty() {
	for i in $(seq 100); do
		[ -z "$(ls -A "$TMPDIR")" ] && return 0
		sleep 0.05
	done
	ls -la "$TMPDIR" | sed 's/^/# /'
	return 1
}
# long_sweep: a sweep with exitmon listening, in a TMPDIR of its own;
# waits for run 1's exitmon
long_sweep() {
	export TMPDIR=$T/tmp-$1
	mkdir -m 1777 "$TMPDIR"
	"$EXITSWEEP" --rates 500 --count 5000 --runs 2 --listener batch \
		--tgid on --probe off >/dev/null 2>"$T/k.err" &
	SW=$!
	for i in $(seq 200); do
		[ -s "$(ls -d "$TMPDIR"/exitsweep.*/exitmon.pid 2>/dev/null | head -1)" ] && break
		sleep 0.05
	done
	KIDS=$(children_of $SW)
	_pids="$_pids $SW $KIDS"
}
long_sweep kill
check "SIGKILL: exitmon and exitgen were running" \
	sh -c "ps -o comm= -p '$(echo $KIDS | tr ' ' ,)' | grep -q exitmon"
kill -KILL $SW
wait $SW 2>/dev/null
check "SIGKILL: exitmon and exitgen die with exitsweep" gone $KIDS
check "SIGKILL: the scratch directory is removed" scratch_empty

long_sweep int
kill -INT $SW; kill -INT $SW; kill -INT $SW 2>/dev/null
wait $SW; rc=$?
check "three SIGINTs: status 130 (got $rc)" [ $rc -eq 130 ]
check "three SIGINTs: exitmon and exitgen gone" gone $KIDS
check "three SIGINTs: the scratch directory is removed" scratch_empty
done_testing
