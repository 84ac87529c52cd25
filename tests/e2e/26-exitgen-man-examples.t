#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example in exitgen(1) runs as printed, and the page is lint clean.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }
PAGE=$TOP/man/exitgen.1

out=$(mandoc -Tlint -Wwarning "$PAGE" 2>&1)
check "exitgen(1) is lint clean${out:+: $out}" [ -z "$out" ]

cd "$T" || exit 1
run_man_examples "$PAGE" 60
check "the page has examples ($MAN_EXAMPLES)" [ "$MAN_EXAMPLES" -ge 5 ]
for n in $(seq "$MAN_EXAMPLES"); do
	check "example $n reports" [ -s "ex$n.out" ]
done
check "the summary example wrote its file" [ "$(kv "$T/grp4.sum" exits)" = 500 ]
check "the JSON example is JSON" python3 -c 'import json,sys; [json.load(open(f)) for f in sys.argv[1:]]' \
	$(grep -l '^{' "$T"/ex*.out)
done_testing
