#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root never writes where it should not: links planted by another user are
# refused (at start-up and on SIGHUP), the pid file is locked, fds 0-2 are
# never an output, one file named twice is refused, every output is
# checked at start-up as the user that writes it, and modes are never wider
# than needed.
. "$(dirname "$0")/lib.sh"
need_taskstats

TAG=xmrs$$
tagged=$(tagbin "$TAG")
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
mkdir -m 1777 "$T/tmp"			# a world-writable sticky dir, like /tmp
mkdir -m 700 "$T/secret"		# root's own
printf 'precious 1\nprecious 2 (no newline)' > "$T/secret/victim"
chmod 600 "$T/secret/victim"
cp -p "$T/secret/victim" "$T/victim.orig"
intact() { cmp -s "$T/secret/victim" "$T/victim.orig" && [ ! -e "$T/secret/summary" ]; }

# start_mon PIDFILE ERRFILE ARGS...: start a collector, wait for its pid
# file; MON_PID.
start_mon() {
	pf=$1 ef=$2; shift 2
	"$EXITMON" --pidfile "$pf" --comm "$TAG" "$@" 2> "$ef" &
	MON_PID=$!; _pids="$_pids $MON_PID"
	wait_file "$pf" 10 || { diag "not ready:"; sed 's/^/# /' "$ef"; }
}

# --- 1b. FIFOs: never a blocking open before the checks ----------------
# Another user's FIFO in a sticky dir is refused at once (it used to hang
# exitmon in open(2) before the ownership check); our own FIFO with no
# reader is refused at once, naming what to do; exitgen's write work too
# (it opened with every signal blocked).
as_nobody mkfifo -m 666 "$T/tmp/planted"
timeout 10 "$EXITMON" -f csv -o "$T/tmp/planted" --duration 0.3 2> "$T/ef1"; rc=$?
check "-o nobody's FIFO in a sticky dir: exit 8 at once (got $rc)" [ $rc -eq 8 ]
check "... one line: another user's file" sh -c "[ \$(wc -l < '$T/ef1') -eq 1 ] && grep -q \"another user's file\" '$T/ef1'"
mkfifo "$T/ownfifo"
timeout 10 "$EXITMON" -f csv -o "$T/ownfifo" --duration 0.3 2> "$T/ef2"; rc=$?
check "-o our FIFO with no reader: exit 8 at once (got $rc)" [ $rc -eq 8 ]
check "... one line: start its reader first" sh -c "[ \$(wc -l < '$T/ef2') -eq 1 ] && grep -q 'FIFO with no reader (start its reader first)' '$T/ef2'"
timeout 10 "$EXITGEN" --shape process --count 5 --rate 100 --tag "$TAG" \
	--work "write:4096:$T/tmp/planted" 2> "$T/ef3"; rc=$?
check "exitgen --work write: to nobody's FIFO: exit 1 at once (got $rc)" [ $rc -eq 1 ]
check "... saying why" grep -q "another user's file" "$T/ef3"
# A FIFO whose reader is there works as before, and does not block.
( exec cat "$T/ownfifo" > "$T/fifo.out" ) &
reader=$!
wait_fifo_reader $reader
timeout 10 "$EXITMON" -f csv --comm "$TAG" -o "$T/ownfifo" --duration 1 2>/dev/null &
mon=$!
sleep 0.5
"$tagged"
wait $mon; rc=$?
wait $reader
check "-o a FIFO with its reader: exit 0 (got $rc)" [ $rc -eq 0 ]
check "... the record came through" grep -q ",$TAG," "$T/fifo.out"

# --- 1c. a link in another user's own (not sticky) directory -----------
# The start-up check applies the final write's rule: refused before the
# run (it used to pass, and the summary or plot was refused after it).
mkdir -m 777 "$T/nob"; chown nobody "$T/nob"
as_nobody ln -s "$T/secret/victim" "$T/nob/sum.txt"
timeout 10 "$EXITMON" --summary "$T/nob/sum.txt" -o /dev/null --duration 3 2> "$T/ef4"; rc=$?
check "--summary through nobody's link in nobody's dir: exit 8 at start (got $rc)" \
	sh -c "[ $rc -eq 8 ] && grep -q 'symbolic link owned by another user' '$T/ef4' && ! grep -q 'done:' '$T/ef4'"
check "... the victim is untouched" intact
timeout 20 "$TOP/exitsweep" --quick --probe off --plot "$T/nob/sum.txt" 2> "$T/ef5" >/dev/null; rc=$?
check "exitsweep --plot through that link: refused before any run (exit $rc)" \
	sh -c "[ $rc -eq 8 ] && grep -q 'symbolic link owned by another user' '$T/ef5'"
check "... the victim is untouched" intact

# --- 2. links planted by another user -----------------------------------
as_nobody ln -s "$T/secret/victim" "$T/tmp/out.csv"
"$EXITMON" -f csv -o "$T/tmp/out.csv" --duration 0.3 2> "$T/e1"; rc=$?
check "-o through nobody's link in a sticky dir: exit 8 (got $rc)" [ $rc -eq 8 ]
check "... one line naming the link" sh -c "[ \$(wc -l < '$T/e1') -eq 1 ] && grep -q 'symbolic link owned by another user' '$T/e1'"
check "... the victim is untouched" intact
"$EXITMON" --capture "$T/tmp/out.csv" -o /dev/null --duration 0.3 2> "$T/e2"; rc=$?
check "--capture through the link: exit 8 (got $rc)" [ $rc -eq 8 ]
check "... the victim is untouched" intact

as_nobody ln -s "$T/secret" "$T/tmp/dir"
for opt in --summary --metrics --pidfile; do
	"$EXITMON" $opt "$T/tmp/dir/summary" -o /dev/null --duration 0.3 2> "$T/e3"; rc=$?
	check "$opt through nobody's directory link: exit 8 (got $rc)" [ $rc -eq 8 ]
	check "... nothing written in root's directory" intact
done
sed 's/^/# /' "$T/e3"

# Links of our own (root's) are followed as before.
ln -s "$T/own-real.csv" "$T/own.csv"
"$EXITMON" -f csv -o "$T/own.csv" --duration 0.3 2>/dev/null; rc=$?
check "our own link is followed (exit $rc)" [ $rc -eq 0 -a -s "$T/own-real.csv" ]
# Another user's regular file in a sticky dir (a planted hard link, say).
as_nobody sh -c "umask 0; touch '$T/tmp/theirs.csv'"
"$EXITMON" -o "$T/tmp/theirs.csv" --duration 0.3 2> "$T/e4"; rc=$?
check "another user's (writable) file in a sticky dir: exit 8 (got $rc)" \
	sh -c "[ $rc -eq 8 ] && grep -q \"another user's file\" '$T/e4'"
sed 's/^/# /' "$T/e4"

# On SIGHUP: the file rotated away, a link planted in its place.
start_mon "$T/hup.pid" "$T/hup.err" -f csv -o "$T/tmp/rot.csv"
"$tagged"; sleep 0.3
mv "$T/tmp/rot.csv" "$T/tmp/rot.csv.1"
as_nobody ln -s "$T/secret/victim" "$T/tmp/rot.csv"
kill -HUP $MON_PID; sleep 0.3
"$tagged"; sleep 0.3
kill -TERM $MON_PID; wait $MON_PID
check "SIGHUP onto a planted link: refused, says so" \
	grep -q "cannot reopen .*symbolic link owned by another user.*still writing to the file opened before" "$T/hup.err"
check "... the victim is untouched" intact
check "... both records in the old file" [ "$(grep -c "$TAG" "$T/tmp/rot.csv.1")" -eq 2 ]

# --- 3. the pid file is locked ------------------------------------------
start_mon "$T/one.pid" "$T/one.err" -o /dev/null
first=$MON_PID
"$EXITMON" --pidfile "$T/one.pid" -o /dev/null --duration 5 2> "$T/two.err"; rc=$?
check "second instance on a live pid file: exit 1 (got $rc)" [ $rc -eq 1 ]
cat "$T/two.err" | sed "s/^/# /"
check "... one line naming the holder" sh -c "[ \$(wc -l < '$T/two.err') -eq 1 ] && grep -q '(pid $first) holds the pid file' '$T/two.err'"
check "... the pid file still names the first" [ "$(cat "$T/one.pid")" = "$first" ]
check "... which still runs" kill -0 $first
kill -TERM $first; wait $first
check "the pid file goes with the first" [ ! -e "$T/one.pid" ]

# --- 4. closed standard error never becomes the data file ----------------
"$EXITMON" -f csv -o "$T/fd.csv" --duration 0.5 --stats 0.1 2>&-; rc=$?
check "2>&-: exit 0 (got $rc)" [ $rc -eq 0 ]
check "2>&-: no diagnostics in the CSV" sh -c "! grep -q 'exitmon: ' '$T/fd.csv'"
"$EXITMON" -f csv -o "$T/fd1.csv" --duration 0.3 <&- >&- 2>&-
check "<&- >&- 2>&-: only CSV" sh -c "[ -s '$T/fd1.csv' ] && ! grep -q 'exitmon: ' '$T/fd1.csv'"

# --- 5. one file named twice (device and inode, not spelling) ------------
printf 'keep\n' > "$T/a.csv"; cp "$T/a.csv" "$T/a.orig"
(cd "$T" && "$EXITMON" -o ./a.csv --capture a.csv --duration 0.3 2> "$T/e5"); rc=$?
check "-o ./a.csv --capture a.csv: exit 2 (got $rc)" [ $rc -eq 2 ]
check "... a.csv untouched" cmp -s "$T/a.csv" "$T/a.orig"
(cd "$T" && "$EXITMON" -o ./new.csv --capture new.csv --duration 0.3 2>/dev/null); rc=$?
check "the same new file twice: exit 2 (got $rc), nothing left" [ $rc -eq 2 -a ! -e "$T/new.csv" ]
"$EXITMON" --capture "$T/c.pcap" -o /dev/null --duration 0.3 2>/dev/null
cp "$T/c.pcap" "$T/c.orig"
(cd "$T" && "$EXITMON" --replay c.pcap -o ./c.pcap 2>/dev/null); rc=$?
check "--replay c.pcap -o ./c.pcap: exit 2 (got $rc), capture untouched" \
	sh -c "[ $rc -eq 2 ] && cmp -s '$T/c.pcap' '$T/c.orig'"
(cd "$T" && "$EXITMON" --replay c.pcap --summary ./c.pcap 2>/dev/null); rc=$?
check "--replay c.pcap --summary ./c.pcap: exit 2 (got $rc)" [ $rc -eq 2 ]

# --- 6. --user: every output checked at start-up, as that user -----------
mkdir -m 755 "$T/rootdir"
t0=$(date +%s%N)
"$EXITMON" --user nobody -o "$T/tmp/u.csv" --summary "$T/rootdir/u.sum" \
	--duration 5 2> "$T/e6"; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "--user nobody, summary in root's dir: exit 8 at start-up (got $rc, ${ms} ms)" [ $rc -eq 8 -a $ms -lt 3000 ]
check "... says why, as whom" grep -q "as uid 65534: Permission denied" "$T/e6"
check "... and leaves no records file" [ ! -e "$T/tmp/u.csv" ]
"$EXITMON" --user nobody -o "$T/rootdir/u.csv" --duration 5 2> "$T/e7"; rc=$?
check "--user nobody, records in root's dir: exit 8 at start-up (got $rc)" [ $rc -eq 8 ]
check "... with the reason" grep -q "Permission denied" "$T/e7"

mkdir -m 755 "$T/ud" && chown nobody "$T/ud"
start_mon "$T/tmp/ud.pid" "$T/ud.err" --user nobody -f csv -o "$T/ud/x.csv" \
	--summary "$T/ud/x.sum"
"$tagged"; sleep 0.3
chmod 555 "$T/ud"; mv "$T/ud/x.csv" "$T/ud/x.csv.1"
kill -HUP $MON_PID; sleep 0.3
"$tagged"; sleep 0.3
kill -TERM $MON_PID; wait $MON_PID; rc=$?
check "failed reopen: says so, with the reason" \
	grep -q "cannot reopen .*Permission denied; still writing to the file opened before" "$T/ud.err"
check "... and both records reach the old file" [ "$(grep -c "$TAG" "$T/ud/x.csv.1")" -eq 2 ]
check "summary in a directory made read-only: exit 8 (got $rc), with errno" \
	sh -c "[ $rc -eq 8 ] && grep -q 'cannot write summary .*: Permission denied' '$T/ud.err'"
chmod 755 "$T/ud"

# --- 7. modes ------------------------------------------------------------
mode() { stat -c %a "$1"; }
(umask 022; start_mon "$T/m.pid" "$T/m.err" -f csv -o "$T/m.csv" --capture "$T/m.pcap" \
	--summary "$T/m.sum" --metrics "$T/m.prom"
 pmode=$(mode "$T/m.pid"); "$tagged"; sleep 0.2; kill -TERM $MON_PID; wait $MON_PID
 echo "$pmode" > "$T/m.pmode")
check "umask 022: records 640 ($(mode "$T/m.csv"))" [ "$(mode "$T/m.csv")" = 640 ]
check "umask 022: capture 640 ($(mode "$T/m.pcap"))" [ "$(mode "$T/m.pcap")" = 640 ]
check "umask 022: summary 644 ($(mode "$T/m.sum"))" [ "$(mode "$T/m.sum")" = 644 ]
check "umask 022: metrics 644 ($(mode "$T/m.prom"))" [ "$(mode "$T/m.prom")" = 644 ]
check "umask 022: pid file 644 ($(cat "$T/m.pmode"))" [ "$(cat "$T/m.pmode")" = 644 ]
(umask 077; "$EXITMON" -f csv -o "$T/p.csv" --summary "$T/p.sum" --metrics "$T/p.prom" \
	--duration 0.3 2>/dev/null)
check "umask 077: records 600, summary 600, metrics 600" \
	[ "$(mode "$T/p.csv")$(mode "$T/p.sum")$(mode "$T/p.prom")" = 600600600 ]
chmod 600 "$T/m.sum" "$T/m.csv"
(umask 022; "$EXITMON" -f csv -o "$T/m.csv" --summary "$T/m.sum" --duration 0.3 2>/dev/null)
check "an existing 0600 summary is replaced, still 0600 ($(mode "$T/m.sum"))" [ "$(mode "$T/m.sum")" = 600 ]
check "an existing 0600 records file stays 0600 ($(mode "$T/m.csv"))" [ "$(mode "$T/m.csv")" = 600 ]
done_testing
