#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A struct taskstats newer than the newest layout exitmon knows is read by
# its known prefix: every field it knows comes out as before, exitmon says
# once which version and size it met, and the summary counts the records
# (newer_struct).  The input is the real v16 capture rewritten as a kernel
# of a future version would send it: version 18, 32 more bytes per struct.
# A known version that is longer than its size is counted the same way.
. "$(dirname "$0")/lib.sh"
[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }

D=$TOP/tests/data
# grow IN OUT VERSION ZERO EXTRA: every TYPE_STATS payload gets version
# VERSION, ZERO more bytes of 0 (v17's timestamps: no wait) and EXTRA of
# 0xee (what exitmon does not know); every enclosing length is fixed up.
grow() {
	python3 - "$@" <<'PY'
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
version, zero, extra = (int(a) for a in sys.argv[3:6])
data = open(src, 'rb').read()
out = bytearray(data[:24])

def attrs(buf):
    """Rewrite a run of netlink attributes; nests 4/5 hold PID/TGID + STATS."""
    res, off = bytearray(), 0
    while off + 4 <= len(buf):
        ln, typ = struct.unpack_from('=HH', buf, off)
        body = buf[off + 4:off + ln]
        if typ in (4, 5):
            body = attrs(body)
        elif typ == 3:
            body = struct.pack('=H', version) + body[2:] + b'\0' * zero + b'\xee' * extra
        res += struct.pack('=HH', 4 + len(body), typ) + body
        res += b'\0' * (-len(res) % 4)
        off += (ln + 3) & ~3
    return res

off = 24
while off + 16 <= len(data):
    sec, usec, incl, orig = struct.unpack_from('=IIII', data, off)
    pkt = data[off + 16:off + 16 + incl]
    off += 16 + incl
    msgs, p = bytearray(), 0
    while p + 16 <= len(pkt):
        nlen, ntype, flags, seq, pid = struct.unpack_from('=IHHII', pkt, p)
        body = pkt[p + 16:p + nlen]
        if ntype >= 0x10 and len(body) >= 4:	# a genl family: genlmsghdr, attributes
            body = body[:4] + attrs(body[4:])
        msgs += struct.pack('=IHHII', 16 + len(body), ntype, flags, seq, pid) + body
        p += (nlen + 3) & ~3
    out += struct.pack('=IIII', sec, usec, len(msgs), len(msgs)) + msgs
open(dst, 'wb').write(out)
PY
}

# same_but_version A B: the two CSVs agree in every column but version,
# and where B is empty A may say 0 (v17's timestamps of no wait).
same_but_version() {
	python3 - "$1" "$2" <<'PY'
import csv, sys
a = list(csv.DictReader(open(sys.argv[1], newline='', encoding='latin-1')))
b = list(csv.DictReader(open(sys.argv[2], newline='', encoding='latin-1')))
ok = len(a) == len(b) and all(x[k] == y[k] or (k.endswith('_max_ts_ns') and
                                                 x[k] == '0' and y[k] == '')
                               for x, y in zip(a, b) for k in y if k != 'version')
sys.exit(0 if ok else 1)
PY
}

grow "$D/real-v16.pcap" "$T/v18.pcap" 18 128 32
"$EXITMON" --replay "$T/v18.pcap" --run-id $GOLDEN_RUN -f csv --summary "$T/v18.sum" > "$T/v18.csv" 2> "$T/v18.err"; rc=$?
check "version 18 replays, exit 0 (got $rc)" [ $rc -eq 0 ]
check "every field exitmon knows is as in the v16 original" same_but_version "$T/v18.csv" "$D/real-v16.csv"
check "the version column says 18" \
	[ "$(cut -d, -f82 "$T/v18.csv" | tail -n +2 | sort -u)" = 18 ]
check "all 34 records counted as newer_struct ($(kv "$T/v18.sum" newer_struct))" \
	[ "$(kv "$T/v18.sum" newer_struct)" = 34 ]
check "said once, naming version, size and what is known" \
	[ "$(grep -c 'struct taskstats version 18 of 720 bytes; this exitmon knows the fields of versions up to 17 (688 bytes)' "$T/v18.err")" -eq 1 ]
check "and counted again in the final words" grep -q '^exitmon: 34 records carried fields newer' "$T/v18.err"
check "nothing malformed ($(kv "$T/v18.sum" malformed))" [ "$(kv "$T/v18.sum" malformed)" = 0 ]

# A v16 struct as long as a v17 one: its bytes past v16's 560 are not
# read as v17's timestamps; counted and said for version 16.
grow "$D/real-v16.pcap" "$T/v16long.pcap" 16 128 0
"$EXITMON" --replay "$T/v16long.pcap" --run-id $GOLDEN_RUN -f csv --summary "$T/l.sum" > "$T/l.csv" 2> "$T/l.err"
check "v16 of 688 bytes: every known field as before" cmp -s "$T/l.csv" "$D/real-v16.csv"
check "v16 of 688 bytes: counted ($(kv "$T/l.sum" newer_struct))" [ "$(kv "$T/l.sum" newer_struct)" = 34 ]
check "v16 of 688 bytes: said once" [ "$(grep -c 'version 16 of 688 bytes' "$T/l.err")" -eq 1 ]

# The unmodified capture: nothing to say.
"$EXITMON" --replay "$D/real-v16.pcap" -o /dev/null --summary "$T/o.sum" 2> "$T/o.err"
check "a known struct: newer_struct 0" [ "$(kv "$T/o.sum" newer_struct)" = 0 ]
check "a known struct: no note" sh -c "! grep -q 'knows the fields\\|newer' '$T/o.err'"
done_testing
