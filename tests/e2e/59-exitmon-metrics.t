#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tier: busy
# exitmon --metrics counts the exits the records tell of (exitmon(8),
# METRICS), checked against the records themselves: live, with tasks whose
# end we choose (exit 0, exit 3, SIGTERM, SIGSEGV with and without a core,
# a process of four threads) and hostile names, the exits by outcome are
# the pid rows by outcome, the series of every command add up to the rows'
# exits, CPU and delays exactly, the histograms are the rows' values
# bucketed (count, sum, every bucket), tgid rows count nothing, every
# series only grows from one write to the next, and promtool accepts every
# file; the hostile names are shown under their escaped labels.  Replayed,
# the live run's capture gives the same totals, and each of the real
# captures of tests/data/ gives exactly what its golden CSV says, the
# commands shown being its heaviest by CPU.
. "$(dirname "$0")/lib.sh"
need_taskstats
command -v promtool >/dev/null || { nok "promtool is missing (tools/deps.sh installs prometheus)"; done_testing; }

TAG=xm$$
N=3

# metcheck PROM CSV N [SNAPSHOT...]: the rules above, for a metrics file
# and the records it counted; prints "ok|bad text" lines.
metcheck() {
	python3 - "$@" <<'PY'
import csv, io, re, sys
from decimal import Decimal
prom, rows_path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
snaps = sys.argv[4:]
LINE = re.compile(r'^([a-z_]+)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-z_]+)="((?:[^"\\]|\\.)*)"')

def parse(path):
    m = {}
    for l in open(path, encoding='utf-8'):
        if l.startswith('#'):
            continue
        g = LINE.match(l.rstrip('\n'))
        labels = tuple(LABEL.findall(g.group(2) or ''))
        m[(g.group(1), labels)] = g.group(3)
    return m

def ns(v):        # seconds, exact to the nanosecond
    return int(Decimal(v) * 1000000000)

def label(comm):  # exitmon(8): the name as text shows it, then escaped
    b, i, t = comm.encode('latin-1'), 0, ''
    while i < len(b):
        c = b[i]
        if 0x20 <= c < 0x7f and c != 0x5c:
            t += chr(c); i += 1; continue
        ch = None
        for n in (2, 3, 4) if c >= 0x80 else ():
            try:
                ch = b[i:i + n].decode('utf-8'); break
            except UnicodeDecodeError:
                pass
        cp = ord(ch) if ch and len(ch) == 1 else 0
        if cp and not (cp < 0xa0 or cp in (0xad, 0x61c, 0xfeff) or 0x200b <= cp <= 0x200f or
                       0x2028 <= cp <= 0x202e or 0x2060 <= cp <= 0x206f or 0xfff9 <= cp <= 0xfffb):
            t += ch; i += len(ch.encode('utf-8')); continue
        t += {0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t'}.get(c, '\\x%02x' % c); i += 1
    if t == 'other':
        t = '\\x6fther'
    return t.replace('\\', '\\\\').replace('"', '\\"')

raw = open(rows_path, 'rb').read().decode('latin-1')
allrows = list(csv.DictReader(io.StringIO(raw, newline='')))
rows = [r for r in allrows if r['type'] == 'pid']
tgid = len(allrows) - len(rows)
m = parse(prom)
out = []
def check(ok, what):
    out.append(('ok ' if ok else 'bad ') + what)

def outcome(code):
    code = int(code)
    if code & 0x7f:
        return 'core' if code & 0x80 else 'signal'
    return 'nonzero' if (code >> 8) & 0xff else 'exit0'

want = {k: 0 for k in ('exit0', 'nonzero', 'signal', 'core')}
for r in rows:
    want[outcome(r['exitcode'])] += 1
got = {k: int(m[('exitmon_exits_total', (('outcome', k),))]) for k in want}
check(got == want, 'exits by outcome %s = pid rows by outcome %s (%d tgid rows not counted)' % (got, want, tgid))

DELAYS = ['cpu', 'blkio', 'swapin', 'freepages', 'thrashing', 'compact', 'wpcopy', 'irq']
def col(r, c):
    v = r.get(c)
    return int(v) if v not in (None, '') else None
series = {}
for (name, labels), v in m.items():
    d = dict(labels)
    if name.startswith('exitmon_command_') and 'comm' in d:
        series.setdefault(d['comm'], {})[(name, d.get('delay'))] = v
shown = int(m[('exitmon_commands_shown', ())])
retired = int(m[('exitmon_commands_retired', ())])
check(shown <= n and retired <= n and len(series) == shown + retired + 1 and 'other' in series,
      '%d commands shown of at most %d, %d retired, and other' % (shown, n, retired))
tot_exits = sum(int(s[('exitmon_command_exits_total', None)]) for s in series.values())
tot_cpu = sum(ns(s[('exitmon_command_cpu_seconds_total', None)]) for s in series.values())
cpu_rows = [(col(r, 'utime_us') + col(r, 'stime_us')) * 1000 for r in rows]
check(tot_exits == len(rows), 'the commands\' exits add up to the %d pid rows (%d)' % (len(rows), tot_exits))
check(tot_cpu == sum(cpu_rows), 'the commands\' CPU adds up to the rows\' utime+stime exactly (%d ns)' % sum(cpu_rows))
for k in DELAYS:
    t = sum(ns(s[('exitmon_command_delay_seconds_total', k)]) for s in series.values())
    w = sum(col(r, k + '_delay_ns') or 0 for r in rows)
    if t != w:
        check(False, 'delay %s: commands %d ns, rows %d ns' % (k, t, w))
check(True, 'every delay of the commands adds up to the rows\' exactly')

bounds = [1000, 2500, 5000]
while len(bounds) < 25:
    bounds.append(bounds[-3] * 10)
def hist(name, extra, values):
    cum, bad = 0, []
    for b in bounds:
        le = ('%d.%09d' % divmod(b, 1000000000)).rstrip('0').rstrip('.')
        cum = sum(1 for v in values if v <= b)
        got = int(m[(name + '_bucket', extra + (('le', le),))])
        if got != cum:
            bad.append('le=%s %d != %d' % (le, got, cum))
    inf = int(m[(name + '_bucket', extra + (('le', '+Inf'),))])
    cnt = int(m[(name + '_count', extra)])
    sm = ns(m[(name + '_sum', extra)])
    if inf != len(values) or cnt != len(values):
        bad.append('count %d, +Inf %d, values %d' % (cnt, inf, len(values)))
    if sm != sum(values):
        bad.append('sum %d != %d' % (sm, sum(values)))
    return bad
bad = hist('exitmon_exit_cpu_seconds', (), cpu_rows)
check(not bad, 'CPU histogram: every bucket, count and sum are the rows\' %s' % bad)
bad = []
for k in DELAYS:
    vals = [col(r, k + '_delay_ns') for r in rows if col(r, k + '_delay_ns') is not None]
    bad += [k + ': ' + b for b in hist('exitmon_exit_delay_seconds', (('delay', k),), vals)]
check(not bad, 'delay histograms: every bucket, count and sum are the rows\' %s' % bad[:3])

# Each shown command: at most its rows (it counts from its interval on),
# under the label of exitmon(8).
by_label = {}
for r in rows:
    by_label[label(r['comm'])] = by_label.get(label(r['comm']), 0) + 1
bad = [c for c in series if c != 'other' and
       int(series[c][('exitmon_command_exits_total', None)]) > by_label.get(c, 0)]
check(not bad, 'every shown command has rows under its label, no fewer than it counts %s' % bad)

# Snapshots taken while it ran: every series only grows, the commands add
# up to the outcomes in each.
prev, bad = {}, []
for p in snaps + [prom]:
    s = parse(p)
    o = sum(int(v) for (k, l), v in s.items() if k == 'exitmon_exits_total')
    c = sum(int(v) for (k, l), v in s.items() if k == 'exitmon_command_exits_total')
    if o != c:
        bad.append('%s: outcomes %d, commands %d' % (p, o, c))
    for key, v in s.items():
        if key[0].endswith(('_total', '_bucket', '_count', '_sum')) and key in prev and \
           Decimal(v) < Decimal(prev[key]) and key[0] != 'exitmon_cpu_seconds_total':
            bad.append('%s went down: %s -> %s' % (key, prev[key], v))
    for key in prev:
        if key[0].startswith(('exitmon_command_', 'exitmon_exit')) and key not in s:
            bad.append('%s left' % (key,))
    prev = s
check(not bad, '%d files: no series went down or left, commands = outcomes in each %s' % (len(snaps) + 1, bad[:3]))
print('\n'.join(out))
PY
}

# promcheck FILE...: promtool accepts every one.
promcheck() {
	local f
	for f in "$@"; do
		promtool check metrics < "$f" >/dev/null 2>&1 || { diag "promtool: $f"; promtool check metrics < "$f" 2>&1 | sed 's/^/# /'; return 1; }
	done
}

report() { # report PREFIX: metcheck's lines as checks
	while read -r res what; do
		check "$1: $what" [ "$res" = ok ]
	done
}

# --- live --------------------------------------------------------------
sh=$(command -v dash || command -v sh)
for s in ok nz sig seg core; do cp "$sh" "$T/$TAG$s"; done
mkdir "$T/cores"
start_exitmon live -f csv --comm "$TAG*" --metrics "$T/live.prom" \
	--metrics-commands $N --stats 0.5 --capture "$T/live.pcap" || nok "live: collector ready"
( while [ -d "$T" ]; do cp "$T/live.prom" "$T/snap.$(date +%s%N)" 2>/dev/null; sleep 0.2; done ) &
SNAP=$!
_pids="$_pids $SNAP"
sleep 0.8	# past the write at start, which shows no command
# Phase 1: three hostile names, heavy on CPU: the only commands of their
# interval, so they are the ones shown.
python3 - "$TAG" <<'PY'
import ctypes, os, sys, time
libc = ctypes.CDLL(None)
tag = sys.argv[1].encode()
for suffix in (b'\xff\xfe', b'"q\\', b'\n\xc3\xa9'):
    if os.fork() == 0:
        libc.prctl(15, ctypes.c_char_p(tag + suffix), 0, 0, 0)   # PR_SET_NAME
        t = time.process_time()
        while time.process_time() - t < 0.05:
            pass
        os._exit(0)
    os.wait()
PY
sleep 1.3	# two writes: they are shown, the set is full
# Phase 2: outcomes we choose, all under other.
for i in 1 2; do "$T/${TAG}ok" -c 'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; exit 0'; done
for i in 1 2 3; do "$T/${TAG}nz" -c 'exit 3'; done
for i in 1 2; do "$T/${TAG}sig" -c 'kill -TERM $$'; done 2>/dev/null
{ ( ulimit -c 0; "$T/${TAG}seg" -c 'kill -SEGV $$' ); } 2>/dev/null
# core_pattern is left alone: a relative one writes into $T/cores.
( cd "$T/cores" && ulimit -c unlimited &&
	for i in 1 2; do ( "$T/${TAG}core" -c 'kill -SEGV $$' ); done ) 2>/dev/null
python3 - "$TAG" <<'PY'
import ctypes, sys, threading
ctypes.CDLL(None).prctl(15, ctypes.c_char_p((sys.argv[1] + 'thr').encode()), 0, 0, 0)
ts = [threading.Thread(target=lambda: sum(range(100000))) for _ in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]
PY
sleep 0.7
kill "$SNAP" 2>/dev/null; wait "$SNAP" 2>/dev/null
stop_exitmon
rm -rf "$T/cores"

rows=$(grep -c "^${ROW}pid," "$T/live.out")
check "live: records written ($rows pid rows; $(kv "$T/live.sum" implausible) implausible)" [ "$rows" -ge 17 ]
check "live: promtool accepts the file and every snapshot ($(ls "$T" | grep -c '^snap\.') of them)" promcheck "$T/live.prom" "$T"/snap.*
report live < <(metcheck "$T/live.prom" "$T/live.out" $N $(ls "$T"/snap.* | sort))
python3 - "$T/live.out" <<'PY' > "$T/classes"
import csv, io, sys
rows = [r for r in csv.DictReader(io.StringIO(open(sys.argv[1], 'rb').read().decode('latin-1'), newline=''))]
pid = lambda s: [int(r['exitcode']) for r in rows if r['type'] == 'pid' and r['comm'].endswith(s)]
print('nz', pid('nz') == [768] * 3)
print('sig', pid('sig') == [15] * 2)
print('seg', pid('seg') == [11])
print('core', pid('core'))
print('thr', len(pid('thr')), sum(1 for r in rows if r['type'] == 'tgid'))
PY
check "live: exit 3 is 768 (the exit code in bits 8-15)" grep -qx 'nz True' "$T/classes"
check "live: SIGTERM is 15" grep -qx 'sig True' "$T/classes"
check "live: SIGSEGV under RLIMIT_CORE 0 is 11 (signal, no core)" grep -qx 'seg True' "$T/classes"
if grep -q '^|' /proc/sys/kernel/core_pattern; then
	diag "core_pattern is a pipe ($(cat /proc/sys/kernel/core_pattern)): the core case is what its handler made of it: $(grep '^core' "$T/classes")"
else
	check "live: SIGSEGV with a core is 139 (11 + 0x80)" grep -qx 'core \[139, 139\]' "$T/classes"
fi
check "live: a process of four threads: four pid rows and a tgid row" grep -qx 'thr 4 1' "$T/classes"
check "live: outcomes exit0, nonzero, signal, core all seen" \
	awk '/^exitmon_exits_total/ && $2 == 0 { bad = 1 } END { exit bad }' "$T/live.prom"
# The three hostile names are the commands shown, under their labels.
python3 - "$TAG" "$T/live.prom" "$T/live.out" <<'PY' > "$T/hostile"
import csv, io, sys
tag, prom, rows = sys.argv[1], sys.argv[2], sys.argv[3]
want = {tag + '\\\\xff\\\\xfe': 'ff', tag + '\\"q\\\\\\\\': 'q', tag + '\\\\n\u00e9': 'n'}
lines = open(prom, encoding='utf-8').read().splitlines()
recs = [r for r in csv.DictReader(io.StringIO(open(rows, 'rb').read().decode('latin-1'), newline=''))]
for label, k in want.items():
    l = [x for x in lines if x.startswith('exitmon_command_exits_total{comm="%s"}' % label)]
    print(k, len(l) == 1 and l[0].endswith(' 1'))
PY
check "live: the name with bytes ff fe is shown as \\\\xff\\\\xfe" grep -qx 'ff True' "$T/hostile"
check "live: the name with a quote and a backslash is shown escaped" grep -qx 'q True' "$T/hostile"
check "live: the name with a newline and an e-acute is shown as \\\\n and UTF-8" grep -qx 'n True' "$T/hostile"

# --- two shards: each counts the exits of its CPUs, merged at each write --
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	start_exitmon sh2 -f csv --comm "$TAG*" --metrics "$T/sh2.prom" \
		--metrics-commands 2 --stats 0.3 --shards 2 || nok "two shards: collector ready"
	for r in 1 2 3; do
		for s in ok nz sig seg core; do
			for cpu in 0 1; do taskset -c $cpu "$T/$TAG$s" -c 'exit 0'; done
		done
		sleep 0.4
	done
	stop_exitmon
	check "two shards: promtool accepts the file" promcheck "$T/sh2.prom"
	report "two shards" < <(metcheck "$T/sh2.prom" "$T/sh2.out" 2)
	check "two shards: 30 exits counted" grep -qx 'exitmon_exits_total{outcome="exit0"} 30' "$T/sh2.prom"
else
	nok "two shards: this machine needs 2 CPUs and taskset"
fi

# --- many names: more than a shard's table (N + 256) in one interval ----
start_exitmon many -f csv --comm "$TAG*" --metrics "$T/many.prom" \
	--metrics-commands 5 --capture "$T/many.pcap" || nok "many names: collector ready"
python3 - "$TAG" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None)
tag = sys.argv[1].encode()
for i in range(700):
    if os.fork() == 0:
        libc.prctl(15, ctypes.c_char_p(tag + bytes([0x80 | (i & 0x3f), 0x41 + (i >> 6)])), 0, 0, 0)
        os._exit(i % 3)
    os.wait()
PY
stop_exitmon
check "many names: 700 exits written" [ "$(grep -c "^${ROW}pid," "$T/many.out")" -eq 700 ]
check "many names: promtool accepts the file" promcheck "$T/many.prom"
report "many names" < <(metcheck "$T/many.prom" "$T/many.out" 5)
"$EXITMON" --replay "$T/many.pcap" -f csv -o "$T/manyr.csv" --comm "$TAG*" --metrics "$T/manyr.prom" \
	--metrics-commands 5 2>/dev/null
report "many names replayed (the table fills: ranked when full)" < <(metcheck "$T/manyr.prom" "$T/manyr.csv" 5)
check "many names replayed: 5 commands shown" grep -qx 'exitmon_commands_shown 5' "$T/manyr.prom"

# --- replay ------------------------------------------------------------
# The live run's capture: the same totals (the replay ranks all at once).
"$EXITMON" --replay "$T/live.pcap" -f csv -o "$T/rl.csv" --comm "$TAG*" \
	--metrics "$T/rl.prom" --metrics-commands $N 2>/dev/null
check "replay of the live capture: exit 0" [ $? -eq 0 ]
check "replay of the live capture: promtool accepts it" promcheck "$T/rl.prom"
report "replay of the live capture" < <(metcheck "$T/rl.prom" "$T/rl.csv" $N)
tot() { grep -E '^exitmon_(exits_total|exit_cpu_seconds|exit_delay_seconds)' "$1"; }
check "replay of the live capture: outcomes and histograms as live" diff <(tot "$T/live.prom") <(tot "$T/rl.prom")

# The real captures: exactly what their goldens say, the heaviest shown.
for cap in "$TOP"/tests/data/real-*.pcap; do
	name=$(basename "$cap" .pcap)
	"$EXITMON" --replay "$cap" -o /dev/null --metrics "$T/$name.prom" \
		--metrics-commands 4 2>/dev/null
	check "$name: exit 0, promtool accepts it" promcheck "$T/$name.prom"
	report "$name" < <(metcheck "$T/$name.prom" "${cap%.pcap}.csv" 4)
	python3 - "$T/$name.prom" "${cap%.pcap}.csv" <<'PY' > "$T/$name.top"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[2], encoding='latin-1', newline='')) if r['type'] == 'pid']
agg = {}
for r in rows:
    a = agg.setdefault(r['comm'], [0, 0])
    a[0] += int(r['utime_us']) + int(r['stime_us'])
    a[1] += 1
top = sorted(agg.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0].encode('latin-1')))[:4]
got = {}
for l in open(sys.argv[1]):
    if l.startswith('exitmon_command_exits_total{'):
        comm = l.split('"')[1]
        got[comm] = int(l.split()[-1])
want = {c: v[1] for c, v in top}
want['other'] = len(rows) - sum(want.values())
print(got == want, got, want)
PY
	check "$name: the 4 heaviest commands by CPU shown with all their exits, the rest other ($(cut -c1-120 "$T/$name.top"))" grep -q '^True' "$T/$name.top"
done

# --- options -----------------------------------------------------------
"$EXITMON" --replay "$TOP/tests/data/real-v16.pcap" -o /dev/null --metrics-commands 5 2>"$T/opt.err"
check "--metrics-commands without --metrics: usage error (2)" [ $? -eq 2 ]
check "... saying to add --metrics" grep -q 'add --metrics FILE' "$T/opt.err"
"$EXITMON" --replay "$TOP/tests/data/real-v16.pcap" -o /dev/null --metrics "$T/o.prom" --metrics-commands 1001 2>"$T/opt.err"
check "--metrics-commands 1001: bad value (2)" [ $? -eq 2 ]
check "... in one line naming the range" grep -q "bad value for --metrics-commands: '1001' (0 to 1000)" "$T/opt.err"
"$EXITMON" --replay "$TOP/tests/data/real-v16.pcap" -o /dev/null --metrics "$T/o.prom" --metrics-commands 0 2>/dev/null
check "--metrics-commands 0: no command shown" grep -qx 'exitmon_commands_shown 0' "$T/o.prom"
report "--metrics-commands 0" < <(metcheck "$T/o.prom" "$TOP/tests/data/real-v16.csv" 0)
check "--help lists --metrics-commands" sh -c '"$1" --help | grep -q -- "--metrics-commands N"' _ "$EXITMON"
done_testing
