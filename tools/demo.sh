#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo`: a one-minute sweep (exitsweep --quick), its plot as demo.svg
# (and demo.png beside it when rsvg-convert is there to draw one), and at
# the end where the plot is and what the headline numbers say.
#   tools/demo.sh [DIR [EXITSWEEP-OPTION...]]
# DIR defaults to the top of the tree, the options to --quick; EXITSWEEP
# names another exitsweep.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- --quick
sweep=${EXITSWEEP:-$top/exitsweep}
svg=$dir/demo.svg png=$dir/demo.png json=$dir/demo.json

# Only files this run wrote count, not a demo.json of an earlier one.
stamp=$(mktemp) || exit 1
st=0
"$sweep" "$@" --plot "$svg" --json "$json" || st=$?
new() { [ -s "$1" ] && [ "$1" -nt "$stamp" ]; }
fresh_json=0 fresh_svg=0
new "$json" && fresh_json=1
new "$svg" && fresh_svg=1
rm -f "$stamp"
# Killed by a signal (the user's ^C): stop here, as exitsweep did.
[ "$st" -gt 128 ] && exit "$st"
[ "$fresh_json" = 1 ] || { echo "demo: exitsweep wrote no results (status $st)" >&2; exit "$st"; }

echo
if [ "$fresh_svg" = 1 ]; then
	where=$svg
	if command -v rsvg-convert >/dev/null 2>&1; then
		# into place by rename: a link planted at demo.png is replaced, not followed
		if rsvg-convert --background-color=white -o "$png.tmp" "$svg" 2>"$png.err" &&
			mv -f "$png.tmp" "$png"; then
			where="$svg and $png"
		else
			echo "demo: rsvg-convert could not draw $png: $(tail -n1 "$png.err")" >&2
		fi
		rm -f "$png.tmp" "$png.err"
	else
		where="$where (for a PNG beside it: apt-get install librsvg2-bin)"
	fi
	echo "Plot: $where"
else
	echo "Plot: none drawn (exitsweep said why above)"
fi
echo "Results: $json (exitsweep compare $json OTHER.json sets machines side by side)"

# One line: the figures the report leads with, in words.  Only cells the
# report did not exclude count; "~" marks a range none of whose cells is
# significant.
python3 - "$json" <<'PY' || echo "Headline: see the tables above (cannot read $json)"
import json, sys

d = json.load(open(sys.argv[1]))
summ = d.get("summary", [])

def costs(prefix, want):
    rows = [s for s in summ if s.get("section", "").startswith(prefix)
            and s.get("metric") == "ts_ns_per_exit" and want(s)
            and not s.get("excluded") and s.get("value") is not None]
    return [s["value"] for s in rows], any(s.get("significant") for s in rows)

def span(vals, sig, scale, unit, prec):
    if not vals:
        return None
    lo, hi = min(vals) / scale, max(vals) / scale
    r = f"{lo:+.{prec}f}" if abs(hi - lo) < 10 ** -prec else f"{lo:+.{prec}f} to {hi:+.{prec}f}"
    return r + " " + unit + ("" if sig else " (~ not significant)")

tg = span(*costs("cost:tgid", lambda s: "listener=none" in s.get("key", "")), 1, "ns", 0)
li = span(*costs("cost:listener", lambda s: True), 1000, "us", 1)
loss = [s for s in d.get("loss", [])]
lost = sum(s.get("lost", 0) for s in loss)
sent = sum(s.get("expected", 0) for s in loss)
cpu = [s["value"] for s in summ if s.get("section") == "means"
       and s.get("metric") == "cpu_us_per_exit" and s.get("value") is not None]

parts = []
parts.append(f"tgid accumulation {tg} per thread exit" if tg else
             "tgid accumulation: no clean no-listener cell (another program's listener met "
             "the exits, cells marked *)")
parts.append(f"a listener {li} per exit" if li else "a listener: no clean cell")
line = "Headline: " + "; ".join(parts)
if tg or li:
    line += " (CPU time inside the kernel's taskstats_exit(), timed by exitprobe"
    if cpu:
        line += f", against {min(cpu):.0f}-{max(cpu):.0f} us for a whole create+exit"
    line += ")"
if sent:
    line += f"; {lost} of {sent} records lost by exitmon"
if d.get("partial"):
    line += f" (a partial sweep: {d.get('runs_done')} of {d.get('runs_planned')} runs)"
print(line + ".")
PY
exit "$st"
