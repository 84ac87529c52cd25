#!/bin/bash
# Every example in exitgen(1) runs as printed, and the page is lint clean.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }
PAGE=$TOP/man/exitgen.1

out=$(mandoc -Tlint -Wwarning "$PAGE" 2>&1)
check "exitgen(1) is lint clean${out:+: $out}" [ -z "$out" ]

cd "$T" || exit 1
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	case $cmd in
	exitgen\ *) ;;
	*) nok "example $n starts with exitgen: $cmd"; continue ;;
	esac
	# shellcheck disable=SC2086
	"$EXITGEN" ${cmd#exitgen } >"$T/ex$n.out" 2>"$T/ex$n.err"; rc=$?
	check "example $n exits 0: $cmd" [ $rc -eq 0 ]
	check "example $n reports" [ -s "$T/ex$n.out" ]
	[ $rc -eq 0 ] || sed 's/^/# /' "$T/ex$n.err"
done < <(man_examples "$PAGE")
check "the page has examples ($n)" [ $n -ge 5 ]
check "the summary example wrote its file" [ "$(kv "$T/grp4.sum" exits)" = 500 ]
check "the JSON example is JSON" python3 -c 'import json,sys; [json.load(open(f)) for f in sys.argv[1:]]' \
	$(grep -l '^{' "$T"/ex*.out)
done_testing
