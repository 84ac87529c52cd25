#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitprobe classifies real exits on this kernel (method sample):
#   - thread exits have the tgid accumulator (>= 99%), process exits do not
#     (<= 1%); descendants of the command are followed through sh -c;
#   - with an exitmon we started and declared (--listener-pid), >= 99% of
#     the exits met a listener and none met a foreign one;
#   - a second exitmon we do not declare is reported as foreign.
# Other collectors may run on a shared machine: "no listener" and "0
# foreign" are asserted only when the probe itself saw no other listener
# right before and after (otherwise a diag says why it was not asserted);
# the class counts must add up either way.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$EXITPROBE" ] || { echo "Bail out! $EXITPROBE not built"; exit 1; }

N=2000

# probe NAME ARGS...: exitprobe --method sample --summary $T/NAME.sum ARGS
probe() {
	name=$1; shift
	"$EXITPROBE" --method sample --summary "$T/$name.sum" "$@" \
		2>"$T/$name.err"
}

# share FILE KEY: KEY's share of exits in percent (integer)
share() { echo $(( $(kv "$1" "$2") * 100 / $(kv "$1" exits) )); }

# consistent FILE: class counts add up to exits, foreign <= listener.
consistent() {
	f=$1 sum=0
	for c in tgid_on_listener tgid_off_listener tgid_on_nolistener tgid_off_nolistener; do
		sum=$((sum + $(kv "$f" "exits_$c" | grep . || echo 0)))
	done
	[ "$sum" -eq "$(kv "$f" exits)" ] &&
		[ "$(kv "$f" exits_foreign_listener)" -le "$(kv "$f" exits_listener)" ]
}

# quiet_now: the probe sees no listener at all on a short burst of exits.
quiet_now() {
	"$EXITPROBE" --method sample --summary "$T/q.sum" -q -- \
		"$EXITGEN" --shape process --count 200 --rate 2000 -q &&
		[ "$(kv "$T/q.sum" exits_listener)" -eq 0 ]
}

# 1. Threads and processes without a collector of ours, via sh -c.
for shape in thread process; do
	probe $shape -- sh -c "\"$EXITGEN\" --shape $shape --count $N --rate 4000 -q"; rc=$?
	f=$T/$shape.sum
	check "$shape: exitprobe passes on exit 0" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || sed 's/^/# /' "$T/$shape.err"
	check "$shape: method sample" [ "$(kv "$f" method)" = sample ]
	check "$shape: period_us 100" [ "$(kv "$f" period_us)" = 100 ]
	check "$shape: at least $N exits seen through sh -c" \
		[ "$(kv "$f" exits)" -ge $N ]
	check "$shape: class counts add up" consistent "$f"
	# The runqueue the listener list is found from is this CPU's.
	check "$shape: listener state known for every exit" \
		[ "$(kv "$f" exits_listener_unknown)" = 0 ]
	if [ $shape = thread ]; then
		check "thread: >= 99% tgid on ($(share "$f" exits_tgid_on)%)" \
			[ "$(share "$f" exits_tgid_on)" -ge 99 ]
	else
		check "process: <= 1% tgid on ($(share "$f" exits_tgid_on)%)" \
			[ "$(share "$f" exits_tgid_on)" -le 1 ]
	fi
	# No listener declared: every listener met is someone else's.
	check "$shape: undeclared listeners are all foreign" \
		[ "$(kv "$f" exits_foreign_listener)" = "$(kv "$f" exits_listener)" ]
	check "$shape: an estimate with its interval" \
		grep -q '^ns_per_exit_ci95=' "$f"
	if [ "$(kv "$f" exits_listener)" -eq 0 ]; then
		check "$shape: no-listener class present" \
			grep -q "^ns_per_exit_tgid_o[nf]*_nolistener=" "$f"
	else
		diag "$shape: another collector is registered on this machine" \
		     "($(kv "$f" exits_listener) exits met it)"
	fi
done

# 2. Our exitmon, declared.
before_quiet=no; quiet_now && before_quiet=yes
start_exitmon mon -f csv || { nok "exitmon starts"; done_testing; }
probe decl --listener-pid "$MON_PID" -- "$EXITGEN" --shape process \
	--count $N --rate 4000 -q; rc=$?
after_quiet=no
f=$T/decl.sum
check "declared: exit 0" [ $rc -eq 0 ]
check "declared: >= 99% of exits met a listener ($(share "$f" exits_listener)%)" \
	[ "$(share "$f" exits_listener)" -ge 99 ]
check "declared: class counts add up" consistent "$f"
lns=$(kv "$f" ns_per_exit_tgid_off_listener | cut -d. -f1)
check "declared: listener class costs 300 ns to 50 us per exit (${lns} ns)" \
	in_range "$lns" 300 50000

# 3. A second exitmon, not declared: foreign.
MON1=$MON_PID
start_exitmon mon2 -f csv || { nok "second exitmon starts"; done_testing; }
probe foreign --listener-pid "$MON1" -- "$EXITGEN" --shape thread \
	--count $N --rate 4000 -q; rc=$?
f=$T/foreign.sum
check "foreign: exit 0" [ $rc -eq 0 ]
check "foreign: >= 99% of exits met the undeclared exitmon ($(share "$f" exits_foreign_listener)%)" \
	[ "$(share "$f" exits_foreign_listener)" -ge 99 ]
check "foreign: the report warns" grep -q 'not declared with --listener-pid' "$T/foreign.err"
kill -TERM "$MON_PID" "$MON1"
wait "$MON_PID" "$MON1" 2>/dev/null

quiet_now && after_quiet=yes
if [ $before_quiet = yes ] && [ $after_quiet = yes ]; then
	check "declared: no foreign listener" \
		[ "$(kv "$T/decl.sum" exits_foreign_listener)" -eq 0 ]
else
	diag "declared run: 0 foreign not asserted: another collector was" \
	     "registered (before: quiet=$before_quiet, after: quiet=$after_quiet);" \
	     "foreign=$(kv "$T/decl.sum" exits_foreign_listener)"
fi
done_testing
