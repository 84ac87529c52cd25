#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exitsweep compare on result files made by hand, as a hostile or damaged
# file would be: each item read in its own unit, refusals in one line and
# exit 1, nothing from a file reaching the terminal raw; and a flag given
# a value named as such.  No sweep runs: no taskstats, no privileges.
. "$(dirname "$0")/lib.sh"
need_exitsweep

# result FILE UNIT-MEMBER ITEM-UNIT FIGURE [MORE]: a result file of one
# taskstats_exit item
result() {
	printf '{"format": "exitsweep/1", "kind": "overhead"%s%s, "summary": [{"section": "means", "title": "Means per cell\\u001b[2J\\u0007", "key": "tgid=on", "label": "taskstats_exit", "unit": %s, %s}]}\n' \
		"$2" "$5" "$3" "$4" >"$T/$1"
}
# refused NAME FILE... WORDS: exit 1, one line on stderr with WORDS, no table
refused() {
	d=$1 w=$2; shift 2
	"$EXITSWEEP" compare "$@" >"$T/r.out" 2>"$T/r.err"; rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$T/r.err")" -eq 1 ] && grep -qF -- "$w" "$T/r.err" &&
	   [ ! -s "$T/r.out" ]; then
		ok "$d"
	else
		nok "$d (rc $rc)"; sed 's/^/# /' "$T/r.err"
	fi
}

result us.json '' '"us"' '"value": 40.5, "lo": 40, "hi": 41'
result ms.json '' '"ms"' '"value": 0.0405, "lo": 0.040, "hi": 0.041' \
	', "machine": {"hostname": "h\u001b]0;owned\u0007", "emulated": "tcg\nWARNING: forged"}'
"$EXITSWEEP" compare "$T/us.json" "$T/ms.json" >"$T/c.out" 2>"$T/c.err"; rc=$?
check "ms beside us: exit 0" [ $rc -eq 0 ]
check "ms beside us: both 40.50 ±0.50 in the us row" \
	sh -c "[ \$(grep -c 'taskstats_exit us  *40.50 ±0.50  *40.50 ±0.50' '$T/c.out') -eq 1 ]"
check "ms beside us: no raw control character on stdout" \
	sh -c "! LC_ALL=C grep -q \"\$(printf '[\\001-\\010\\013-\\037\\177]')\" '$T/c.out'"
check "ms beside us: the title's and the machine's escapes shown as \\xNN" \
	sh -c "grep -qF 'Means per cell\\x1b[2J\\x07' '$T/c.out' && grep -qF 'h\\x1b]0;owned\\x07' '$T/c.out'"
check "ms beside us: the emulation warning is one line" \
	sh -c "grep -c '^WARNING' '$T/c.out' | grep -qx 1 && grep -qF 'tcg\\x0aWARNING: forged' '$T/c.out'"

result five.json '' '5' '"value": 1'
refused "an item's unit 5: refused" "summary item 1 (taskstats_exit) has no unit exitsweep writes" \
	"$T/us.json" "$T/five.json"
result null.json '' 'null' '"value": 1'
refused "an item's unit null: refused" "has no unit exitsweep writes" "$T/null.json"
result instr.json '' '"instr"' '"value": 479'
refused "instructions in a file of times: refused" "counts instructions in a file of times" "$T/instr.json"
result pct.json '' '"%"' '"value": 3'
refused "a percentage in a row of times: refused" "is in \"%\" where the first file has it in \"us\"" \
	"$T/us.json" "$T/pct.json"
result clock.json ', "unit": 5' '"us"' '"value": 1'
refused "a file's unit 5: refused" "its unit is not \"ns\" or \"instr\"" "$T/clock.json"
result big.json '' '"us"' '"value": 1' ', "runs_done": 1e300, "runs_planned": 8'
refused "runs_done 1e300: refused" "its runs_done is not a whole number of 0 to 10^12" "$T/big.json"
result neg.json '' '"us"' '"value": 1' ', "runs_done": 3, "runs_planned": -5'
refused "runs_planned -5: refused" "its runs_planned is not" "$T/neg.json"
result cfg.json '' '"s"' '"value": 1e300, "lo": -1e308, "hi": 1e308' ', "config": {"count": 5}'
"$EXITSWEEP" compare "$T/cfg.json" >"$T/n.out" 2>&1; rc=$?
check "no runs in config, seconds past a double as ns: exit 0" [ $rc -eq 0 ]
check "... and never nan or inf" sh -c "! grep -qiE 'nan|inf' '$T/n.out'"

# a flag given a value: named, never answered about its short form
"$EXITSWEEP" --quiet=yes >"$T/q.out" 2>"$T/q.err"; rc=$?
check "exitsweep --quiet=yes: exit 2, the option named" \
	sh -c "[ $rc -eq 2 ] && grep -qF \"option --quiet takes no value (given '--quiet=yes')\" '$T/q.err'"
"$EXITGEN" --json=yes >"$T/q.out" 2>"$T/q.err"; rc=$?
check "exitgen --json=yes: exit 2, --json named, not -j" \
	sh -c "[ $rc -eq 2 ] && grep -qF 'option --json takes no value' '$T/q.err' && ! grep -q \"'-j'\" '$T/q.err'"
done_testing
