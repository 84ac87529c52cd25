#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkedge: a capture of taskstats messages at the edges of the schema, for
the fleet tier (tests/fleet/, make test-fleet): every integer member of
the struct (version 16) at its maximum (u64 18446744073709551615), and
command names with bytes 0x80 and above, which exitmon writes in JSON as
\\u00XX.  Built with tests/kernels/mksynth.py's layout and netlink helpers.

  mkedge.py OUT.pcap
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "kernels"))
import mksynth  # noqa: E402

FMT = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}
# The command names (at most 15 bytes): high bytes, quotes (the single one
# for SQL), a backslash.
COMMS = [b"\x80\xff\xe9fleet", b"edge'q\"\\\x9f\xa0"]


def stats(comm, top):
    layout, size = mksynth.lay_out(16)
    buf = bytearray(size)
    for name, typ, count, off in layout:
        if name == "version":
            struct.pack_into("<H", buf, off, 16)
        elif name == "ac_comm":
            buf[off:off + len(comm)] = comm
        elif name == "ac_pad":
            pass
        else:
            n = mksynth.SIZES[typ]
            v = (1 << (8 * n)) - 1 if top else 7
            for i in range(count):
                struct.pack_into(FMT[n], buf, off + i * n, v)
    return bytes(buf)


def main(out):
    fam, genl = 0x1B, struct.pack("<BBH", 2, 1, 0)     # TASKSTATS_CMD_NEW
    msgs = []
    for i, comm in enumerate(COMMS):
        body = genl + mksynth.aggr(4, 1, 0xFFFFFFFF - i, stats(comm, i == 0))
        msgs.append(mksynth.nlmsg(fam, body, i + 1))
    pcap = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 253)
    for t, pkt in enumerate(msgs):
        pcap += struct.pack("<IIII", 1796300000 + t, 0, len(pkt), len(pkt))
        pcap += pkt
    with open(out, "wb") as f:
        f.write(pcap)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
