#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# Real tasks with hostile names, through the real kernel and the collector:
# standard CSV and JSON readers get the exact bytes back, and the text
# format shows them escaped on one line.
. "$(dirname "$0")/lib.sh"
need_taskstats

# Each name: at most 15 bytes (the kernel's comm), starting with a marker.
python3 - "$T/names" <<'PY'
import sys
names = [b'xh,comma"q', b'xh\nnew\rline', b'xh\\back\\', b'xh\x01\x1b[31m\x7f',
         b'xh\xff\xfe\xc3bad', b'xh \tspace ', b'xh\xc3\xa9t\xc3\xa9', b"xh'single"]
open(sys.argv[1], 'wb').write(b''.join(n.hex().encode() + b'\n' for n in names))
PY
for fmt in csv jsonl text; do
	start_exitmon hc-$fmt -f $fmt --comm 'xh*' || nok "collector ready"
	python3 - "$T/names" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None)
for line in open(sys.argv[1]):
    name = bytes.fromhex(line.strip())
    if os.fork() == 0:
        libc.prctl(15, ctypes.c_char_p(name), 0, 0, 0)   # PR_SET_NAME
        os._exit(0)
    os.wait()
PY
	stop_exitmon	# it drains what the reaped tasks sent
done

python3 - "$T/names" "$T/hc-csv.out" "$T/hc-jsonl.out" "$T/hc-text.out" > "$T/check" <<'PY'
import csv, io, json, sys
names = [bytes.fromhex(l.strip()) for l in open(sys.argv[1])]
raw = open(sys.argv[2], 'rb').read().decode('latin-1')
csv_names = [r['comm'].encode('latin-1') for r in csv.DictReader(io.StringIO(raw, newline=''))]
json_names = [json.loads(l)['comm'].encode('latin-1') for l in open(sys.argv[3])]
text = open(sys.argv[4], 'rb').read().split(b'\n')
text_rows = [l for l in text[1:] if l]
print('csv', int(sorted(csv_names) == sorted(names)), len(csv_names))
print('json', int(sorted(json_names) == sorted(names)), len(json_names))
ok = len(text_rows) == len(names) and all(all(32 <= b < 127 or b >= 128 for b in l) for l in text_rows)
print('text', int(ok), len(text_rows))
PY
while read -r fmt good n; do
	check "$fmt: every hostile name read back exactly ($n records)" [ "$good" = 1 ]
done < "$T/check"
check "text: newline shown as \\n" grep -qF 'xh\nnew\rline' "$T/hc-text.out"
check "text: escape byte shown as \\x1b" grep -qF '\x1b' "$T/hc-text.out"
done_testing
