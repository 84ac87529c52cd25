#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Output to the null device (-o /dev/null, or standard output sent there)
# is not formatted: the records are counted as written, and the work per
# record drops to receiving and parsing.  The evidence is callgrind's
# instruction count (not a counter inside exitmon): per record, a replay
# to /dev/null costs under half of the same replay to a file (CSV, every
# column: about a third with the skip, the same without it).  The
# input is the real v16 capture, its packets repeated past 20,000 records.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }
command -v valgrind >/dev/null || { nok "valgrind is missing (tools/deps.sh installs it)"; done_testing; }

python3 - "$TOP/tests/data/real-v16.pcap" "$T/big.pcap" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
packets, off = [], 24
while off + 16 <= len(data):
    n = struct.unpack_from('=I', data, off + 8)[0]
    packets.append(data[off:off + 16 + n])
    off += 16 + n
with open(sys.argv[2], 'wb') as f:
    f.write(data[:24])
    for _ in range(22000 // len(packets) + 1):
        f.write(b''.join(packets))
PY

"$EXITMON" --replay "$T/big.pcap" -f csv -o /dev/null --summary "$T/null.sum" 2>/dev/null; rc=$?
check "replay to -o /dev/null exits 0" [ "$rc" -eq 0 ]
m=$(kv "$T/null.sum" matched)
diag "matched=$m written=$(kv "$T/null.sum" written)"
check "more than 20,000 records matched" [ "$m" -gt 20000 ]
check "-o /dev/null: every record counted as written" \
	[ "$(kv "$T/null.sum" written)" -eq "$m" -a "$(kv "$T/null.sum" unwritten)" -eq 0 ]
"$EXITMON" --replay "$T/big.pcap" -f csv --summary "$T/stdout.sum" > /dev/null 2>&1
check "standard output sent to /dev/null: the same" \
	[ "$(kv "$T/stdout.sum" written)" -eq "$m" ]
"$EXITMON" --replay "$T/big.pcap" -f csv -o "$T/file.csv" --summary "$T/file.sum" 2>/dev/null
check "to a file: the same counts" [ "$(kv "$T/file.sum" written)" -eq "$m" ]
check "to a file: every record written" \
	[ "$(grep -vc '^run,seq,time_ns,type,' "$T/file.csv")" -eq "$m" ]
rm -f "$T/file.csv"

# instructions OUT N: callgrind's count for a replay of N records to OUT
instructions() {
	valgrind --tool=callgrind --callgrind-out-file="$T/cg.out" "$EXITMON" \
		--replay "$T/big.pcap" -f csv -o "$1" --count "$2" >/dev/null 2>&1
	sed -n 's/^summary: //p' "$T/cg.out"
	rm -f "$T/cg.out" "$T/file.csv"
}
# per record: the difference of two lengths, so start-up cancels out
per_record() {
	echo $(( ($(instructions "$1" 20000) - $(instructions "$1" 2000)) / 18000 ))
}
null=$(per_record /dev/null)
file=$(per_record "$T/file.csv")
diag "instructions per record: $null to /dev/null, $file to a file"
check "to /dev/null: under half the instructions per record of a file" \
	[ "$null" -gt 0 -a $(( null * 2 )) -lt "$file" ]
done_testing
