#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command in exitprobe(8)'s EXAMPLES runs and succeeds as written.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$EXITPROBE" ] || { echo "Bail out! $EXITPROBE not built"; exit 1; }

cd "$T" || exit 1
run_man_examples "$TOP/man/exitprobe.8" 60
check "the page has examples ($MAN_EXAMPLES)" [ "$MAN_EXAMPLES" -ge 4 ]
check "summary example wrote the method" grep -q '^method=sample$' probe.sum
check "summary example wrote ns per exit" grep -q '^ns_per_exit=' probe.sum
done_testing
