#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitprobe's methods, exit statuses and error messages:
#   - auto says which method it used and why; fentry either works or fails
#     with status 122 and its reason (this VM refuses BPF trampolines);
#   - the command's exit status is passed on (128 + N for signal N),
#     127/126 when it cannot be run;
#   - usage errors (no command, bad or too short --period, bad --method)
#     exit 2 with one line naming the problem; so do, at start, a
#     --listener-pid that is no process and a --summary that cannot be
#     written (a safe-open refusal in words);
#   - unprivileged: one line, status 121;
#   - --duration without a command measures the machine.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$EXITPROBE" ] || { echo "Bail out! $EXITPROBE not built"; exit 1; }

EG="$EXITGEN --count 50 -q"

# 1. auto: a real load attempt, its outcome named.
"$EXITPROBE" --summary "$T/auto.sum" -q -- $EG; rc=$?
check "auto: exit 0" [ $rc -eq 0 ]
m=$(kv "$T/auto.sum" method) why=$(kv "$T/auto.sum" method_reason)
check "auto: method is fentry or sample ($m)" [ "$m" = fentry -o "$m" = sample ]
if [ "$m" = sample ]; then
	check "auto fell back: the reason names fentry ($why)" \
		grep -q 'fentry' <<<"$why"
fi

# 2. fentry as asked: works, or fails with its own status and reason.
"$EXITPROBE" --method fentry --summary "$T/fe.sum" -q -- $EG 2>"$T/fe.err"; rc=$?
if [ $rc -eq 0 ]; then
	check "fentry: method fentry" [ "$(kv "$T/fe.sum" method)" = fentry ]
	check "fentry: p50 per class" grep -q '_p50=' "$T/fe.sum"
else
	check "fentry refused: status 122 ($rc)" [ $rc -eq 122 ]
	check "fentry refused: one line" [ "$(wc -l < "$T/fe.err")" -eq 1 ]
	check "fentry refused: says why" grep -q '^exitprobe: fentry refused' "$T/fe.err"
	diag "$(cat "$T/fe.err")"
fi

# 3. The command's exit status is passed on.
"$EXITPROBE" -q -- sh -c 'exit 7'; rc=$?
check "command status 7 passed on ($rc)" [ $rc -eq 7 ]
"$EXITPROBE" -q -- sh -c 'kill -TERM $$'; rc=$?
check "command killed by SIGTERM: 143 ($rc)" [ $rc -eq 143 ]
"$EXITPROBE" -q -- "$T/no-such-command" 2>"$T/nf.err"; rc=$?
check "command not found: 127 ($rc)" [ $rc -eq 127 ]
check "command not found: said" grep -q "cannot run .*no-such-command" "$T/nf.err"
printf 'x' > "$T/notexec"
"$EXITPROBE" -q -- "$T/notexec" 2>/dev/null; rc=$?
check "command not runnable: 126 ($rc)" [ $rc -eq 126 ]
"$EXITPROBE" -q -- sh -c 'echo to-stdout'  > "$T/out" 2>"$T/err0"
check "the command owns stdout" [ "$(cat "$T/out")" = to-stdout ]
"$EXITPROBE" -- true > "$T/out" 2>"$T/err"
check "the report goes to stderr with a command" grep -q '^exits ' "$T/err"

# 4. Usage errors: status 2, one line.
usage() { # usage DESCRIPTION PATTERN ARGS...
	local what=$1 pat=$2; shift 2
	"$EXITPROBE" "$@" >/dev/null 2>"$T/u.err"; rc=$?
	check "$what: status 2 ($rc)" [ $rc -eq 2 ]
	check "$what: one line naming the problem" grep -q "$pat" "$T/u.err"
}
usage "no command" "no command" --summary "$T/x.sum"
usage "period too short" "at least\|50 or more" --period 20 -- true
usage "period not a number" "bad value for --period" --period 1x -- true
usage "unknown method" "bad value for --method" --method kprobe -- true
usage "duration with a command" "without a command" --duration 1 -- true
check "no summary after a usage error" [ ! -e "$T/x.sum" ]

# 4b. Checked at start, before anything runs: a --listener-pid that is no
# process, a --summary that cannot be written (its refusal in words).
sh -c 'exit 0' & dead=$!; wait $dead
"$EXITPROBE" --listener-pid $dead -- touch "$T/ran1" 2>"$T/lp.err"; rc=$?
check "--listener-pid of no process: status 2 ($rc)" [ $rc -eq 2 ]
check "--listener-pid of no process: one line" [ "$(wc -l < "$T/lp.err")" -eq 1 ]
check "--listener-pid of no process: says so" \
	grep -q "^exitprobe: --listener-pid $dead: no such process" "$T/lp.err"
check "--listener-pid of no process: the command did not run" [ ! -e "$T/ran1" ]
"$EXITPROBE" --listener-pid $$ --method sample -q -- true; rc=$?
check "--listener-pid of a running process: accepted ($rc)" [ $rc -eq 0 ]
"$EXITPROBE" --summary "$T/no-dir/p.sum" -- touch "$T/ran2" 2>"$T/sd.err"; rc=$?
check "--summary in a missing directory: status 2 at start ($rc)" [ $rc -eq 2 ]
check "--summary in a missing directory: one line" [ "$(wc -l < "$T/sd.err")" -eq 1 ]
check "--summary in a missing directory: naming it and why" \
	grep -q "^exitprobe: cannot write the summary $T/no-dir/p.sum: No such file" "$T/sd.err"
check "--summary in a missing directory: the command did not run" [ ! -e "$T/ran2" ]
if id nobody >/dev/null 2>&1; then
	mkdir "$T/sticky" && chmod 1777 "$T/sticky"
	: > "$T/sticky/other.sum" && chown nobody "$T/sticky/other.sum"
	"$EXITPROBE" --summary "$T/sticky/other.sum" -- touch "$T/ran3" 2>"$T/so.err"; rc=$?
	check "--summary another user's file in a sticky dir: status 2 ($rc)" [ $rc -eq 2 ]
	check "--summary refused by the safe open: said in words" \
		grep -q "another user's file" "$T/so.err"
	check "--summary refused: no 'Unknown error'" \
		[ -z "$(grep "Unknown error" "$T/so.err")" ]
	check "--summary refused: the command did not run" [ ! -e "$T/ran3" ]
else
	nok "user nobody is needed for the safe-open refusal test"
fi

# 5. Unprivileged: BPF unavailable, one line, status 121.
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	bin=$(public_bin)
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$bin/exitprobe" -- /bin/true 2>"$T/np.err"; rc=$?
	check "unprivileged: status 121 ($rc)" [ $rc -eq 121 ]
	check "unprivileged: one line" [ "$(wc -l < "$T/np.err")" -eq 1 ]
	check "unprivileged: says BPF is unavailable and why" \
		grep -q '^exitprobe: BPF unavailable: needs CAP_BPF' "$T/np.err"
else
	nok "setpriv and user nobody are needed for the unprivileged test"
fi

# 6. The machine for a while: no command, --duration.
"$EXITPROBE" --duration 0.5 --summary "$T/all.sum" > "$T/all.out"; rc=$?
check "--duration: exit 0" [ $rc -eq 0 ]
check "--duration: summary with exits" grep -q '^exits=' "$T/all.sum"
check "--duration: report on stdout" grep -q '^exits ' "$T/all.out"
done_testing
