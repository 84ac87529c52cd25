#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round trip of hostile comm bytes through the output formats, read back with
# standard readers (Python's csv and json modules), not with our own code.
#
# test_format writes, with FORMAT_SAMPLES_DIR set, one record per hostile comm
# in text, CSV and JSON lines, and a manifest of the exact comm bytes.  The
# checker below recovers the bytes from each format and compares; it then
# runs again on deliberately damaged copies and must fail there, so a checker
# that accepts anything cannot pass this test.
set -u

top=${EXITMON_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! make -C "$top" build/tests/test_format >"$tmp/build.log" 2>&1; then
	echo "Bail out! cannot build build/tests/test_format"
	sed 's/^/# /' "$tmp/build.log"
	exit 1
fi
mkdir "$tmp/good"
if ! FORMAT_SAMPLES_DIR="$tmp/good" "$top/build/tests/test_format" \
	>"$tmp/run.log" 2>&1; then
	echo "Bail out! test_format failed"
	sed 's/^/# /' "$tmp/run.log"
	exit 1
fi

cat >"$tmp/check.py" <<'EOF'
import csv, io, json, re, sys

COLUMNS = ("run seq time_ns type pid tgid ppid comm uid gid exitcode flags nice sched btime "
           "exe_dev exe_inode elapsed_us utime_us stime_us utimescaled_us "
           "stimescaled_us tgetime_us minflt majflt cpu_run_real_ns "
           "cpu_run_virtual_ns cpu_scaled_run_real_ns cpu_count cpu_delay_ns "
           "blkio_count blkio_delay_ns swapin_count swapin_delay_ns "
           "freepages_count freepages_delay_ns thrashing_count "
           "thrashing_delay_ns compact_count compact_delay_ns wpcopy_count "
           "wpcopy_delay_ns irq_count irq_delay_ns cpu_delay_max_ns "
           "cpu_delay_min_ns blkio_delay_max_ns blkio_delay_min_ns "
           "swapin_delay_max_ns swapin_delay_min_ns freepages_delay_max_ns "
           "freepages_delay_min_ns thrashing_delay_max_ns "
           "thrashing_delay_min_ns compact_delay_max_ns compact_delay_min_ns "
           "wpcopy_delay_max_ns wpcopy_delay_min_ns irq_delay_max_ns "
           "irq_delay_min_ns cpu_delay_max_ts_ns blkio_delay_max_ts_ns "
           "swapin_delay_max_ts_ns freepages_delay_max_ts_ns "
           "thrashing_delay_max_ts_ns compact_delay_max_ts_ns "
           "wpcopy_delay_max_ts_ns irq_delay_max_ts_ns "
           "nvcsw nivcsw coremem_mb_us virtmem_mb_us "
           "hiwater_rss_kb hiwater_vm_kb read_char write_char read_syscalls "
           "write_syscalls read_bytes write_bytes cancelled_write_bytes "
           "version").split()

def unhex(s):
    return b"" if s == "-" else bytes.fromhex(s)

def manifest(d):
    out = []
    with open(d + "/manifest") as f:
        for line in f:
            pid, comm, text = line.split()
            out.append((int(pid), unhex(comm), unhex(text)))
    return out

def expect(cond, what):
    if not cond:
        raise AssertionError(what)

def check_csv(d, want):
    # latin-1 maps every byte to one code point, so encoding back gives the
    # exact bytes; newline="" as the csv module asks.
    with open(d + "/samples.csv", newline="", encoding="latin-1") as f:
        rows = list(csv.reader(f, strict=True))
    expect(rows[0] == COLUMNS, "csv header %r" % rows[0])
    body = rows[1:]
    expect(len(body) == len(want), "csv: %d rows, want %d" % (len(body), len(want)))
    for row, (pid, comm, _) in zip(body, want):
        expect(len(row) == len(COLUMNS), "csv row length %d" % len(row))
        rec = dict(zip(COLUMNS, row))
        got = rec["comm"].encode("latin-1")
        expect(got == comm, "csv comm %r, want %r" % (got, comm))
        if pid:
            expect(rec["pid"] == str(pid) and rec["type"] == "pid", "csv pid %r" % row)
            expect(rec["nice"] == "-3" and rec["version"] == "16", "csv values %r" % row)
        else:
            expect(rec["type"] == "tgid" and rec["tgid"] == "2000", "csv tgid %r" % row)
            absent = [k for k in COLUMNS if k not in ("type", "tgid", "version")]
            expect(all(rec[k] == "" for k in absent), "csv absent %r" % row)
    # The same file read as UTF-8 with surrogateescape gives the same bytes.
    with open(d + "/samples.csv", newline="", encoding="utf-8",
              errors="surrogateescape") as f:
        rows = list(csv.reader(f))[1:]
    for row, (_, comm, _) in zip(rows, want):
        got = row[COLUMNS.index("comm")].encode("utf-8", "surrogateescape")
        expect(got == comm, "csv (utf-8) comm %r, want %r" % (got, comm))

def check_jsonl(d, want):
    with open(d + "/samples.jsonl", "rb") as f:
        raw = f.read()
    expect(all(b < 0x80 for b in raw), "jsonl is not pure ASCII")
    lines = raw.decode("ascii").split("\n")
    expect(lines[-1] == "", "jsonl does not end in a newline")
    lines = lines[:-1]
    expect(len(lines) == len(want), "jsonl: %d lines, want %d" % (len(lines), len(want)))
    for line, (pid, comm, _) in zip(lines, want):
        pairs = json.loads(line, object_pairs_hook=lambda p: p)
        expect([k for k, _ in pairs] == COLUMNS, "json keys %r" % pairs)
        obj = dict(pairs)
        got = obj["comm"].encode("latin-1")
        expect(got == comm, "json comm %r, want %r" % (got, comm))
        if pid:
            expect(obj["pid"] == pid and obj["type"] == "pid", "json pid %r" % obj)
            expect(obj["nice"] == -3 and obj["elapsed_us"] == 4000 + pid, "json values %r" % obj)
        else:
            expect(obj["type"] == "tgid" and obj["tgid"] == 2000 and obj["version"] == 0,
                   "json tgid %r" % obj)
            absent = [k for k in COLUMNS if k not in ("type", "tgid", "comm", "version")]
            expect(all(obj[k] is None for k in absent), "json absent %r" % obj)

# Our own statement of the text rule, written apart from format.c: printable
# ASCII but backslash as is; \\ \n \r \t; valid UTF-8 of U+00A0 and up as is
# unless invisible or direction-changing; every other byte as \xNN.
INVISIBLE = ({0xad, 0x61c, 0xfeff} | set(range(0x200b, 0x2010)) |
             set(range(0x2028, 0x202f)) | set(range(0x2060, 0x2070)) |
             set(range(0xfff9, 0xfffc)))

def text_escape(b):
    out, i = bytearray(), 0
    while i < len(b):
        c = b[i]
        if 0x20 <= c < 0x7f and c != 0x5c:
            out.append(c)
            i += 1
            continue
        if c >= 0x80:
            for n in (2, 3, 4):
                try:
                    ch = b[i:i + n].decode("utf-8")
                except UnicodeDecodeError:
                    continue
                if len(ch) == 1 and ord(ch) >= 0xa0 and ord(ch) not in INVISIBLE:
                    out += b[i:i + n]
                    i += n
                    c = None
                break
            if c is None:
                continue
        named = {0x5c: b"\\\\", 0x0a: b"\\n", 0x0d: b"\\r", 0x09: b"\\t"}
        out += named.get(c, b"\\x%02x" % c)
        i += 1
    return bytes(out)

TEXT_LINE = re.compile(rb"^(pid|tgid)( +\S+){10} (.*)$", re.S)

def check_text(d, want):
    with open(d + "/samples.txt", "rb") as f:
        raw = f.read()
    raw.decode("utf-8")     # strict: the text output is valid UTF-8
    expect(not any(b < 0x20 and b != 0x0a or b == 0x7f for b in raw),
           "raw control byte in text output")
    lines = raw.split(b"\n")
    expect(lines[-1] == b"", "text does not end in a newline")
    expect(lines[0].startswith(b"type ") and lines[0].endswith(b" comm"),
           "text header %r" % lines[0])
    lines = lines[1:-1]
    expect(len(lines) == len(want), "text: %d lines, want %d" % (len(lines), len(want)))
    for line, (pid, comm, shown) in zip(lines, want):
        m = TEXT_LINE.match(line)
        expect(m is not None, "text line %r" % line)
        got = m.group(3)
        expect(got == text_escape(comm), "text comm %r, want %r" % (got, text_escape(comm)))
        if pid:
            expect(got == shown, "text comm %r, test_format expects %r" % (got, shown))
            expect(line.split()[1] == str(pid).encode(), "text pid %r" % line)

CHECKS = [("csv", check_csv), ("jsonl", check_jsonl), ("text", check_text)]

def run(d):
    want = manifest(d)
    fails = []
    for name, fn in CHECKS:
        try:
            fn(d, want)
            fails.append((name, None))
        except Exception as e:  # a reader error is a failure too
            fails.append((name, "%s: %s" % (type(e).__name__, e)))
    return fails

if __name__ == "__main__":
    mode, d = sys.argv[1], sys.argv[2]
    for name, err in run(d):
        if mode == "good":
            print("%s %s readers recover every comm byte" %
                  ("not ok -" if err else "ok -", name))
            if err:
                print("# " + err)
        else:
            print("%s %s check rejects damaged %s (%s)" %
                  ("ok -" if err else "not ok -", name, mode, err or "accepted"))
EOF

# Damaged copies: one comm byte changed in one format each; the checker
# must notice every one.
damage() {	# name file sed-expression
	mkdir "$tmp/$1"
	cp "$tmp/good/"* "$tmp/$1/"
	sed -i "$3" "$tmp/$1/$2"
	if cmp -s "$tmp/good/$2" "$tmp/$1/$2"; then
		echo "not ok - damaging $2 changed nothing"
		return 1
	fi
}

echo "1..10"
python3 "$tmp/check.py" good "$tmp/good"
damage bad-csv samples.csv 's/"a,b"/"a;b"/' &&
	python3 "$tmp/check.py" bad-csv "$tmp/bad-csv" | grep 'csv check'
damage bad-json samples.jsonl 's/\\u00ff/\\u00fe/' &&
	python3 "$tmp/check.py" bad-json "$tmp/bad-json" | grep 'jsonl check'
damage bad-text samples.txt 's/\\x1b\[31m/\\x1c[31m/' &&
	python3 "$tmp/check.py" bad-text "$tmp/bad-text" | grep 'text check'
# The samples hold the cases the checks depend on.
n=$(wc -l <"$tmp/good/manifest")
if [ "$n" -ge 30 ]; then echo "ok - $n sample records"; else echo "not ok - only $n sample records"; fi
grep -q '^[0-9]* ff ' "$tmp/good/manifest" && grep -q '^[0-9]* 610a62 ' "$tmp/good/manifest" &&
	echo "ok - samples include invalid UTF-8 and newlines" ||
	echo "not ok - samples lack invalid UTF-8 or newlines"
if grep -q 'x1b\[31mred' "$tmp/good/samples.txt" && ! grep -q "$(printf '\033')" "$tmp/good/samples.txt"; then
	echo "ok - text shows ESC as a visible \\x1b escape"
else
	echo "not ok - text does not escape ESC visibly"
fi
# CSV header = JSON keys (checked above) = the names exitmon(8) documents:
# every column is named in its OUTPUT section.
missing=$(head -1 "$tmp/good/samples.csv" | tr ',' '\n' | while read -r c; do
	sed -n '/^\.Sh OUTPUT/,/^\.Sh /p' "$top/man/exitmon.8" |
		grep -qE "(^|Li |, )$c( |\$)" || echo "$c"
done)
if [ -z "$missing" ]; then
	echo "ok - exitmon(8) OUTPUT names every column"
else
	echo "not ok - exitmon(8) OUTPUT lacks:" $missing
fi
