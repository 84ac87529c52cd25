#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Files a shipper can follow (exitmon(8), "Shipping the records"): the JSON
# Schema that --json-schema prints (and the package installs) takes every
# record exitmon writes, live and from the real captures of struct
# versions 13 to 17, a --fields subset under its own schema, and the
# edges (u64 maximum, every comm byte), and refuses what is not a record;
# a follower that read up to a line a killed run left cut, reading on after
# the restart, gets that cut line alone and then whole records, never one
# record's head glued to another's tail, in JSON lines and in CSV.
. "$(dirname "$0")/lib.sh"
need_taskstats

# The Debian validator (tools/deps.sh installs python3-jsonschema).
PY=/usr/bin/python3
DATA=$(dirname "$0")/../data
TAG=xmship$$
bin=$(tagbin "$TAG")

# valid SCHEMA FILE: every line of FILE is a record the schema takes; says
# how many, or the first that is not and why.
valid() {
	"$PY" - "$@" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
v = Draft202012Validator(schema)
n = 0
for i, line in enumerate(open(sys.argv[2], encoding='utf-8'), 1):
    err = next(iter(v.iter_errors(json.loads(line))), None)
    if err:
        print('line %d: %s' % (i, err.message[:200]))
        sys.exit(1)
    n += 1
print('%d records valid' % n)
sys.exit(0 if n else 1)
PY
}

"$EXITMON" --json-schema > "$T/schema.json"; rc=$?
check "--json-schema prints a schema and exits 0 (exit $rc)" [ $rc -eq 0 ]

# 1. Live records, filtered to ours.
start_exitmon live -f jsonl --comm "$TAG" --count 20 --duration 20
for ((i = 0; i < 40; i++)); do "$bin"; done
wait "$MON_PID"
out=$(valid "$T/schema.json" "$T/live.out"); r=$?
check "live records fit the schema ($out)" [ $r -eq 0 ]

# 2. Every struct version's real records.
for cap in "$DATA"/real-*.pcap; do
	v=$(basename "$cap" .pcap)
	"$EXITMON" --replay "$cap" -f jsonl > "$T/$v.jsonl" 2>/dev/null
	out=$(valid "$T/schema.json" "$T/$v.jsonl"); r=$?
	check "$v: its records fit the schema ($out)" [ $r -eq 0 ]
done

# 3. A --fields subset has its own schema; the full one wants every key.
F=run,seq,time_ns,type,pid,comm,exitcode,cpu_delay_ns
"$EXITMON" --json-schema -F "$F" > "$T/sub.schema.json"
"$EXITMON" --replay "$DATA/real-6.19.14-v16.pcap" -f jsonl -F "$F" \
	> "$T/sub.jsonl" 2>/dev/null
out=$(valid "$T/sub.schema.json" "$T/sub.jsonl"); r=$?
check "a --fields subset fits its schema ($out)" [ $r -eq 0 ]
out=$(valid "$T/schema.json" "$T/sub.jsonl"); r=$?
check "and not the full one ($out)" [ $r -ne 0 ]

# 4. The edges, from a real record: u64 maximum, every comm byte; and what
# is no record.
edge() { # edge NAME PYTHON-EXPR-ON-r: one record changed
	"$PY" - "$T/real-6.19.14-v16.jsonl" "$2" > "$T/$1.jsonl" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
exec(sys.argv[2])
print(json.dumps(r))
PY
	valid "$T/schema.json" "$T/$1.jsonl" > "$T/$1.out"
}
check "u64 maximum in every number is a record" \
	edge max "r.update({k: 2**64 - 1 for k, x in r.items() if type(x) is int and k not in ('nice', 'version', 'seq')})"
check "every byte 0x01-0xff in comm is a record" \
	edge comm "r['comm'] = ''.join(map(chr, range(1, 256)))"
for bad in "r['seq'] = 0" "r['run'] = 'xyz'" "r['utime_us'] = 2**64" \
	   "r['utime_us'] = -1" "r['comm'] = chr(0x100)" "r['pid'] = '12'" \
	   "r['type'] = 'thread'" "del r['seq']"; do
	check "no record: $bad" eval '! edge bad "$bad"'
done

# 5. A follower reading across a restart.  It read the file to its end,
# holding the bytes of the cut last line, and reads on from there after the
# restart: what it then sees must be that cut line ended, then exactly the
# restarted run's records (a fixed run id makes them known in advance).
# Cutting the file back instead would give it the cut head glued to the
# tail of the restarted run's first record.
RUN=00112233445566778899aabbccddeeff
V16=$DATA/real-6.19.14-v16.pcap
# follower FMT CUT: the records of a replay, then the head of one more as a
# killed run leaves it (all but its last CUT bytes); the restart appends the
# same replay as run $RUN; $T/seen.FMT is what the follower reads after
# the cut, $T/want.FMT those records alone.
follower() {
	"$EXITMON" --replay "$V16" -f "$1" --count 3 > "$T/f.$1" 2>/dev/null
	sed -n 2p "$T/f.$1" | head -c "-$2" > "$T/held.$1"
	cat "$T/held.$1" >> "$T/f.$1"
	size=$(stat -c %s "$T/f.$1")
	"$EXITMON" --replay "$V16" -f "$1" --run-id $RUN -o "$T/f.$1" 2>"$T/f.$1.err"
	{ cat "$T/held.$1"; tail -c +$((size + 1)) "$T/f.$1"; } > "$T/seen.$1"
	"$EXITMON" --replay "$V16" -f "$1" --run-id $RUN 2>/dev/null |
		grep -v '^run,' > "$T/want.$1"
}
follower jsonl 150
cutlen=$(stat -c %s "$T/held.jsonl")
check "JSON lines follower: the cut line ended alone" \
	[ "$(head -1 "$T/seen.jsonl")" = "$(cat "$T/held.jsonl")" ]
check "then exactly the restarted run's records" \
	cmp -s <(tail -n +2 "$T/seen.jsonl") "$T/want.jsonl"
check "the restart said it ended a cut line" \
	grep -q "ended in a line cut short ($cutlen bytes" "$T/f.jsonl.err"
# CSV, cut inside its last number (the version, 16 cut to 1), where a row
# cut short still parses: it is ended with a field more than the header.
follower csv 2
ncols=$(head -1 "$T/f.csv" | tr ',' '\n' | wc -l)
fields() { "$PY" -c 'import csv,sys; print(len(next(csv.reader(sys.stdin))))'; }
check "CSV follower: the cut row ended with one field more than the header" \
	[ "$(head -1 "$T/seen.csv" | fields)" -eq $((ncols + 1)) ]
check "then exactly the restarted run's records" \
	cmp -s <(tail -n +2 "$T/seen.csv") "$T/want.csv"
done_testing
