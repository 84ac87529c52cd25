#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Ending a CSV record cut short when comms hold newlines, quotes and commas:
# at every cut point of a file of hostile comms, the next start's ending
# makes the cut record one damaged row for Python's csv module (not a comm
# that swallows the rows after it), every whole record before it and every
# record appended after it read as written.  Once with the file's start in
# the tail exitmon reads, once with 20,000 rows before the hostile ones (the
# quote state found from a run no quoted field can hold).  A cut right after
# a newline inside a quoted comm is a cut too.  exitstat lists the same
# records.  Replays only.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }
PCAP=$TOP/tests/data/real-v16.pcap
COLS=type,pid,comm

"$EXITMON" --replay "$PCAP" -f csv -F $COLS -o "$T/appended.csv" 2>/dev/null
for lead in 0 20000; do
	python3 - "$T" "$EXITMON" "$PCAP" "$COLS" "$lead" <<'PY'
import csv, io, os, subprocess, sys
T, exitmon, pcap, cols, lead = sys.argv[1:5] + [int(sys.argv[5])]
exitstat = os.path.join(os.path.dirname(exitmon), 'exitstat')
rows = lambda b: list(csv.reader(io.StringIO(b.decode('latin-1'), newline='')))
app = open(os.path.join(T, 'appended.csv'), 'rb').read()
header, appended = app.split(b'\n', 1)[0] + b'\n', rows(app)[1:]
comms = [b'a\nb', b'x",\n"y', b',\n,', b'"\n"', b'q"q', b'c,d', b'\n', b'sleep',
         b'\n\n\n', b'",",', b'end\n']
def field(c):
    if any(ch in c for ch in b',"\r\n'):
        return b'"' + c.replace(b'"', b'""') + b'"'
    return c
body = b''.join(b'pid,%d,normal\n' % (100000 + i) for i in range(lead))
hostile, ends = b'', []
for i, c in enumerate(comms):
    hostile += b'pid,%d,' % (i + 1) + field(c) + b'\n'
    ends.append(len(hostile))
base = header + body
f = os.path.join(T, 'cut.csv')
bad, cuts = [], 0
for cut in range(1, len(hostile)):
    whole = [e for e in ends if e <= cut]
    with open(f, 'wb') as out:
        out.write(base + hostile[:cut])
    cuts += 1
    if subprocess.run([exitmon, '--replay', pcap, '-f', 'csv', '-F', cols, '-o', f],
                      stderr=subprocess.DEVNULL).returncode != 0:
        bad.append('%d:exit' % cut)
        continue
    got = rows(open(f, 'rb').read())
    want_before = rows(header + body + hostile[:whole[-1] if whole else 0])
    n = len(want_before)
    damaged = 0 if whole and whole[-1] == cut else 1
    ok = got[:n] == want_before and got[n + damaged:] == appended and \
         len(got) == n + damaged + len(appended) and \
         (not damaged or len(got[n]) != 3)
    listed = subprocess.run([exitstat, '--list', '-f', 'csv', f], capture_output=True).stdout
    ok = ok and len(rows(listed)) - 1 == n - 1 + len(appended)
    if not ok:
        bad.append(str(cut))
print('%d cut points, %d read wrong%s' % (cuts, len(bad),
      (': ' + ' '.join(bad[:20])) if bad else ''))
sys.exit(1 if bad else 0)
PY
	rc=$?
	check "hostile comms after $lead plain rows: Python's csv reads every cut point's file right (exit $rc)" [ $rc -eq 0 ]
done
done_testing
