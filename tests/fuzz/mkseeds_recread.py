#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile seeds for the readers' fuzz target (fuzz_recread.c): the inputs
of issue #21 that once stopped or misled exitstat, each small.  Byte 0 is
the target's flags (bit 0: decode every column; bit 1: gzip the rest
first), the rest a file.  Run from the top of the tree:
    python3 tests/fuzz/mkseeds_recread.py tests/fuzz/corpus-recread
Built from tests/data/real-v16.{csv,jsonl,pcap}."""
import gzip
import os
import struct
import sys

out = sys.argv[1]
D = 'tests/data/real-v16'
head, *rows = open(D + '.csv', 'rb').read().splitlines(keepends=True)
jrows = open(D + '.jsonl', 'rb').read().splitlines(keepends=True)
pcap = open(D + '.pcap', 'rb').read()
csv = head + b''.join(rows[:4])


def seed(name, data, flags=0):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(bytes([flags]) + data)


def gz(data):
    return gzip.compress(data, 9, mtime=0)


# Lines: a line of 1 MiB and more among good ones (a gzip file, small),
# what /dev/zero gives, an unclosed quote, the longest quoted comm exitmon
# writes (32 doubled quotes and a newline in it), CRLF line ends.
big = b'pid,' + b'9' * ((1 << 20) + 10) + b'\n'
seed('gz-csv-long-line', gz(csv + big + b''.join(rows[4:8])))
seed('gz-json-long-line', gz(b''.join(jrows[:2]) + b'{"comm":"' + b'x' * (1 << 20) + b'"}\n' + jrows[2]), 1)
seed('gz-zeros', gz(bytes(1 << 20 | 100)))
seed('csv-stray-quote', csv + b'pid,1,1,1,"evil,0,0\n' + b''.join(rows[4:12]))
comm = b'"' + b'""' * 31 + b'\n' + b'"'
seed('csv-longest-comm', head + rows[0].replace(b',exitmon-check,', b',' + comm + b','))
seed('csv-crlf', csv.replace(b'\n', b'\r\n'))
# A task named "type" under a header that does not begin with type (exitmon
# -F comm,type,...), and such a file twice in one stream.
fhead = b'comm,type,pid,tgid,utime_us\n'
frows = b'sh,pid,10,10,5\ntype,pid,11,10,7\ntype,tgid,10,10,12\nmake,pid,12,12,1\n'
seed('csv-comm-named-type', fhead + frows)
seed('csv-two-files-comm-first', fhead + frows + fhead + frows)

# gzip: damaged in the middle, cut in half, without its trailer's last 4
# bytes, two members (logrotate's and cat's), trailing bytes after one.
z = bytearray(gz(head + b''.join(rows)))
dmg = bytearray(z)
for i in range(len(z) // 2, len(z) // 2 + 8):
    dmg[i] ^= 0xff
seed('gz-damaged', bytes(dmg))
seed('gz-cut-half', bytes(z[:len(z) // 2]))
seed('gz-no-isize', bytes(z[:-4]))
seed('gz-two-members', bytes(z) + gz(b''.join(rows[:3])))
seed('gz-trailing-junk', bytes(z) + b'junk\n')

# JSON: a newer exitmon's keys with arrays and objects (nested, one too
# deep), a key given twice, a uid of 2^32.
j = jrows[0].rstrip(b'}\n')
seed('json-unknown-values', j + b',"new":[1,{"a":[2,"]}"],"b":{}}],"n2":{"x":null}}\n' + jrows[1], 1)
seed('json-too-deep', j + b',"new":' + b'[' * 40 + b']' * 40 + b'}\n' + jrows[1], 1)
seed('json-dup-key', j + b',"utime_us":1}\n' + jrows[1], 1)
seed('json-uid-2-32', jrows[1].replace(b'"uid":0', b'"uid":4294967296'), 1)

# CSV: a header naming a column twice; uid 2^32 and 2^32 + 1.
cols = head.rstrip(b'\n').split(b',')
cols[cols.index(b'utime_us')] = b'cpu_run_virtual_ns'
seed('csv-dup-column', b','.join(cols) + b'\n' + b''.join(rows[:3]))
seed('csv-uid-2-32', head + rows[1].replace(b',sleep,0,', b',sleep,4294967296,') +
     rows[1].replace(b',sleep,0,', b',sleep,4294967297,') + rows[2])

# Captures: an oversize and an empty packet among good ones, a cut-short
# last packet, nanosecond, big-endian, a cut-short header, another link
# type, pcapng.
hdr, pkts, off = pcap[:24], [], 24
while off < len(pcap):
    n = struct.unpack_from('<I', pcap, off + 8)[0]
    pkts.append(pcap[off:off + 16 + n])
    off += 16 + n
few = b''.join(pkts[:2])
seed('pcap-oversize', gz(hdr + pkts[0] + struct.pack('<IIII', 1, 0, 70000, 70000) +
                         bytes(70000) + pkts[1]))
seed('pcap-empty-packet', hdr + pkts[0] + struct.pack('<IIII', 1, 0, 0, 0) + pkts[1])
seed('pcap-cut-packet', hdr + few + pkts[2][:30])
seed('pcap-ns', struct.pack('<I', 0xa1b23c4d) + hdr[4:] + few)
seed('pcap-big-endian', struct.pack('>IHHiIII', *struct.unpack('<IHHiIII', hdr)) + few)
seed('pcap-short-header', hdr[:10])
seed('pcap-ethernet', hdr[:20] + struct.pack('<I', 1) + few)
seed('pcapng', bytes.fromhex('0a0d0d0a1c0000004d3c2b1a01000000ffffffffffffffff1c000000'))
seed('pcap-gz', hdr + few, 2)

# Issue 34, items 2 and 3: record headers that lie about their length
# (above the snaplen, above the original length, past the end), garbage
# and zeros between packets; gzip members damaged, cut or with garbage
# between them in the middle of three, zero padding after the last.
def lie(p, incl, orig):
    return p[:8] + struct.pack('<II', incl, orig) + p[16:]
three = b''.join(pkts[2:5])
seed('pcap-lie-snaplen', hdr + pkts[0] + lie(pkts[1], 70000, 70000) + three)
seed('pcap-lie-orig', hdr + pkts[0] + lie(pkts[1], len(pkts[1]) - 8, len(pkts[1]) - 16) + three)
seed('pcap-lie-past-end', hdr + pkts[0] + lie(pkts[1], 60000, 60000) + three)
seed('pcap-junk-between', hdr + pkts[0] + b'\x01garbage' + pkts[1] + bytes(40) + three)
m1, m2, m3 = gz(csv), gz(b''.join(rows[4:12])), gz(b''.join(rows[12:20]))
d2 = bytearray(m2)
for i in range(len(d2) // 2, len(d2) // 2 + 8):
    d2[i] ^= 0xff
seed('gz-member-damaged', m1 + bytes(d2) + m3)
seed('gz-member-cut', m1 + m2[:len(m2) // 2] + m3)
seed('gz-member-junk', m1 + b'junk\n' + m2 + m3)
seed('gz-zero-padding', m1 + m2 + bytes(512))
p1, p2 = gz(hdr + few), gz(three)
seed('pcap-gz-member-cut', p1 + p2[:len(p2) // 2] + gz(b''.join(pkts[5:8])))
# Item 21: bytes after a good message inside a packet, another command's
# message, another family's (another type, attributes not taskstats').
t = bytearray(pkts[1])
t[8:16] = struct.pack('<II', len(t) - 16 + 20, len(t) - 16 + 20)
seed('pcap-trailing-bytes', hdr + pkts[0] + bytes(t) + b'twenty trailing byte' + pkts[2])
c = bytearray(pkts[1]); c[16 + 16] = 1
seed('pcap-other-command', hdr + pkts[0] + bytes(c) + pkts[2])
f = bytearray(pkts[1]); f[16 + 16 + 4 + 2] = 0x63; f[16 + 4:16 + 6] = struct.pack('<H', 0x1234)
seed('pcap-other-family', hdr + pkts[0] + bytes(f) + pkts[2])
