#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel refusing more tasks (here RLIMIT_NPROC, for an unprivileged
# user; root is exempt) stops a run cleanly: exit status 1, one line saying
# why and how many tasks were made, a full report with stopped_by=limit,
# every task made reaped, nothing left behind.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip_all "needs root to switch to an unprivileged user"
command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
	{ echo "Bail out! setpriv and prlimit (util-linux) are needed"; exit 1; }
U=65534
EXITGEN=$(public_bin)/exitgen
D=$T/nobody
mkdir "$D" && chmod 777 "$D"
setpriv --reuid=$U --regid=$U --clear-groups "$EXITGEN" --count 1 -q ||
	{ echo "Bail out! user $U cannot run $EXITGEN (directory permissions?)"; exit 1; }

limited() { # limited NAME ARGS...: run as user U with at most 30 tasks
	name=$1; shift
	setpriv --reuid=$U --regid=$U --clear-groups prlimit --nproc=30 \
		"$EXITGEN" --tag eg23$name -q --summary "$D/$name.sum" "$@" \
		2>"$D/$name.err"; rc=$?
	s=$D/$name.sum
	check "$name: exit status 1 (got $rc)" [ $rc -eq 1 ]
	check "$name: one line on stderr" [ "$(wc -l <"$D/$name.err")" -eq 1 ]
	check "$name: it names the limit" grep -q 'RLIMIT_NPROC' "$D/$name.err"
	check "$name: stopped_by=limit" [ "$(kv "$s" stopped_by)" = limit ]
	made=$(kv "$s" tasks_created)
	diag "$name: $made tasks made; $(cat "$D/$name.err")"
	check "$name: the line says how many were made" grep -q "after $made tasks" "$D/$name.err"
	check "$name: every one made was reaped" [ "$(kv "$s" exits)" = "$made" ]
	check "$name: children_left=0" [ "$(kv "$s" children_left)" = 0 ]
	check "$name: nothing with the tag is left" \
		[ "$(grep -lxF eg23$name /proc/[0-9]*/task/[0-9]*/comm 2>/dev/null | wc -l)" -eq 0 ]
}

limited fork --shape fork --batch 100 --count 200
limited proc --shape process --batch 100 --count 200
limited thr --shape thread --batch 100 --count 200
limited grp --shape group:4 --batch 50 --count 100
limited sig --shape process --batch 100 --count 100 --exit-by signal
limited cohort --shape fork --cohort 60
limited bg --shape fork --background 100 --count 10
check "bg: background children made before the limit are reported" \
	[ "$(kv "$D/bg.sum" background)" -gt 0 ]
done_testing
