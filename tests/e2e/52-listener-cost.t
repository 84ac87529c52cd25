#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# tools/listener-cost run tiny: every case measured beside the floor
# listener, every listener heard every exit and none was lost, the figures
# positive and consistent (CPU per record over the floor's is the ratio),
# the unit ns on this machine and instr when told the clock counts
# instructions; under busybox's sh too, which is the rig guest's only
# shell.  What it costs is not tested: the host is no quiet machine.
. "$(dirname "$0")/lib.sh"
need_taskstats
[ -x "$TOP/build/bench/floor" ] || { echo "Bail out! build/bench/floor not built (make build/bench/floor)"; exit 1; }
LC=$TOP/tools/listener-cost
CASES="csv jsonl text csv-fields capture capture-floor"

"$LC" --count 500 --summary "$T/all.kv" >"$T/all.out" 2>"$T/all.err"; rc=$?
check "listener-cost runs every case (exit $rc)" [ "$rc" -eq 0 ]
sed 's/^/# /' "$T/all.out" "$T/all.err"
check "the unit is ns here" [ "$(kv "$T/all.kv" unit)" = ns ]
check "every listener heard every exit, none lost" grep -qx \
	'every listener heard every one of the 500 exits, none lost' "$T/all.out"
check "the summary says complete, none lost" \
	[ "$(kv "$T/all.kv" complete)/$(kv "$T/all.kv" lost)" = 1/0 ]
for c in $CASES; do
	k=${c//-/_}
	check "$c: a table row" grep -q "^$c  " "$T/all.out"
	check "$c: heard >= 500 records, records >= heard, none lost" python3 - "$T/all.kv" "$k" <<'PY'
import sys
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[1]))
k = sys.argv[2]
assert int(kv['heard_' + k]) >= 500 and int(kv['records_' + k]) >= int(kv['heard_' + k]), kv
assert kv['lost_' + k] == '0', kv['lost_' + k]
PY
	check "$c: CPU per record positive for both, their ratio the ratio" python3 - "$T/all.kv" "$k" <<'PY'
import sys
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[1]))
k = sys.argv[2]
li, fl, r = (float(kv[p + k]) for p in ('per_record_', 'floor_per_record_', 'ratio_'))
assert li > 0 and fl > 0 and r > 0, (li, fl, r)
assert abs(li / fl - r) <= 0.01 * r + 0.001, (li, fl, r)
assert float(kv['exitgen_per_exit_' + k]) > 0
PY
done

# The rig's guest has busybox and no bash: the same under busybox's sh,
# with the instruction clock's label (only the label: this clock is time).
BB=$(command -v busybox || true)
if [ -n "$BB" ]; then
	EXITMON_CLOCK=instructions "$BB" sh "$LC" --count 300 --cases csv \
		--rounds 2 --summary "$T/bb.kv" >"$T/bb.out" 2>"$T/bb.err"; rc=$?
	check "busybox sh: runs (exit $rc)" [ "$rc" -eq 0 ]
	sed 's/^/# /' "$T/bb.out"
	check "busybox sh: one case, two rounds, complete" \
		[ "$(kv "$T/bb.kv" rounds)/$(kv "$T/bb.kv" complete)/$(grep -c '^records_' "$T/bb.kv")" = 2/1/1 ]
	check "instruction clock: unit instr, no ns in the table" \
		sh -c "[ \"\$(sed -n 's/^unit=//p' '$T/bb.kv')\" = instr ] && grep -q 'instr/record' '$T/bb.out' && ! grep -q 'ns/' '$T/bb.out'"
else
	ok "# SKIP busybox not installed: the busybox sh run"
fi

# Refusals: one line each, status 2, nothing measured.
for bad in "--count 0" "--cases csv,bogus" "--rounds x" "--nope"; do
	# shellcheck disable=SC2086
	"$LC" $bad >"$T/bad.out" 2>"$T/bad.err"; rc=$?
	check "refused: $bad (exit 2, one line)" \
		[ "$rc/$(wc -l <"$T/bad.err")/$(wc -c <"$T/bad.out")" = 2/1/0 ]
done
"$LC" --help >"$T/help.out"; rc=$?
check "--help: exit 0, the usage" [ "$rc" -eq 0 ]
check "--help names every case" sh -c "grep -q 'csv jsonl text csv-fields' '$T/help.out' && grep -q 'capture capture-floor' '$T/help.out'"
done_testing
