#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""btf_check: decode taskstats records by the sending kernel's own BTF and
compare them with exitmon's CSV of the same records.

Why: exitmon parses struct taskstats with its own offset table
(src/common/record.c).  A table can be wrong in a way no test written from
the same table notices (version 17 is the example: mainline appended eight
struct __kernel_timespec members where exitmon expected soft_* counters).
The kernel's BTF (/sys/kernel/btf/vmlinux) is the layout the sender was
compiled with, so decoding the captured bytes by it is an independent
witness.  Nothing here reads exitmon's tables; only the CSV column names
come from exitmon, through the explicit MEMBER_COLUMN table below.

Usage:
  btf_check.py [--kernel NAME] [--live] BTF CAPTURE.pcap RECORDS.csv
  btf_check.py --layout BTF

  BTF      the guest's /sys/kernel/btf/vmlinux, raw or gzip'd
  CAPTURE  written by exitmon --capture (pcap, link type 253)
  RECORDS  exitmon --replay CAPTURE -f csv (same records, same order), or
           with --live the CSV written alongside the capture, which may
           leave records out (filters, exitmon's own exits)

Exit status: 0 all agree, 1 a disagreement or an unmapped member,
2 usage or parse error.  Python 3 standard library only.
"""

import argparse
import csv
import gzip
import struct
import sys

# ---- BTF --------------------------------------------------------------------

BTF_MAGIC = 0xEB9F
KIND_NAMES = {
    1: "INT", 2: "PTR", 3: "ARRAY", 4: "STRUCT", 5: "UNION", 6: "ENUM",
    7: "FWD", 8: "TYPEDEF", 9: "VOLATILE", 10: "CONST", 11: "RESTRICT",
    12: "FUNC", 13: "FUNC_PROTO", 14: "VAR", 15: "DATASEC", 16: "FLOAT",
    17: "DECL_TAG", 18: "TYPE_TAG", 19: "ENUM64",
}
# Bytes of kind-specific data after the 12-byte btf_type: (fixed, per vlen).
# A kind not listed cannot be stepped over, so it is a parse error rather
# than a silent misreading of every type after it.
KIND_TRAILER = {
    1: (4, 0), 2: (0, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8),
    7: (0, 0), 8: (0, 0), 9: (0, 0), 10: (0, 0), 11: (0, 0), 12: (0, 0),
    13: (0, 8), 14: (4, 0), 15: (0, 12), 16: (0, 0), 17: (4, 0),
    18: (0, 0), 19: (0, 12),
}
# Kinds that only qualify or rename another type: followed to find a size.
ALIAS_KINDS = {8, 9, 10, 11, 18}
BTF_INT_SIGNED = 1


class ParseError(Exception):
    """Input that is not what it claims to be: exit status 2."""


class Btf:
    """The types of one BTF blob, indexed by type id (id 0 is void)."""

    def __init__(self, blob):
        self.endian, hdr_len, type_off, type_len, str_off, str_len = \
            self._header(blob)
        base = hdr_len
        self.strings = blob[base + str_off:base + str_off + str_len]
        if len(self.strings) != str_len:
            raise ParseError("BTF string section runs past the end")
        types = blob[base + type_off:base + type_off + type_len]
        if len(types) != type_len:
            raise ParseError("BTF type section runs past the end")
        self.types = [None] + list(self._types(types))

    @staticmethod
    def _header(blob):
        """The fixed header; the magic's byte order is the blob's."""
        if len(blob) < 24:
            raise ParseError("too short for a BTF header")
        for endian in "<>":
            magic, version, _flags, hdr_len = struct.unpack_from(
                endian + "HBBI", blob)
            if magic == BTF_MAGIC:
                break
        else:
            raise ParseError("no BTF magic 0xeb9f")
        if version != 1:
            raise ParseError("BTF version %d, not 1" % version)
        if hdr_len < 24 or hdr_len > len(blob):
            raise ParseError("BTF header length %d" % hdr_len)
        return (endian, hdr_len) + struct.unpack_from(endian + "IIII", blob, 8)

    def name(self, off):
        """A string of the string section, by its offset."""
        end = self.strings.find(b"\0", off)
        if off >= len(self.strings) or end < 0:
            raise ParseError("BTF name offset %d out of range" % off)
        return self.strings[off:end].decode("utf-8", "replace")

    def _types(self, data):
        """Every btf_type in order, each stepped over by its kind's size."""
        e, pos = self.endian, 0
        while pos < len(data):
            if pos + 12 > len(data):
                raise ParseError("BTF type cut off at byte %d" % pos)
            name_off, info, size_type = struct.unpack_from(e + "III", data, pos)
            kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
            kflag = bool(info >> 31)
            if kind not in KIND_TRAILER:
                raise ParseError("BTF kind %d at byte %d: cannot step over it"
                                 % (kind, pos))
            fixed, per = KIND_TRAILER[kind]
            extra = data[pos + 12:pos + 12 + fixed + per * vlen]
            if len(extra) != fixed + per * vlen:
                raise ParseError("BTF type at byte %d cut off" % pos)
            t = {"kind": kind, "name": self.name(name_off), "vlen": vlen,
                 "kflag": kflag, "size_type": size_type}
            if kind == 1:
                enc = struct.unpack_from(e + "I", extra)[0]
                t["signed"] = bool((enc >> 24) & BTF_INT_SIGNED)
                t["bits"] = enc & 0xFF
            elif kind == 3:
                t["elem"], _index, t["nelems"] = struct.unpack_from(
                    e + "III", extra)
            elif kind in (4, 5):
                t["members"] = [self._member(extra, i * 12, kflag)
                                for i in range(vlen)]
            yield t
            pos += 12 + fixed + per * vlen

    def _member(self, extra, at, kflag):
        """One struct member; kind_flag packs a bitfield size into offset."""
        name_off, type_id, off = struct.unpack_from(self.endian + "III",
                                                    extra, at)
        bitfield = off >> 24 if kflag else 0
        bit_off = off & 0xFFFFFF if kflag else off
        return {"name": self.name(name_off), "type": type_id,
                "bit_offset": bit_off, "bitfield": bitfield}

    def resolve(self, type_id):
        """The type behind typedefs and qualifiers."""
        return self.types[self.resolve_id(type_id)]

    def resolve_id(self, type_id):
        """The id of the type behind typedefs and qualifiers."""
        seen = 0
        while True:
            if not 0 < type_id < len(self.types):
                raise ParseError("BTF type id %d out of range" % type_id)
            t = self.types[type_id]
            if t["kind"] not in ALIAS_KINDS:
                return type_id
            type_id = t["size_type"]
            seen += 1
            if seen > 64:
                raise ParseError("BTF typedef loop at id %d" % type_id)

    def size(self, type_id):
        """Bytes of a type: INT/STRUCT/ENUM carry it, ARRAY multiplies."""
        t = self.resolve(type_id)
        if t["kind"] == 3:
            return t["nelems"] * self.size(t["elem"])
        if t["kind"] == 2:
            return 8        # pointers: the guests are 64-bit
        if t["kind"] in (1, 4, 5, 6, 16, 19):
            return t["size_type"]
        raise ParseError("BTF %s has no size" % KIND_NAMES[t["kind"]])

    def find_struct(self, name):
        """The type id of a complete struct by name (not a forward decl)."""
        for i, t in enumerate(self.types[1:], 1):
            if t["kind"] == 4 and t["name"] == name:
                return i
        raise ParseError("no struct %s in this BTF" % name)


def read_btf(path):
    """A BTF blob, raw or gzip'd (guests' files come back either way)."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:2] == b"\x1f\x8b":
        blob = gzip.decompress(blob)
    return Btf(blob)


def layout(btf, type_id):
    """Members of a struct as dicts: name, offset, size, how to decode and,
    for struct members, their own layout (submembers)."""
    out = []
    for m in btf.types[type_id]["members"]:
        t = btf.resolve(m["type"])
        item = {"name": m["name"], "offset": m["bit_offset"] // 8,
                "size": btf.size(m["type"]), "kind": KIND_NAMES[t["kind"]],
                "bit_offset": m["bit_offset"], "bitfield": m["bitfield"],
                "signed": t.get("signed", False), "sub": None}
        if m["bitfield"] == 0 and m["bit_offset"] % 8:
            raise ParseError("member %s not byte-aligned" % m["name"])
        if t["kind"] == 4:
            item["sub"] = layout(btf, btf.resolve_id(m["type"]))
        out.append(item)
    return out


def taskstats_layout(btf):
    """(struct size, member layout) of struct taskstats."""
    tid = btf.find_struct("taskstats")
    return btf.types[tid]["size_type"], layout(btf, tid)


def print_layout(size, members, indent=""):
    """Member table, for a person comparing with pahole or the header."""
    if not indent:
        print("struct taskstats: %d bytes, %d members" % (size, len(members)))
    for m in members:
        extra = " bitfield:%d" % m["bitfield"] if m["bitfield"] else ""
        print("%s%-28s offset %4d size %3d %s%s%s" % (
            indent, m["name"], m["offset"], m["size"], m["kind"],
            " signed" if m["signed"] else "", extra))
        if m["sub"]:
            print_layout(m["size"], m["sub"], indent + "    ")


# ---- decoding a stats payload by the layout ----------------------------------

def decode_member(m, payload, endian):
    """A member's value, or None when the payload ends before it does (a
    record of an older, shorter version)."""
    if m["bitfield"]:
        first, last = m["bit_offset"] // 8, (m["bit_offset"] + m["bitfield"]
                                             + 7) // 8
        if last > len(payload):
            return None
        raw = int.from_bytes(payload[first:last],
                             "little" if endian == "<" else "big")
        return (raw >> (m["bit_offset"] % 8)) & ((1 << m["bitfield"]) - 1)
    end = m["offset"] + m["size"]
    if end > len(payload):
        return None
    raw = payload[m["offset"]:end]
    if m["sub"]:
        return {s["name"]: decode_member(s, raw, endian) for s in m["sub"]}
    if m["kind"] == "ARRAY":
        return bytes(raw)
    return int.from_bytes(raw, "little" if endian == "<" else "big",
                          signed=m["signed"])


# ---- pcap and netlink ---------------------------------------------------------

LINKTYPE_NETLINK = 253
NLMSG_HDRLEN, GENL_HDRLEN, NLA_HDRLEN = 16, 4, 4
NLMSG_MIN_TYPE = 0x10           # below: NOOP, ERROR, DONE, OVERRUN
GENL_ID_CTRL = 0x10
TASKSTATS_CMD_NEW = 2
T_PID, T_TGID, T_STATS, T_AGGR_PID, T_AGGR_TGID, T_NULL = 1, 2, 3, 4, 5, 6


def read_pcap(path):
    """(byte order, [packet bytes]) of a pcap file.  exitmon writes each
    received datagram as it is, no cooked header (src/common/capture.c), in
    the capturing host's byte order, which is also the netlink messages'."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ParseError("%s: too short for a pcap header" % path)
    for endian in "<>":
        magic = struct.unpack_from(endian + "I", data)[0]
        if magic in (0xA1B2C3D4, 0xA1B23C4D):
            break
    else:
        raise ParseError("%s: not a pcap file" % path)
    linktype = struct.unpack_from(endian + "I", data, 20)[0]
    if linktype != LINKTYPE_NETLINK:
        raise ParseError("%s: link type %d, not %d (netlink)"
                         % (path, linktype, LINKTYPE_NETLINK))
    packets, pos = [], 24
    while pos + 16 <= len(data):
        incl = struct.unpack_from(endian + "I", data, pos + 8)[0]
        if pos + 16 + incl > len(data):
            break               # a cut-off last packet: exitmon ignores it
        packets.append(data[pos + 16:pos + 16 + incl])
        pos += 16 + incl
    return endian, packets


def attrs(buf, endian):
    """(type, payload) of each netlink attribute, 4-byte aligned."""
    pos, out = 0, []
    while pos + NLA_HDRLEN <= len(buf):
        nla_len, nla_type = struct.unpack_from(endian + "HH", buf, pos)
        if nla_len < NLA_HDRLEN or pos + nla_len > len(buf):
            raise ValueError("attribute length %d at byte %d" % (nla_len, pos))
        out.append((nla_type & 0x3FFF, buf[pos + NLA_HDRLEN:pos + nla_len]))
        pos += (nla_len + 3) & ~3
    return out


def aggr(nest, id_type, endian):
    """(id, stats payload) of an AGGR_PID or AGGR_TGID nest."""
    ident = stats = None
    for t, val in attrs(nest, endian):
        if t == id_type and len(val) == 4:
            ident = struct.unpack(endian + "I", val)[0]
        elif t == T_STATS:
            stats = val
        elif t != T_NULL:
            raise ValueError("attribute %d inside an aggregate" % t)
    if ident is None or stats is None:
        raise ValueError("aggregate without id or stats")
    return ident, stats


def message_records(body, endian):
    """The records of one taskstats message: the pid record, then the tgid
    record when the group's last thread exited."""
    nests = {}
    for t, val in attrs(body, endian):
        if t in (T_AGGR_PID, T_AGGR_TGID):
            if t in nests:
                raise ValueError("attribute %d twice" % t)
            nests[t] = val
        elif t != T_NULL:
            raise ValueError("top-level attribute %d" % t)
    if T_AGGR_PID not in nests:
        raise ValueError("no AGGR_PID")
    pid, stats = aggr(nests[T_AGGR_PID], T_PID, endian)
    recs = [{"type": "pid", "id": pid, "stats": stats}]
    if T_AGGR_TGID in nests:
        tgid, tstats = aggr(nests[T_AGGR_TGID], T_TGID, endian)
        recs.append({"type": "tgid", "id": tgid, "stats": tstats})
        recs[0]["msg_tgid"] = tgid
    return recs


def capture_records(endian, packets, problems):
    """Every record of the capture in order; each datagram may hold several
    netlink messages; acks and other families' messages are skipped."""
    out = []
    for pno, pkt in enumerate(packets, 1):
        pos = 0
        while pos + NLMSG_HDRLEN <= len(pkt):
            nl_len, nl_type = struct.unpack_from(endian + "IH", pkt, pos)
            if nl_len < NLMSG_HDRLEN or pos + nl_len > len(pkt):
                problems.append("packet %d: netlink length %d at byte %d "
                                "(rest skipped)" % (pno, nl_len, pos))
                break
            msg = pkt[pos:pos + nl_len]
            pos += (nl_len + 3) & ~3
            if nl_type < NLMSG_MIN_TYPE or nl_type == GENL_ID_CTRL or \
                    nl_len < NLMSG_HDRLEN + GENL_HDRLEN or \
                    msg[NLMSG_HDRLEN] != TASKSTATS_CMD_NEW:
                continue
            try:
                out += message_records(msg[NLMSG_HDRLEN + GENL_HDRLEN:],
                                       endian)
            except ValueError as e:
                problems.append("packet %d: malformed taskstats message "
                                "skipped: %s" % (pno, e))
    return out


# ---- BTF members -> exitmon's CSV columns --------------------------------------

# Every member of struct taskstats that any kernel has had, and the column
# exitmon writes it to (include/columns.h).  A member not here is an error:
# that is how the next layout change is noticed.  Conversions: "nice" is
# signed in an unsigned byte, "comm" the bytes up to the first NUL,
# "timespec" tv_sec * 1e9 + tv_nsec.  ac_pid and ac_tgid fill the pid and
# tgid columns only where no attribute does (see expected_row).
MEMBER_COLUMN = {
    "version": ("version", "int"),
    "ac_exitcode": ("exitcode", "int"),
    "ac_flag": ("flags", "int"),
    "ac_nice": ("nice", "nice"),
    "cpu_count": ("cpu_count", "int"),
    "cpu_delay_total": ("cpu_delay_ns", "int"),
    "blkio_count": ("blkio_count", "int"),
    "blkio_delay_total": ("blkio_delay_ns", "int"),
    "swapin_count": ("swapin_count", "int"),
    "swapin_delay_total": ("swapin_delay_ns", "int"),
    "cpu_run_real_total": ("cpu_run_real_ns", "int"),
    "cpu_run_virtual_total": ("cpu_run_virtual_ns", "int"),
    "ac_comm": ("comm", "comm"),
    "ac_sched": ("sched", "int"),
    "ac_uid": ("uid", "int"),
    "ac_gid": ("gid", "int"),
    "ac_pid": ("pid", "int"),
    "ac_ppid": ("ppid", "int"),
    "ac_btime": ("btime", "int"),
    "ac_etime": ("elapsed_us", "int"),
    "ac_utime": ("utime_us", "int"),
    "ac_stime": ("stime_us", "int"),
    "ac_minflt": ("minflt", "int"),
    "ac_majflt": ("majflt", "int"),
    "coremem": ("coremem_mb_us", "int"),
    "virtmem": ("virtmem_mb_us", "int"),
    "hiwater_rss": ("hiwater_rss_kb", "int"),
    "hiwater_vm": ("hiwater_vm_kb", "int"),
    "read_char": ("read_char", "int"),
    "write_char": ("write_char", "int"),
    "read_syscalls": ("read_syscalls", "int"),
    "write_syscalls": ("write_syscalls", "int"),
    "read_bytes": ("read_bytes", "int"),
    "write_bytes": ("write_bytes", "int"),
    "cancelled_write_bytes": ("cancelled_write_bytes", "int"),
    "nvcsw": ("nvcsw", "int"),
    "nivcsw": ("nivcsw", "int"),
    "ac_utimescaled": ("utimescaled_us", "int"),
    "ac_stimescaled": ("stimescaled_us", "int"),
    "cpu_scaled_run_real_total": ("cpu_scaled_run_real_ns", "int"),
    "freepages_count": ("freepages_count", "int"),
    "freepages_delay_total": ("freepages_delay_ns", "int"),
    "thrashing_count": ("thrashing_count", "int"),
    "thrashing_delay_total": ("thrashing_delay_ns", "int"),
    "ac_btime64": ("btime", "int"),
    "compact_count": ("compact_count", "int"),
    "compact_delay_total": ("compact_delay_ns", "int"),
    "ac_tgid": ("tgid", "int"),
    "ac_tgetime": ("tgetime_us", "int"),
    "ac_exe_dev": ("exe_dev", "int"),
    "ac_exe_inode": ("exe_inode", "int"),
    "wpcopy_count": ("wpcopy_count", "int"),
    "wpcopy_delay_total": ("wpcopy_delay_ns", "int"),
    "irq_count": ("irq_count", "int"),
    "irq_delay_total": ("irq_delay_ns", "int"),
    "cpu_delay_max": ("cpu_delay_max_ns", "int"),
    "cpu_delay_min": ("cpu_delay_min_ns", "int"),
    "blkio_delay_max": ("blkio_delay_max_ns", "int"),
    "blkio_delay_min": ("blkio_delay_min_ns", "int"),
    "swapin_delay_max": ("swapin_delay_max_ns", "int"),
    "swapin_delay_min": ("swapin_delay_min_ns", "int"),
    "freepages_delay_max": ("freepages_delay_max_ns", "int"),
    "freepages_delay_min": ("freepages_delay_min_ns", "int"),
    "thrashing_delay_max": ("thrashing_delay_max_ns", "int"),
    "thrashing_delay_min": ("thrashing_delay_min_ns", "int"),
    "compact_delay_max": ("compact_delay_max_ns", "int"),
    "compact_delay_min": ("compact_delay_min_ns", "int"),
    "wpcopy_delay_max": ("wpcopy_delay_max_ns", "int"),
    "wpcopy_delay_min": ("wpcopy_delay_min_ns", "int"),
    "irq_delay_max": ("irq_delay_max_ns", "int"),
    "irq_delay_min": ("irq_delay_min_ns", "int"),
    "cpu_delay_max_ts": ("cpu_delay_max_ts_ns", "timespec"),
    "blkio_delay_max_ts": ("blkio_delay_max_ts_ns", "timespec"),
    "swapin_delay_max_ts": ("swapin_delay_max_ts_ns", "timespec"),
    "freepages_delay_max_ts": ("freepages_delay_max_ts_ns", "timespec"),
    "thrashing_delay_max_ts": ("thrashing_delay_max_ts_ns", "timespec"),
    "compact_delay_max_ts": ("compact_delay_max_ts_ns", "timespec"),
    "wpcopy_delay_max_ts": ("wpcopy_delay_max_ts_ns", "timespec"),
    "irq_delay_max_ts": ("irq_delay_max_ts_ns", "timespec"),
}
# Members that carry nothing (alignment), listed so they are not "unmapped".
PADDING = {"ac_pad", "padding"}
# Columns that come from the message, not (only) from a member.
MESSAGE_COLUMNS = {"type", "pid", "tgid", "version"}
# Columns of the collector's run, from neither the message nor a member
# (run, seq, time_ns): not compared.
RUN_COLUMNS = {"run", "seq", "time_ns"}


def convert(how, value):
    """A decoded member as exitmon writes it in CSV."""
    if value is None:
        return ""
    if how == "nice":
        return str(value - 256 if value >= 128 else value)
    if how == "comm":
        return value.split(b"\0", 1)[0].decode("latin-1")
    if how == "timespec":
        if set(value) != {"tv_sec", "tv_nsec"} or None in value.values():
            raise ParseError("a *_max_ts member is not a timespec: %r" % value)
        return str(value["tv_sec"] * 1000000000 + value["tv_nsec"])
    return str(value)


def mapping_problems(members):
    """(column -> member, unmapped member names, padding member names)."""
    col_member, unmapped, padding = {}, [], []
    for m in members:
        if m["name"] in PADDING:
            padding.append(m["name"])
        elif m["name"] in MEMBER_COLUMN:
            col_member.setdefault(MEMBER_COLUMN[m["name"]][0], []).append(m)
        else:
            unmapped.append(m["name"])
    return col_member, unmapped, padding


def expected_row(rec, members, endian):
    """The CSV row (column -> text) exitmon should write for a record,
    following include/columns.h: pid is the PID attribute of a pid record
    and ac_pid of a tgid record; tgid is the TGID attribute of a tgid record
    and ac_tgid of a pid record (the message's TGID attribute when the
    struct predates ac_tgid); btime is ac_btime64 when sent, else ac_btime;
    version is as sent."""
    vals = {m["name"]: decode_member(m, rec["stats"], endian) for m in members}
    row = {}
    for name, value in vals.items():
        if name in MEMBER_COLUMN:
            col, how = MEMBER_COLUMN[name]
            if col != "btime":
                row[col] = convert(how, value)
    if "ac_btime64" in vals or "ac_btime" in vals:
        b64, b32 = vals.get("ac_btime64"), vals.get("ac_btime")
        row["btime"] = convert("int", b64 if b64 is not None else b32)
    row["type"] = rec["type"]
    if rec["type"] == "pid":
        row["pid"] = str(rec["id"])
        if row.get("tgid", "") == "" and "msg_tgid" in rec:
            row["tgid"] = str(rec["msg_tgid"])
    else:
        row["tgid"] = str(rec["id"])
    return row, vals


# ---- comparing ---------------------------------------------------------------

class Report:
    """Problem lines, at most `cap` per column so a systematic offset error
    does not bury the rest; every problem is counted."""

    def __init__(self, cap):
        self.cap, self.count, self.per_col, self.lines = cap, 0, {}, []

    def problem(self, line, col=None):
        self.count += 1
        n = self.per_col[col] = self.per_col.get(col, 0) + 1
        if col is None or n <= self.cap:
            print(line)

    def finish(self):
        for col, n in sorted(self.per_col.items(), key=lambda x: str(x[0])):
            if col is not None and n > self.cap:
                print("column %s: %d more disagreements not shown"
                      % (col, n - self.cap))


def read_csv(path):
    """Header and rows of exitmon's CSV; latin-1 keeps every comm byte."""
    with open(path, newline="", encoding="latin-1") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ParseError("%s: empty (no header)" % path)
    header = rows[0]
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(header):
            raise ParseError("%s line %d: %d columns, header has %d"
                             % (path, i, len(r), len(header)))
    return header, [dict(zip(header, r)) for r in rows[1:]]


def pair_rows(recs, rows, live, rep):
    """(record number, record, row) pairs.  A replay's CSV is the capture's
    records in order; a live CSV may leave some out, so each row is matched
    to the next record of the same type and id."""
    if not live:
        if len(recs) != len(rows):
            rep.problem("record count: capture has %d, CSV has %d"
                        % (len(recs), len(rows)))
        return [(i + 1, r, w) for i, (r, w) in enumerate(zip(recs, rows))]
    pairs, k = [], 0
    for lineno, row in enumerate(rows, 2):
        key = row.get("pid") if row.get("type") == "pid" else row.get("tgid")
        while k < len(recs) and (recs[k]["type"] != row.get("type") or
                                 str(recs[k]["id"]) != key):
            k += 1
        if k == len(recs):
            rep.problem("CSV line %d: %s %s matches no later record of the "
                        "capture" % (lineno, row.get("type"), key))
            continue
        pairs.append((k + 1, recs[k], row))
        k += 1
    return pairs


def check_columns(header, col_member, members, unmapped, padding, rep):
    """Header-level problems: members exitmon has no column for, members
    with no mapping at all.  Returns the columns no member of this kernel
    fills (they must be empty)."""
    for name in unmapped:
        rep.problem("struct taskstats member %s has no CSV column mapping "
                    "(new in this kernel? add it to MEMBER_COLUMN)" % name)
    for col, ms in sorted(col_member.items()):
        if col not in header:
            rep.problem("struct taskstats member %s: exitmon's CSV has no "
                        "column %s" % (ms[0]["name"], col), col)
    known_cols = {c for c, _ in MEMBER_COLUMN.values()}
    empty_cols = []
    for col in header:
        if col in col_member or col in MESSAGE_COLUMNS or col in RUN_COLUMNS:
            continue
        if col not in known_cols:
            print("note: CSV column %s maps to no member of any known "
                  "struct taskstats: must be empty" % col)
        empty_cols.append(col)
    if padding:
        print("note: padding members, not compared: %s" % " ".join(padding))
    return empty_cols


def compare(pairs, members, endian, header, empty_cols, rep):
    """Every column of every paired row against the BTF decode; returns
    how many values were compared."""
    compared = 0
    for recno, rec, row in pairs:
        want, _vals = expected_row(rec, members, endian)
        for col in header:
            got = row[col]
            if col in empty_cols:
                exp = ""
            elif col in want:
                exp = want[col]
            else:
                continue
            compared += 1
            if got != exp:
                what = "must be empty (no such member)" if col in empty_cols \
                    else "BTF decode"
                rep.problem("record %d (%s %d): %s: CSV %r, %s %r"
                            % (recno, rec["type"], rec["id"], col, got,
                               what, exp), col)
    return compared


def versions_seen(recs, endian):
    """The struct versions the records carry, for the summary line."""
    vs = sorted({struct.unpack_from(endian + "H", r["stats"])[0]
                 for r in recs if len(r["stats"]) >= 2})
    if not vs:
        return "version ?"
    return ("version %d" if len(vs) == 1 else "versions %s") % (
        vs[0] if len(vs) == 1 else ",".join(map(str, vs)))


def run(args):
    """The whole check; returns the exit status."""
    btf = read_btf(args.btf)
    size, members = taskstats_layout(btf)
    if args.layout:
        print_layout(size, members)
        return 0
    if args.verbose:
        print_layout(size, members)
    endian, packets = read_pcap(args.capture)
    if endian != btf.endian:
        raise ParseError("capture and BTF differ in byte order")
    parse_notes = []
    recs = capture_records(endian, packets, parse_notes)
    for n in parse_notes:
        print("note: " + n)
    header, rows = read_csv(args.csv)
    rep = Report(args.max_per_column)
    col_member, unmapped, padding = mapping_problems(members)
    empty_cols = check_columns(header, col_member, members, unmapped,
                               padding, rep)
    pairs = pair_rows(recs, rows, args.live, rep)
    compared = compare(pairs, members, endian, header, empty_cols, rep)
    rep.finish()
    print("btf_check: %s: %d records, %d fields compared, %d disagreements, "
          "struct taskstats %d bytes, %s"
          % (args.kernel, len(pairs), compared, rep.count, size,
             versions_seen(recs, endian)))
    return 1 if rep.count else 0


def main(argv):
    p = argparse.ArgumentParser(
        description="Decode taskstats records by the kernel's BTF and "
                    "compare them with exitmon's CSV.")
    p.add_argument("--kernel", default="?",
                   help="kernel version for the summary line")
    p.add_argument("--live", action="store_true",
                   help="the CSV may leave records out (live, filtered)")
    p.add_argument("--layout", action="store_true",
                   help="only print struct taskstats as the BTF lays it out")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print the layout before the comparison")
    p.add_argument("--max-per-column", type=int, default=5,
                   help="problem lines shown per column (all are counted)")
    p.add_argument("btf")
    p.add_argument("capture", nargs="?")
    p.add_argument("csv", nargs="?")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if not args.layout and (args.capture is None or args.csv is None):
        p.print_usage(sys.stderr)
        return 2
    try:
        return run(args)
    except (ParseError, OSError, EOFError, gzip.BadGzipFile) as e:
        print("btf_check: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
