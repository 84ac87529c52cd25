#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fleetcheck: the fleet tier's checks of the store against exitmon's own
accounts (tests/fleet/, make test-fleet).

  fleetcheck.py runs SUMDIR HOST [--lossy]
      Every summary in SUMDIR (one per run of exitmon) against the rows of
      its run in PostgreSQL: count(distinct seq) = written and max(seq) =
      written + unwritten.  Exit 0 when every run matches.  --lossy: print
      the records missing per run and in all ("missing N"), exit 0.
  fleetcheck.py prom PROMOUT N SUMDIR [--every] [--lossy FILE]
      Host N's runs in Prometheus (PROMOUT: "instance run written" lines,
      the max over time of exitmon_records_written_total joined to
      exitmon_run_info) against their summaries and their rows: each
      run Prometheus saw (--every: each run with a summary, and their
      sum) has written = the summary's = its rows in PostgreSQL (but for
      the runs FILE, fleetcheck's --lossy output, lists as short).
  fleetcheck.py filerows FILE... [--run RUN]
      The complete, valid JSON lines of the files, per run: "run count
      max_seq invalid_lines".
  fleetcheck.py expect-top-cpu|expect-outcomes KEYS FILE...
      What examples/fleet-top-cpu.sql or fleet-exit-outcomes.sql must
      return, computed here from the JSON lines of the hosts' files
      (KEYS: the "host run seq" rows the store holds, the records that
      reached it), as the query prints it (psql -A -t).
"""
import collections
import datetime
import gzip
import json
import os
import subprocess
import sys


def psql(query):
    out = subprocess.run(
        ["psql", "-X", "-q", "-A", "-t", "-F", " ", "-v", "ON_ERROR_STOP=1",
         "-h", os.environ["PGSOCK"], "-U", "postgres", "-d", "exitmon",
         "-c", query], check=True, capture_output=True, text=True).stdout
    return [line.split(" ") for line in out.splitlines() if line]


def summary(path):
    d = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            d[k] = v
    return d


def runs(sumdir, host, lossy):
    store = {r[0]: (int(r[1]), int(r[2])) for r in psql(
        "SELECT run, count(DISTINCT seq), max(seq) FROM exits "
        "WHERE host = '%s' GROUP BY run" % host)}
    bad, n, rows, missing = [], 0, 0, 0
    seen = set()
    for name in sorted(os.listdir(sumdir)):
        s = summary(os.path.join(sumdir, name))
        if "run" not in s:
            bad.append("%s: no run in the summary" % name)
            continue
        n += 1
        run, w, u = s["run"], int(s["written"]), int(s["unwritten"])
        seen.add(run)
        distinct, mx = store.get(run, (0, 0))
        rows += distinct
        if lossy:
            if distinct != w:
                missing += w - distinct
                print("run %s: %d of %d written stored, max seq %d" %
                      (run, distinct, w, mx))
            continue
        if distinct != w or mx != w + u:
            bad.append("run %s (%s): count(distinct seq) %d, written %d; "
                       "max(seq) %d, written + unwritten %d" %
                       (run, name, distinct, w, mx, w + u))
    others = [r for r in store if r not in seen]
    if lossy:
        print("missing %d" % missing)
        return 0
    for b in bad[:20]:
        print(b)
    print("%d runs, %d rows: %s; %d runs in the store without a summary yet"
          % (n, rows, "all match" if not bad else "%d differ" % len(bad),
             len(others)))
    return 1 if bad else 0


def prom(promout, n, sumdir, every, lossyfile):
    seen = {}
    with open(promout) as f:
        for line in f:
            inst, run, v = line.split()
            if inst.startswith("10.77.%s." % n):
                seen[run] = int(float(v))
    want = {}
    for name in os.listdir(sumdir):
        s = summary(os.path.join(sumdir, name))
        want[s["run"]] = int(s["written"])
    rows = {r[0]: int(r[1]) for r in psql(
        "SELECT run, count(DISTINCT seq) FROM exits WHERE host = 'h%s' "
        "GROUP BY run" % n)}
    lossy = set()
    if lossyfile:
        with open(lossyfile) as f:
            lossy = {l.split()[1].rstrip(":") for l in f if l.startswith("run ")}
    runs = sorted(want) if every else sorted(seen)
    bad = []
    for r in runs:
        if r not in want:
            bad.append("run %s in Prometheus has no summary" % r)
        elif seen.get(r) != want[r] or (r not in lossy and
                                        rows.get(r, 0) != want[r]):
            bad.append("run %s: Prometheus %s, summary %d, rows %d" %
                       (r, seen.get(r), want[r], rows.get(r, 0)))
    total = sum(seen.get(r, 0) for r in runs)
    stored = sum(rows.get(r, 0) for r in runs)
    for b in bad[:20]:
        print(b)
    print("h%s: %d runs in Prometheus%s, written %d in all, %d rows%s" %
          (n, len(runs), " (every run)" if every else
           " (of %d runs)" % len(want), total, stored,
           ", %d runs short (case 9)" % len(lossy & set(runs))
           if lossy else ""))
    if every and total != stored:
        bad.append("sum")
    return 1 if bad or not runs else 0


def lines(files):
    """Every line of the files: (record or None, raw)."""
    for fn in files:
        with (gzip.open if fn.endswith(".gz") else open)(fn, "rb") as f:
            for raw in f:
                if not raw.endswith(b"\n"):
                    yield None, raw        # not complete: never shipped
                    continue
                try:
                    j = json.loads(raw)
                    yield (j if isinstance(j, dict) else None), raw
                except ValueError:
                    yield None, raw


def filerows(files, only):
    per = collections.defaultdict(lambda: [0, 0])
    invalid = 0
    for j, raw in lines(files):
        if j is None:
            invalid += 1
            continue
        if only and j.get("run") != only:
            continue
        p = per[j["run"]]
        p[0] += 1
        p[1] = max(p[1], j["seq"])
    for run, (c, m) in sorted(per.items()):
        print(run, c, m, invalid)
    if not per:
        print("-", 0, 0, invalid)


def records(keysfile, files):
    """The records of the files that the store holds, once each, with the
    host the store says they came from."""
    keys = {}
    with open(keysfile) as f:
        for line in f:
            host, run, seq = line.split()
            keys[(run, int(seq))] = host
    out = {}
    for j, _ in lines(files):
        if j is None:
            continue
        k = (j.get("run"), j.get("seq"))
        if k in keys and k not in out:
            out[k] = (keys[k], j)
    return out.values()


def expect_top_cpu(keysfile, files):
    agg = {}
    for host, j in records(keysfile, files):
        if j.get("type") != "pid":
            continue
        a = agg.setdefault(j.get("comm"), [0, set(), 0])
        a[0] += 1
        a[1].add(host)
        a[2] += j["utime_us"] + j["stime_us"]
    # ORDER BY cpu_us DESC, comm (C collation: by code point of UTF-8)
    rows = sorted(agg.items(), key=lambda kv: (-kv[1][2], kv[0].encode()))
    for comm, (exits, hosts, cpu) in rows[:20]:
        print("%s|%d|%d|%d" % (comm, exits, len(hosts), cpu))


def expect_outcomes(keysfile, files):
    agg = collections.Counter()
    for host, j in records(keysfile, files):
        if j.get("type") != "pid":
            continue
        ec = j["exitcode"]
        if ec & 127:
            o = "signal %d" % (ec & 127) + (" core" if ec & 128 else "")
        else:
            o = "exit %d" % (ec >> 8)
        t = datetime.datetime.fromtimestamp(j["time_ns"] // 10**9,
                                            datetime.timezone.utc)
        agg[(host, t.strftime("%Y-%m-%d %H:00:00+00"), o)] += 1
    for (host, hour, o), c in sorted(agg.items()):
        print("%s|%s|%s|%d" % (host, hour, o, c))


def expect_gaps(keysfile):
    """examples/fleet-lost-records.sql's rows, from the keys alone."""
    per = collections.defaultdict(list)
    hosts = {}
    with open(keysfile) as f:
        for line in f:
            host, run, seq = line.split()
            per[run].append(int(seq))
            hosts[run] = min(hosts.get(run, host), host)
    rows = []
    for run, seqs in per.items():
        seqs.sort()
        if seqs[-1] == len(seqs):
            continue
        gaps, prev = [], 0
        for q in seqs:
            if q > prev + 1:
                lo, hi = prev + 1, q - 1
                gaps.append(str(lo) if lo == hi else "%d-%d" % (lo, hi))
            prev = q
        rows.append((hosts[run], run, len(seqs), seqs[-1],
                     seqs[-1] - len(seqs), ",".join(gaps)))
    for host, run, n, mx, miss, gaps in sorted(rows):
        print("%s|%s|%d|%d|%d|%s" % (run, host, n, mx, miss, gaps))


def main(a):
    if a[0] == "runs":
        return runs(a[1], a[2], "--lossy" in a[3:])
    if a[0] == "prom":
        lossy = a[a.index("--lossy") + 1] if "--lossy" in a else None
        return prom(a[1], a[2], a[3], "--every" in a, lossy)
    if a[0] == "filerows":
        only = None
        if "--run" in a:
            i = a.index("--run")
            only = a[i + 1]
            a = a[:i] + a[i + 2:]
        filerows(a[1:], only)
        return 0
    if a[0] == "expect-top-cpu":
        expect_top_cpu(a[1], a[2:])
        return 0
    if a[0] == "expect-gaps":
        expect_gaps(a[1])
        return 0
    if a[0] == "expect-outcomes":
        expect_outcomes(a[1], a[2:])
        return 0
    sys.exit("fleetcheck: unknown command %s" % a[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
