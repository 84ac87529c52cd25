# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the end-to-end tests (sourced, POSIX sh + bash-isms ok).
# TAP output; exit 77 only when the kernel interface is truly unavailable.

TOP=${EXITMON_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
EXITMON=$TOP/exitmon
EXITGEN=$TOP/exitgen
EXITPROBE=$TOP/exitprobe
# The run id of the replay goldens (tests/data/real-*.csv, .jsonl): a
# replay gets a new random one unless --run-id fixes it.
GOLDEN_RUN=0123456789abcdef0123456789abcdef
# What begins a CSV record: its run, seq and time_ns (exitmon(8), "Run, seq
# and time"; empty in a record that has none): grep "^${ROW}pid," finds
# the pid rows.
ROW='[0-9a-f]*,[0-9]*,[0-9]*,'
T=$(mktemp -d /tmp/exitmon-test.XXXXXX)
chmod 755 "$T"
_n=0
_fail=0
_pids=""

cleanup() {
	for p in $_pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ok()   { _n=$((_n + 1)); echo "ok $_n - $*"; }
nok()  { _n=$((_n + 1)); _fail=$((_fail + 1)); echo "not ok $_n - $*"; }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}
diag() { echo "# $*"; }
# in_range VALUE LO HI: VALUE is an integer from LO to HI (for check, which
# runs one command: `check D [ a ] && [ b ]` would test only the first).
in_range() { [ -n "$1" ] && [ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ]; }
done_testing() { echo "1..$_n"; [ "$_fail" -eq 0 ]; exit $?; }

skip_all() { echo "1..0 # SKIP $*"; exit 77; }

# have_taskstats: the kernel has the TASKSTATS generic netlink family (asked
# of the genl controller, CTRL_CMD_GETFAMILY, the way exitmon resolves it).
have_taskstats() {
	python3 - <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)  # NETLINK_GENERIC
name = b"TASKSTATS\0"
attr = struct.pack("HH", 4 + len(name), 2) + name          # CTRL_ATTR_FAMILY_NAME
attr += b"\0" * (-len(attr) % 4)
body = struct.pack("BBH", 3, 1, 0) + attr                  # CTRL_CMD_GETFAMILY
s.send(struct.pack("IHHII", 16 + len(body), 16, 1, 1, 0) + body)  # GENL_ID_CTRL, NLM_F_REQUEST
_, kind = struct.unpack("IH", s.recv(65536)[:6])
sys.exit(0 if kind == 16 else 1)                           # 2 = NLMSG_ERROR: no family
PY
}

need_taskstats() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root (CAP_NET_ADMIN)"
	[ -x "$EXITMON" ] || { echo "Bail out! $EXITMON not built"; exit 1; }
	have_taskstats || skip_all "the kernel has no TASKSTATS family (CONFIG_TASKSTATS)"
}

# kv FILE KEY: value of KEY in a key=value file
kv() { sed -n "s/^$2=//p" "$1"; }

# wait_file FILE [SECONDS]: wait until FILE exists
wait_file() {
	i=0; lim=$(( ${2:-10} * 20 ))
	while [ ! -s "$1" ]; do
		i=$((i + 1)); [ $i -gt $lim ] && return 1
		sleep 0.05
	done
}

# small_disk DIR: a 64 KiB tmpfs mounted at DIR, unmounted at exit; fails
# where no tmpfs can be mounted.
small_disk() {
	mkdir -p "$1" && mount -t tmpfs -o size=64k tmpfs "$1" 2>/dev/null ||
		return 1
	_mounts="${_mounts:-} $1"
	trap 'for m in $_mounts; do umount "$m" 2>/dev/null; done; cleanup' EXIT
}

# disk_full_episode DIR ERRFILE [--lose] CMD...: fill DIR, run CMD until the
# collector's ERRFILE says a write failed for lack of space, free the
# space, run CMD until it says writing works again (at most 10 s each).
# A busy machine delivers records late: wait for what the collector says,
# never for a fixed time.
disk_full_episode() {
	_dir=$1 _err=$2; shift 2
	_lose=0
	if [ "$1" = --lose ]; then _lose=1; shift; fi
	dd if=/dev/zero of="$_dir/filler" bs=1k 2>/dev/null
	_i=0
	until grep -q "No space left" "$_err" || [ $_i -ge 40 ]; do
		"$@"; sleep 0.25; _i=$((_i + 1))
	done
	# A line begun is finished once there is room again, so the first
	# failed write may lose no record: with --lose, more exits until the
	# stats line (SIGUSR1 to $MON_PID) counts one unwritten.
	_i=0
	while [ $_lose = 1 ] && [ $_i -lt 40 ] &&
	      ! grep -q ' unwritten=[1-9]' "$_err"; do
		"$@"; kill -USR1 "$MON_PID"; sleep 0.25; _i=$((_i + 1))
	done
	rm -f "$_dir/filler"
	_i=0
	until grep -q "works again" "$_err" || [ $_i -ge 40 ]; do
		"$@"; sleep 0.25; _i=$((_i + 1))
	done
}

# start_exitmon NAME ARGS...: start a collector, wait until it is ready.
# Sets MON_PID; files $T/NAME.{out,sum,pid,err}.
start_exitmon() {
	name=$1; shift
	"$EXITMON" --pidfile "$T/$name.pid" --summary "$T/$name.sum" \
		-o "$T/$name.out" "$@" 2>"$T/$name.err" &
	MON_PID=$!
	_pids="$_pids $MON_PID"
	if ! wait_file "$T/$name.pid" 10; then
		diag "exitmon did not become ready:"; sed 's/^/# /' "$T/$name.err"
		return 1
	fi
}

# stop_exitmon: SIGTERM and wait for the summary.
stop_exitmon() {
	kill -TERM "$MON_PID" 2>/dev/null
	wait "$MON_PID"
}

# start_ref NAME: the reference listener (build/bench/floor) with a 64 MiB
# buffer, registered for every CPU like exitmon; waits until it is.  It
# writes one line per datagram to $T/NAME.ref ("pid btime elapsed_us comm",
# comm in hex), its totals to $T/NAME.refsum at stop_ref.  Taskstats sends
# every exit on the machine to every listener: run beside a collector, it
# shows what that collector was sent, however busy the machine is.
start_ref() {
	local floor=$TOP/build/bench/floor
	[ -x "$floor" ] || { echo "Bail out! $floor not built (make build/bench/floor)"; exit 1; }
	"$floor" $((64 << 20)) "$T/$1.ref" >"$T/$1.refsum" 2>"$T/$1.referr" &
	REF_PID=$!
	_pids="$_pids $REF_PID"
	wait_file "$T/$1.refsum" 10 || { diag "the reference listener did not start:"
		sed 's/^/# /' "$T/$1.referr"; return 1; }
}

# stop_ref: SIGTERM and wait for its totals (datagrams=N drops=N cpu_us=N).
stop_ref() {
	kill -TERM "$REF_PID" 2>/dev/null
	wait "$REF_PID"
}

# A copy of /bin/true whose name is the comm its exits carry.
# wait_fifo_reader PID: until process PID is blocked opening a FIFO for
# reading (its system call openat, x86-64's 257): a writer may then open
# the FIFO without waiting, as exitmon and exitgen do (a FIFO with no
# reader is refused at once, never waited on).  At most 5 s.
wait_fifo_reader() {
	local i
	for i in $(seq 100); do
		[ "$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)" = 257 ] && return 0
		sleep 0.05
	done
	return 1
}
tagbin() { cp /bin/true "$T/$1"; echo "$T/$1"; }

# man_examples PAGE: the commands of the EXAMPLES section (.Dl lines),
# with mdoc's escaped hyphens and backslashes turned back into plain text.
man_examples() {
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$1" | sed -n 's/^\.Dl //p' |
		sed -e 's/\\-/-/g' -e 's/\\e/\\/g'
}

# run_man_examples PAGE SECONDS: run every example of PAGE as printed, a
# shell line with the built programs first on PATH, in the current
# directory and for at most SECONDS; example N's output goes to exN.out and
# exN.err.  One check per example (it exits 0); MAN_EXAMPLES counts them.
run_man_examples() {
	local cmd rc
	MAN_EXAMPLES=0
	while IFS= read -r cmd; do
		MAN_EXAMPLES=$((MAN_EXAMPLES + 1))
		PATH="$TOP:$PATH" timeout "$2" bash -c "$cmd" </dev/null \
			>"ex$MAN_EXAMPLES.out" 2>"ex$MAN_EXAMPLES.err"; rc=$?
		check "example $MAN_EXAMPLES exits 0: $cmd (exit $rc)" [ $rc -eq 0 ]
		[ $rc -eq 0 ] || sed 's/^/# /' "ex$MAN_EXAMPLES.err"
	done < <(man_examples "$1")
}

# public_bin: copies of the programs in a directory any user can reach, for
# tests that run them as an unprivileged user (a checkout may sit in a
# directory only root can enter, as CI's fresh clone does).
public_bin() {
	mkdir -p "$T/bin" && chmod 755 "$T/bin"
	for p in exitmon exitgen exitsweep exitprobe; do
		[ -x "$TOP/$p" ] && cp "$TOP/$p" "$T/bin/"
	done
	echo "$T/bin"
}

# pace_explained SUMMARY RATE SLACK: whether exitgen's lateness figures
# account for a run being behind its schedule (saturated), printed.  Exit k's
# deadline is k/RATE, so the last reap comes no later than the last exit's
# deadline plus the worst lateness and the worst create-to-reap time
# (histogram buckets: 1.6%), give or take SLACK tasks (a batch released
# together, a deadline a worker held but never issued).
pace_explained() {
	python3 - "$@" <<'PY'
import sys
kv = dict(l.rstrip('\n').split('=', 1) for l in open(sys.argv[1]))
rate, slack_tasks = float(sys.argv[2]), int(sys.argv[3])
behind = float(kv['elapsed']) - int(kv['exits']) / rate
allow = (float(kv['late_max_us']) + float(kv['reap_max_us'])) * 1.02e-6 + slack_tasks / rate
print(f"{behind:.6f} s behind the schedule, lateness + reap allow {allow:.6f} s")
sys.exit(not (behind > 0 and behind <= allow))
PY
}
pace_explains() { pace_explained "$@" >/dev/null; }

# --- exitsweep's tests (40-46) ---

# need_exitsweep [PROGRAM...]: EXITSWEEP set; bail out unless it, exitgen
# and each PROGRAM are built.
need_exitsweep() {
	EXITSWEEP=$TOP/exitsweep
	for p in "$EXITSWEEP" "$EXITGEN" "$@"; do
		[ -x "$p" ] || { echo "Bail out! $p not built"; exit 1; }
	done
}

# delayacct_now: DA is kernel.task_delayacct's file, da0 its value now.
delayacct_now() {
	DA=/proc/sys/kernel/task_delayacct
	da0=$(cat $DA 2>/dev/null)
}

# need_writable_delayacct: delayacct_now, and skip unless DA can be written.
need_writable_delayacct() {
	delayacct_now
	[ -w $DA ] || skip_all "no writable $DA (kernel without delay accounting?)"
}

# sweep_tmpdir: TMPDIR a scratch directory any user may write in.
sweep_tmpdir() {
	mkdir -p "$T/tmp" && chmod 1777 "$T/tmp"
	export TMPDIR=$T/tmp
}
