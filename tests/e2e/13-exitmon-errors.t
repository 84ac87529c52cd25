#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Each start-up failure gives one clear line and its own exit status.
. "$(dirname "$0")/lib.sh"
need_taskstats

expect() { # expect STATUS PATTERN DESCRIPTION -- COMMAND...
	st=$1 pat=$2 d=$3; shift 4
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	lines=$(wc -l < "$T/err")
	if [ $rc -eq "$st" ] && grep -q -- "$pat" "$T/err" && [ "$lines" -ge 1 ]; then
		ok "$d (exit $rc)"
	else
		nok "$d: exit $rc, wanted $st; stderr: $(head -c 300 "$T/err")"
	fi
}

expect 3 "CAP_NET_ADMIN.*setcap cap_net_admin+ep" "no CAP_NET_ADMIN (nobody)" -- \
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$EXITMON" --duration 1
check "no-capability failure is one line" [ "$(wc -l < "$T/err")" -eq 1 ]
expect 3 "CAP_NET_ADMIN" "root without CAP_NET_ADMIN in its bounding set" -- \
	setpriv --bounding-set=-net_admin --inh-caps=-all "$EXITMON" --duration 1
expect 4 "initial user namespace" "user namespace (EPERM)" -- \
	unshare --user --map-root-user "$EXITMON" --duration 1
expect 4 "initial PID namespace" "PID namespace (EINVAL)" -- \
	unshare --pid --fork "$EXITMON" --duration 1
expect 5 "initial network namespace" "network namespace hears nothing" -- \
	unshare --net "$EXITMON" --duration 1
expect 7 "possible CPUs are" "cpu list beyond the possible CPUs" -- \
	"$EXITMON" --cpus "0-$(( $(sed "s/.*[-,]//" /sys/devices/system/cpu/possible) + 1 ))" --duration 1
expect 7 "possible CPUs are" "cpu number beyond any machine" -- \
	"$EXITMON" --cpus 0-9999 --duration 1
expect 8 "cannot open output" "unwritable output" -- \
	"$EXITMON" -o /proc/nonexistent/out --duration 1
expect 2 "bad value for --format: 'xml'" "bad format" -- "$EXITMON" -f xml
expect 2 "unknown option" "unknown option" -- "$EXITMON" --frobnicate
expect 2 "needs a value" "missing value" -- "$EXITMON" --interval
expect 2 "bad value for --interval" "trailing junk" -- "$EXITMON" --interval 10x
expect 2 "bad value for --rcvbuf" "negative size" -- "$EXITMON" --rcvbuf -1
expect 2 "bad value for --count" "zero count" -- "$EXITMON" --count 0
expect 2 "bad value for --tgid" "huge tgid" -- "$EXITMON" --tgid 99999999999
expect 2 "bad value for --cpus: '3-1'" "bad cpu list" -- "$EXITMON" --cpus 3-1
expect 2 "bad value for --comm: 'a\[' (an unclosed" "unclosed [ in --comm" -- "$EXITMON" --comm 'a['
expect 2 "applies only to a live collector" "conflicting options" -- "$EXITMON" --replay x --wakeup
expect 2 "unexpected argument" "stray argument" -- "$EXITMON" stray
# Every option that takes a number, with every kind of bad value.
for opt in --interval --rcvbuf --stats --tgid --uid --duration --count --shards \
	   --metrics-commands; do
	for val in "" -1 abc 10x 99999999999999999999999 " 5" 0x10; do
		expect 2 "bad value for $opt" "$opt '$val'" -- "$EXITMON" "$opt" "$val"
	done
done
expect 2 "needs a value" "option without its value at the end" -- "$EXITMON" --count
expect 2 "unknown option" "unknown short option" -- "$EXITMON" -Z
expect 2 "bad value for --user: 'no-such-user-xyz' (no such user)" "unknown user" -- "$EXITMON" --user no-such-user-xyz
expect 2 "more than the" "more shards than CPUs" -- "$EXITMON" --shards 2 --cpus 0
expect 2 "are the same file" "output and capture the same file" -- \
	"$EXITMON" -o "$T/same" --capture "$T/same"
"$EXITMON" --no-self-check --duration 0.3 -o /dev/null 2>/dev/null; rc=$?
check "--no-self-check runs" [ "$rc" -eq 0 ]
"$EXITMON" --help | grep -q -- "--rcvbuf"; rc=$?
check "--help lists the options" [ "$rc" -eq 0 ]
check "--version" "$EXITMON" --version
# 'all' with other columns: said as such, not "no column named 'all'"
"$EXITMON" -F all,pid -o /dev/null 2>"$T/fall"; rc=$?
check "-F all,pid: exit 2 (got $rc), 'all' stands alone" \
	sh -c "[ $rc -eq 2 ] && grep -q \"'all' stands alone\" '$T/fall' && ! grep -q 'no column named' '$T/fall'"
# an ambiguous long option names its candidates (one option rule for all)
"$EXITMON" --co x 2>"$T/amb"; rc=$?
check "--co: exit 2 (got $rc), ambiguous, the candidates named" \
	sh -c "[ $rc -eq 2 ] && grep -q \"option '--co' is ambiguous: it could be --comm, --count;\" '$T/amb'"
done_testing
