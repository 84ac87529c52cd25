#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mksynth: a small BTF blob and a pcap of taskstats messages, for testing
btf_check.py where no guest kernel of that version is at hand.

Why: the host has one kernel (one struct version); version 17 (7.3: v16 plus
eight struct __kernel_timespec *_delay_max_ts members) exists only in the
uapi header.  This writes struct taskstats as that header lays it out (C
alignment rules, the header's explicit aligned(8) members), in real BTF
encoding, with filler types of every kind that carries trailing data so a
parser that steps over one wrongly misreads what follows.

  mksynth.py btf --version 16|17 [--shift MEMBER=BYTES] OUT
  mksynth.py pcap --version 16|17 OUT

--shift moves one member's offset (a fake layout, for negative tests).
The pcap holds a pid+tgid message, a pid-only message and an ack; every
member gets its own value (comm needs CSV quoting, nice is negative).
"""

import argparse
import struct
import sys

U8, U16, U32, U64, S64, CHAR = "u8", "u16", "u32", "u64", "s64", "char"
SIZES = {U8: 1, U16: 2, U32: 4, U64: 8, S64: 8, CHAR: 1}
TIMESPEC = "timespec"   # struct __kernel_timespec { s64 tv_sec, tv_nsec; }
DELAY_KINDS = ["cpu", "blkio", "swapin", "freepages", "thrashing",
               "compact", "wpcopy", "irq"]


def members(version):
    """(name, type, count, aligned8) in uapi order, for version 16 or 17."""
    m = [("version", U16, 1, 0), ("ac_exitcode", U32, 1, 0),
         ("ac_flag", U8, 1, 0), ("ac_nice", U8, 1, 0),
         ("cpu_count", U64, 1, 1)]
    m += [(n, U64, 1, 0) for n in (
        "cpu_delay_total", "blkio_count", "blkio_delay_total",
        "swapin_count", "swapin_delay_total", "cpu_run_real_total",
        "cpu_run_virtual_total")]
    m += [("ac_comm", CHAR, 32, 0), ("ac_sched", U8, 1, 1),
          ("ac_pad", U8, 3, 0), ("ac_uid", U32, 1, 1)]
    m += [(n, U32, 1, 0) for n in ("ac_gid", "ac_pid", "ac_ppid", "ac_btime")]
    m += [("ac_etime", U64, 1, 1)]
    m += [(n, U64, 1, 0) for n in (
        "ac_utime", "ac_stime", "ac_minflt", "ac_majflt", "coremem",
        "virtmem", "hiwater_rss", "hiwater_vm", "read_char", "write_char",
        "read_syscalls", "write_syscalls", "read_bytes", "write_bytes",
        "cancelled_write_bytes", "nvcsw", "nivcsw", "ac_utimescaled",
        "ac_stimescaled", "cpu_scaled_run_real_total", "freepages_count",
        "freepages_delay_total", "thrashing_count", "thrashing_delay_total",
        "ac_btime64", "compact_count", "compact_delay_total")]
    m += [("ac_tgid", U32, 1, 0), ("ac_tgetime", U64, 1, 1)]
    m += [(n, U64, 1, 0) for n in (
        "ac_exe_dev", "ac_exe_inode", "wpcopy_count", "wpcopy_delay_total",
        "irq_count", "irq_delay_total")]
    for k in DELAY_KINDS:
        m += [(k + "_delay_max", U64, 1, 0), (k + "_delay_min", U64, 1, 0)]
    if version >= 17:
        m += [(k + "_delay_max_ts", TIMESPEC, 1, 0) for k in DELAY_KINDS]
    return m


def lay_out(version, shift=None):
    """[(name, type, count, offset)] and the struct size, by C rules."""
    out, off, maxal = [], 0, 1
    for name, typ, count, al8 in members(version):
        size = 16 if typ == TIMESPEC else SIZES[typ]
        align = 8 if al8 or typ == TIMESPEC else size
        off = (off + align - 1) // align * align
        out.append([name, typ, count, off])
        off += size * count
        maxal = max(maxal, align)
    size = (off + maxal - 1) // maxal * maxal
    if shift:
        name, delta = shift
        for m in out:
            if m[0] == name:
                m[3] += delta
                break
        else:
            sys.exit("mksynth: no member %s" % name)
    return out, size


class BtfWriter:
    """Types and strings of a BTF blob, appended in order (id 1 first)."""

    def __init__(self):
        self.types, self.strs, self.n = b"", b"\0", 0

    def s(self, text):
        if not text:
            return 0
        off = len(self.strs)
        self.strs += text.encode() + b"\0"
        return off

    def add(self, name, kind, vlen, size_type, extra=b"", kflag=0):
        self.types += struct.pack("<III", self.s(name),
                                  kflag << 31 | kind << 24 | vlen, size_type)
        self.types += extra
        self.n += 1
        return self.n

    def blob(self):
        hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(self.types),
                          len(self.types), len(self.strs))
        return hdr + self.types + self.strs


def build_btf(version, shift=None):
    """The BTF blob of struct taskstats of that version (and fillers)."""
    w = BtfWriter()
    ints = {}
    for nm, key, size, enc in (("unsigned char", U8, 1, 0),
                               ("short unsigned int", U16, 2, 0),
                               ("unsigned int", U32, 4, 0),
                               ("long long unsigned int", U64, 8, 0),
                               ("long long int", S64, 8, 1),
                               ("char", CHAR, 1, 2), ("int", "int", 4, 1)):
        ints[key] = w.add(nm, 1, 0, size, struct.pack("<I", enc << 24 |
                                                      size * 8))
    # typedefs and a qualifier in the chain, as the kernel's __u64 etc.
    td = {k: w.add("__" + k, 8, 0, ints[k]) for k in (U8, U16, U32, U64)}
    td[U64] = w.add("", 10, 0, td[U64])                     # const __u64
    td[CHAR], td[S64] = ints[CHAR], w.add("__kernel_time64_t", 8, 0, ints[S64])
    # fillers: every kind with trailing data, before the struct
    w.add("e", 6, 2, 4, struct.pack("<Ii", w.s("A"), 0) +
          struct.pack("<Ii", w.s("B"), 1))                   # ENUM
    w.add("e64", 19, 1, 8, struct.pack("<III", w.s("C"), 1, 2))  # ENUM64
    proto = w.add("", 13, 2, ints["int"], struct.pack("<II", 0, ints["int"]) +
                  struct.pack("<II", w.s("x"), ints[U32]))   # FUNC_PROTO
    w.add("f", 12, 0, proto)                                 # FUNC
    var = w.add("v", 14, 0, ints["int"], struct.pack("<I", 1))  # VAR
    w.add(".data", 15, 1, 4, struct.pack("<III", var, 0, 4))  # DATASEC
    w.add("tag", 17, 0, var, struct.pack("<i", -1))           # DECL_TAG
    w.add("", 2, 0, ints["int"])                              # PTR
    w.add("taskstats", 7, 0, 0)                               # FWD: not it
    ts = w.add("__kernel_timespec", 4, 2, 16,
               struct.pack("<III", w.s("tv_sec"), td[S64], 0) +
               struct.pack("<III", w.s("tv_nsec"), ints[S64], 64))
    arrays = {}
    layout, size = lay_out(version, shift)
    mem = b""
    for name, typ, count, off in layout:
        if typ == TIMESPEC:
            tid = ts
        elif count > 1:
            key = (typ, count)
            if key not in arrays:
                arrays[key] = w.add("", 3, 0, 0, struct.pack(
                    "<III", td[typ], ints["int"], count))
            tid = arrays[key]
        else:
            tid = td[typ]
        mem += struct.pack("<III", w.s(name), tid, off * 8)
    w.add("taskstats", 4, len(layout), size, mem)
    return w.blob()


def stats_payload(version, rec_no, comm):
    """One struct taskstats with a distinct value in every member."""
    layout, size = lay_out(version)
    buf = bytearray(size)
    for i, (name, typ, count, off) in enumerate(layout):
        if name == "version":
            struct.pack_into("<H", buf, off, version)
        elif name == "ac_comm":
            buf[off:off + len(comm)] = comm
        elif name == "ac_nice":
            buf[off] = 0xFB         # -5
        elif name == "ac_pad":
            buf[off:off + 3] = b"\xaa\xbb\xcc"   # must not matter
        elif typ == TIMESPEC:
            struct.pack_into("<qq", buf, off, 1000 + rec_no * 100 + i,
                             123456789)
        else:
            v = rec_no * 1000 + i + (0x100000000 if SIZES[typ] == 8 else 0)
            v &= (1 << (8 * SIZES[typ])) - 1
            struct.pack_into({1: "<B", 2: "<H", 4: "<I", 8: "<Q"}[SIZES[typ]],
                             buf, off, v)
    return bytes(buf)


def nla(typ, payload):
    """One netlink attribute, padded to 4 bytes."""
    a = struct.pack("<HH", 4 + len(payload), typ) + payload
    return a + b"\0" * (-len(a) % 4)


def aggr(nest_type, id_type, ident, stats):
    """An AGGR nest as the kernel builds it: id, a NULL pad, the stats."""
    return nla(nest_type, nla(id_type, struct.pack("<I", ident)) +
               nla(6, b"") + nla(3, stats))


def nlmsg(typ, body, seq):
    return struct.pack("<IHHII", 16 + len(body), typ, 0, seq, 0) + body


def build_pcap(version):
    """Three datagrams: pid+tgid, pid only (two messages), an ack."""
    fam, genl = 0x1B, struct.pack("<BBH", 2, 1, 0)      # TASKSTATS_CMD_NEW
    m1 = nlmsg(fam, genl + aggr(4, 1, 4242, stats_payload(version, 1,
                                                          b'synth,"q" ')) +
               aggr(5, 2, 4240, stats_payload(version, 2, b"")), 1)
    m2 = nlmsg(fam, genl + aggr(4, 1, 4243, stats_payload(version, 3,
                                                          b"solo")), 2)
    m3 = nlmsg(fam, genl + aggr(4, 1, 4244, stats_payload(version, 4,
                                                          b"two")), 3)
    ack = nlmsg(2, struct.pack("<i", 0) + nlmsg(fam, b"", 9)[:16], 4)
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 253)
    for t, pkt in enumerate((m1, m2 + m3, ack)):
        out += struct.pack("<IIII", 1796200000 + t, 0, len(pkt), len(pkt))
        out += pkt
    return out


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=("btf", "pcap"))
    p.add_argument("--version", type=int, choices=(16, 17), default=17)
    p.add_argument("--shift", help="MEMBER=BYTES: move one member")
    p.add_argument("out")
    a = p.parse_args(argv)
    shift = None
    if a.shift:
        name, _, delta = a.shift.partition("=")
        shift = (name, int(delta))
    data = build_btf(a.version, shift) if a.what == "btf" \
        else build_pcap(a.version)
    with open(a.out, "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
