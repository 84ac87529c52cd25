#!/bin/bash
# Every command in exitprobe(8)'s EXAMPLES runs and succeeds as written.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$EXITPROBE" ] || { echo "Bail out! $EXITPROBE not built"; exit 1; }

export PATH="$TOP:$PATH"
cd "$T" || exit 1
man_examples "$TOP/man/exitprobe.8" > examples
check "the page has examples" [ "$(wc -l < examples)" -ge 4 ]
while IFS= read -r cmd; do
	timeout 60 bash -c "$cmd" > out 2> err; rc=$?
	check "example runs: $cmd (exit $rc)" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || sed 's/^/# /' err
done < examples
check "summary example wrote the method" grep -q '^method=sample$' probe.sum
check "summary example wrote ns per exit" grep -q '^ns_per_exit=' probe.sum
done_testing
