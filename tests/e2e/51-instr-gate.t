#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The collector's performance gate (make instr-gate) can fail: it passes
# against the committed baseline, and against one edited to be 3% lower
# for csv it fails, naming csv with both counts and the rise; a case
# missing from the baseline fails too, a fall passes with a word to
# refresh, another toolchain is said in one line and compared all the
# same.  Also the path its capture case measures: exitmon --replay
# --capture writes a copy that replays to the same records.  No
# privileges, no taskstats.
. "$(dirname "$0")/lib.sh"

GATE=$TOP/tests/bench/instr-gate.sh
BASE=$TOP/tests/bench/instr-baseline
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }
command -v valgrind >/dev/null || { echo "Bail out! valgrind is not installed (tools/deps.sh)"; exit 1; }

# --- the capture case's path: --replay with --capture --------------------
DATA=$TOP/tests/data/real-6.19.14-v16.pcap
"$EXITMON" --replay "$DATA" --capture "$T/copy.pcap" -o /dev/null 2>/dev/null; rc=$?
check "--replay --capture: exit 0 (got $rc)" [ $rc -eq 0 ]
"$EXITMON" --replay "$DATA" --run-id $GOLDEN_RUN -f csv -o "$T/orig.csv" 2>/dev/null
"$EXITMON" --replay "$T/copy.pcap" --run-id $GOLDEN_RUN -f csv -o "$T/copy.csv" 2>/dev/null
check "the copy replays to the same records (its packets keep their times)" \
	cmp -s "$T/orig.csv" "$T/copy.csv"
"$EXITMON" --replay "$DATA" --capture "$T/cut.pcap" -o /dev/null --count 5 2>/dev/null
"$EXITMON" --replay "$T/cut.pcap" --run-id $GOLDEN_RUN -f csv -o "$T/cut.csv" 2>/dev/null
check "with --count 5 the copy is cut short: its first 5 records are the original's" \
	cmp -s <(head -6 "$T/cut.csv") <(head -6 "$T/orig.csv")
cp "$DATA" "$T/same.pcap"
(cd "$T" && "$EXITMON" --replay same.pcap --capture ./same.pcap 2>/dev/null); rc=$?
check "--replay F --capture ./F: exit 2 (got $rc), F untouched" \
	sh -c "[ $rc -eq 2 ] && cmp -s '$DATA' '$T/same.pcap'"

# --- the gate against the committed baseline -----------------------------
t0=$(date +%s)
"$GATE" > "$T/real.out" 2>&1; rc=$?
secs=$(( $(date +%s) - t0 ))
sed 's/^/# /' "$T/real.out"
check "the gate passes with the committed baseline (exit $rc)" [ $rc -eq 0 ]
check "it says so" grep -q '^instr-gate: passed: 5 cases' "$T/real.out"
check "it took well under a minute ($secs s)" [ $secs -lt 45 ]

# --- against an edited baseline: csv 3% lower, text 3% higher, capture
# missing, another toolchain ------------------------------------------------
awk -F= '
	/^# toolchain: / { print "# toolchain: another compiler 0.1; glibc 0.1; valgrind-0.1"; next }
	$1 == "csv"  { printf "csv=%.1f\n", $2 * 0.97; next }
	$1 == "text" { printf "text=%.1f\n", $2 * 1.03; next }
	$1 == "capture" { next }
	{ print }' "$BASE" > "$T/edited"
csv_was=$(sed -n 's/^csv=//p' "$T/edited")
"$GATE" --baseline "$T/edited" > "$T/edited.out" 2>&1; rc=$?
sed 's/^/# /' "$T/edited.out"
check "the gate fails against csv 3% lower (exit $rc)" [ $rc -eq 1 ]
check "... naming csv, both counts and a rise of about 3%" \
	grep -qE "^instr-gate: FAIL csv: [0-9.]+ instructions per record, baseline $csv_was: \+3\.[0-9]%, a rise of more than 2%" "$T/edited.out"
check "... and the case missing from the baseline" \
	grep -q '^instr-gate: FAIL capture: not in the baseline' "$T/edited.out"
check "... and no other case" \
	sh -c "[ \$(grep -c '^instr-gate: FAIL ' '$T/edited.out') -eq 2 ]"
check "... text 3% lower than its baseline passes, saying to refresh it" \
	grep -qE '^instr-gate: text fell by more than 2% .*refresh the baseline \(make instr-baseline\)' "$T/edited.out"
check "... the other toolchain said in one line" \
	sh -c "[ \$(grep -c 'toolchain differs' '$T/edited.out') -eq 1 ]"
check "... the summary line counts 2 of 5 and names the toolchain" \
	grep -q '^instr-gate: FAILED: 2 of 5 cases (csv capture), under another toolchain' "$T/edited.out"

# --- --write rewrites a baseline the gate then passes against ---------------
"$GATE" --write --baseline "$T/new" > "$T/write.out" 2>&1; rc=$?
check "--write: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... names the command that rewrites it and the toolchain" \
	sh -c "grep -q '^# Rewritten by: make instr-baseline' '$T/new' &&
	       grep -q '^# toolchain: ' '$T/new'"
check "... one key=value line a case" \
	sh -c "[ \$(grep -cE '^(csv|jsonl|text|csv-fields|capture)=[0-9]+\.[0-9]$' '$T/new') -eq 5 ]"
grep -qxF "$(grep '^# toolchain: ' "$T/new")" "$BASE" ||
	diag "this machine's toolchain is not the committed baseline's: $(grep '^# toolchain: ' "$T/new")"

done_testing
