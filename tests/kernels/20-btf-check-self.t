#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# btf_check.py, the decoder of taskstats records by the sending kernel's
# BTF, checked on what this repository ships: the real v16 capture agrees
# with exitmon's replay of it under a BTF laid out as the uapi header says
# (and under the host's own BTF when the host's struct is that one); a
# corrupted capture, a shifted layout and today's v17 column set are caught.
# Runs without privileges and without the kernel's taskstats.
. "$(dirname "$0")/../e2e/lib.sh"
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }

K=$TOP/tests/kernels/btf_check.py
MK=$TOP/tests/kernels/mksynth.py
D=$TOP/tests/data

"$MK" btf --version 16 "$T/v16.btf"
"$MK" btf --version 17 "$T/v17.btf"
gzip -c "$T/v17.btf" > "$T/v17.btf.gz"
"$EXITMON" --replay "$D/real-v16.pcap" -f csv > "$T/r16.csv" 2>/dev/null

# The fixture under the synthetic v16 BTF: host-independent.
"$K" --kernel fixture "$T/v16.btf" "$D/real-v16.pcap" "$T/r16.csv" > "$T/out" 2>&1; rc=$?
check "real v16 capture agrees with its replay (synthetic v16 BTF)" [ "$rc" -eq 0 ]
check "34 records, 0 disagreements, 560 bytes, version 16" \
	grep -q '^btf_check: fixture: 34 records, [0-9]* fields compared, 0 disagreements, struct taskstats 560 bytes, version 16$' "$T/out"
check "ac_pad is listed as padding" grep -q 'padding members.*ac_pad' "$T/out"
"$K" --live "$T/v16.btf" "$D/real-v16.pcap" "$D/real-v16.csv" > /dev/null 2>&1
check "and with the CSV recorded live (--live)" [ $? -eq 0 ]

# The host's own BTF, when its struct taskstats is v16's.
if [ -r /sys/kernel/btf/vmlinux ] &&
   cmp -s <("$K" --layout /sys/kernel/btf/vmlinux 2>/dev/null) <("$K" --layout "$T/v16.btf"); then
	"$K" /sys/kernel/btf/vmlinux "$D/real-v16.pcap" "$T/r16.csv" > "$T/out" 2>&1
	check "with this host's BTF too" [ $? -eq 0 ]
else
	ok "# SKIP host BTF is not the v16 layout (or absent)"
fi

# One flipped bit of hiwater_rss in the second record's stats.
python3 - "$D/real-v16.pcap" "$T/bad.pcap" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
pos, n = 24, 0
while True:                      # the second packet
    incl = struct.unpack_from("<I", data, pos + 8)[0]
    n += 1
    if n == 2:
        break
    pos += 16 + incl
pkt = pos + 16
stats = data.find(struct.pack("<HH", 564, 3), pkt) + 4   # TYPE_STATS, 560 bytes
data[stats + 200] ^= 0x40                                # hiwater_rss, low byte
open(sys.argv[2], "wb").write(data)
PY
"$K" "$T/v16.btf" "$T/bad.pcap" "$T/r16.csv" > "$T/out" 2>&1; rc=$?
check "a corrupted capture exits 1" [ "$rc" -eq 1 ]
check "naming the record, the column and both values" \
	grep -q "^record 2 (pid [0-9]*): hiwater_rss_kb: CSV '[0-9]*', BTF decode '[0-9]*'$" "$T/out"
check "one disagreement" grep -q ', 1 disagreements,' "$T/out"

"$MK" btf --version 16 --shift ac_minflt=8 "$T/shift.btf"
"$K" "$T/shift.btf" "$D/real-v16.pcap" "$T/r16.csv" > "$T/out" 2>&1; rc=$?
check "a shifted member offset exits 1" [ "$rc" -eq 1 ]
check "naming minflt" grep -q ': minflt: CSV' "$T/out"

# Version 17 (7.3: eight struct __kernel_timespec peaks after irq_delay_min).
"$MK" pcap --version 17 "$T/v17.pcap"
"$EXITMON" --replay "$T/v17.pcap" -f csv > "$T/r17.csv" 2>/dev/null
"$K" "$T/v17.btf.gz" "$T/v17.pcap" "$T/r17.csv" > "$T/out" 2>&1; rc=$?
if head -n1 "$T/r17.csv" | grep -q cpu_delay_max_ts_ns; then
	check "v17: exitmon agrees with the v17 BTF" [ "$rc" -eq 0 ]
else
	check "v17: exitmon without the *_max_ts_ns columns exits 1" [ "$rc" -eq 1 ]
	check "naming the missing column" \
		grep -q 'member cpu_delay_max_ts: exitmon.s CSV has no column cpu_delay_max_ts_ns' "$T/out"
	check "and the soft_* values where v17 has no such member" \
		grep -q "^record 1 (pid 4242): soft_count: CSV '[0-9]*', must be empty" "$T/out"
fi
# The CSV the fix is to write (soft_* gone, the eight *_max_ts_ns after
# irq_delay_min_ns, tv_sec * 1e9 + tv_nsec), made from mksynth's own values.
PYTHONPATH=$TOP/tests/kernels python3 - "$T/r17.csv" "$T/fixed.csv" <<'PY'
import csv, sys, mksynth
layout, _ = mksynth.lay_out(17)
index = {m[0]: i for i, m in enumerate(layout)}
recno = {"4242": 1, "4240": 2, "4243": 3, "4244": 4}
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="latin-1")))
head = [c for c in rows[0] if not c.startswith("soft_") and "_max_ts_ns" not in c]
at = head.index("irq_delay_min_ns") + 1
ts = [k + "_delay_max_ts_ns" for k in mksynth.DELAY_KINDS]
out = csv.writer(open(sys.argv[2], "w", newline="", encoding="latin-1"),
                 lineterminator="\n")
out.writerow(head[:at] + ts + head[at:])
for r in rows[1:]:
    d = dict(zip(rows[0], r))
    n = recno[d["pid"] if d["type"] == "pid" else d["tgid"]]
    v = [str((1000 + n * 100 + index[c[:-3]]) * 10**9 + 123456789) for c in ts]
    row = [d[c] for c in head]
    out.writerow(row[:at] + v + row[at:])
PY
"$K" "$T/v17.btf" "$T/v17.pcap" "$T/fixed.csv" > "$T/out" 2>&1
check "v17: the CSV of the coming fix agrees" [ $? -eq 0 ]
check "v17: 4 records, 688 bytes, version 17" \
	grep -q '^btf_check: ?: 4 records, [0-9]* fields compared, 0 disagreements, struct taskstats 688 bytes, version 17$' "$T/out"

# v16 records under the v17 BTF: the *_max_ts_ns columns must stay empty.
"$MK" pcap --version 16 "$T/v16.pcap"
PYTHONPATH=$TOP/tests/kernels python3 - "$T/fixed.csv" "$T/fixed16.csv" "$T/v16.pcap" "$EXITMON" <<'PY'
import csv, subprocess, sys
head = next(csv.reader(open(sys.argv[1], newline="")))
r16 = subprocess.run([sys.argv[4], "--replay", sys.argv[3], "-f", "csv"],
                     capture_output=True, text=True, encoding="latin-1").stdout
rows = list(csv.reader(r16.splitlines()))
out = csv.writer(open(sys.argv[2], "w", newline="", encoding="latin-1"),
                 lineterminator="\n")
out.writerow(head)
for r in rows[1:]:
    d = dict(zip(rows[0], r))
    out.writerow([d.get(c, "") for c in head])
PY
"$K" "$T/v17.btf" "$T/v16.pcap" "$T/fixed16.csv" > "$T/out" 2>&1
check "v16 records under a v17 BTF: absent members, empty columns" [ $? -eq 0 ]
python3 - "$T/fixed16.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
rows[1][rows[0].index("irq_delay_max_ts_ns")] = "1"
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
PY
"$K" "$T/v17.btf" "$T/v16.pcap" "$T/fixed16.csv" > "$T/out" 2>&1
check "a value where the record has no such member is caught" [ $? -eq 1 ]

"$K" "$T/v17.btf" > /dev/null 2>&1
check "usage error exits 2" [ $? -eq 2 ]
"$K" "$D/real-v16.csv" "$D/real-v16.pcap" "$T/r16.csv" > /dev/null 2>&1
check "a file that is not BTF exits 2" [ $? -eq 2 ]
done_testing
