#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitgen's command line: every bad option or value is one line on stderr,
# program name first, nothing on stdout, exit status 2; --help lists every
# option of the man page; --version.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITGEN" ] || { echo "Bail out! $EXITGEN not built"; exit 1; }

# bad ARGS...: must fail with status 2 and one line naming the program.
bad() {
	"$EXITGEN" "$@" >"$T/out" 2>"$T/err"; rc=$?
	lines=$(wc -l <"$T/err")
	if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ] &&
	   grep -q '^exitgen: ' "$T/err"; then
		ok "rejected: $* ($(cat "$T/err"))"
	else
		nok "rejected: $* (rc=$rc, $lines lines: $(head -c 200 "$T/err"))"
	fi
}

bad --bogus
bad -x
bad extra-argument
bad --rate
bad --rate 0
bad --rate -5
bad --rate fast
bad --rate 1e9
bad --rate 10abc
bad --count 0
bad --count -1
bad --count 1.5
bad --count 99999999999999999999999
bad --duration 0
bad --duration x
bad --workers 0
bad --workers 257
bad --batch 0
bad --shape bogus
bad --shape group
bad --shape group:1
bad --shape group:0
bad --shape group:2x
bad --shape group:5000
bad --work cpu
bad --work cpu:
bad --work cpu:abc
bad --work touch:12Q
bad --work write:
bad --work write:1K:
bad --work sleep:10
bad --tag ''
bad --tag "$(printf 'a\tb')"
bad --tag exitgen-main
bad --tag exitgen-bg
bad --exit-by poison
bad --exit-by signal --shape thread
bad --background -1
bad --background many
bad --mmap 0
bad --mmap 100M:
bad --mmap lots
bad --cohort 0
bad --cohort 4 --rate 100
bad --cohort 4 --count 10
bad --cohort 4 --batch 2
bad --cohort 4 --workers 2
bad --baseline --rate 100
bad --baseline --work cpu:10
bad --baseline --batch 4
bad --rate 1 --duration 0.5

"$EXITGEN" --help >"$T/help" 2>"$T/err"; rc=$?
check "--help exits 0 with nothing on stderr" [ "$rc" -eq 0 -a ! -s "$T/err" ]
for o in $(sed -n 's/^\.It Fl \([a-zA-Z]\) , Fl -\([a-z-]*\).*/\2/p; s/^\.It Fl -\([a-z-]*\).*/\1/p' "$TOP/man/exitgen.1"); do
	check "--help lists --$o (from the man page)" grep -q -- "--$o" "$T/help"
done
check "--help names the man page" grep -q 'exitgen(1)' "$T/help"
"$EXITGEN" --version >"$T/ver"; rc=$?
check "--version exits 0" [ "$rc" -eq 0 ]
check "--version prints a version" grep -Eq '^exitgen [0-9]+\.[0-9]+' "$T/ver"

# A long tag is cut to 15 bytes with a warning, not refused.
"$EXITGEN" --tag abcdefghijklmnopqrstu --count 3 -q --summary "$T/long.sum" 2>"$T/long.err"; rc=$?
check "a long tag still runs" [ "$rc" -eq 0 ]
check "a long tag is cut to 15 bytes" [ "$(kv "$T/long.sum" tag)" = abcdefghijklmno ]
check "a long tag warns" grep -q 'abcdefghijklmno' "$T/long.err"

# The summary goes where asked, or the run fails with status 1, at start
# (3 s of run at --rate 10 are not spent first).
start=$(date +%s%N)
"$EXITGEN" --rate 10 --count 30 -q --summary /nonexistent/dir/x.sum 2>"$T/sumerr"; rc=$?
el=$(( ($(date +%s%N) - start) / 1000000 ))
check "unwritable summary: status 1" [ "$rc" -eq 1 ]
check "unwritable summary: says so" grep -q 'summary' "$T/sumerr"
check "unwritable summary: refused at start (${el} ms)" [ $el -lt 1500 ]

# Every file exitgen writes goes through the safe open: another user's
# file in a sticky directory, or a link another user planted, is refused
# in words and left alone.
if id nobody >/dev/null 2>&1; then
	mkdir "$T/sticky" && chmod 1777 "$T/sticky"
	: > "$T/sticky/other" && chown nobody "$T/sticky/other"
	: > "$T/target"
	ln -s "$T/target" "$T/sticky/link" && chown -h nobody "$T/sticky/link"
	for how in "--summary $T/sticky/other" "--work write:8192:$T/sticky/other" \
		"--mmap 1M:$T/sticky/other" "--work write:8192:$T/sticky/link" \
		"--mmap 1M:$T/sticky/link"; do
		"$EXITGEN" --count 3 -q $how 2>"$T/safe.err"; rc=$?
		check "$how: status 1 ($rc)" [ $rc -eq 1 ]
		check "$how: refused in words" \
			grep -q "another user's file\|link" "$T/safe.err"
		check "$how: no 'Unknown error'" \
			[ -z "$(grep 'Unknown error' "$T/safe.err")" ]
		check "$how: the files are left alone" \
			[ ! -s "$T/sticky/other" -a ! -s "$T/target" ]
	done
else
	nok "user nobody is needed for the safe-open tests"
fi
done_testing
