#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/kernel-run itself, against one cached kernel (EXITMON_TEST_KERNEL,
# default 6.1; fetched by kernel-fetch if not cached): the command's stdout
# and stderr apart, its exit status, its files (binary ones too) back in
# --out, arguments with spaces and quotes intact, --add, --env, the guest's
# environment, the instruction clock (--clock instructions: exported, a
# loop's CPU time its instruction count, twice the same; --smp 2 on a kernel
# that can, the refusal where it cannot), the distinct status 125 for a
# kernel that does not start, a panic and a timeout, and 2 for what the
# caller got wrong (said before anything is fetched).  Skips (77) without
# QEMU or a kernel.
. "$(dirname "$0")/../e2e/lib.sh"

KR=$TOP/tools/kernel-run
SERIES=${EXITMON_TEST_KERNEL:-6.1}

command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64"
for p in exitmon exitgen exitsweep exitstat exitprobe; do
	[ -x "$TOP/$p" ] || { echo "Bail out! $TOP/$p not built"; exit 1; }
done
KERNEL=$("$TOP/tools/kernel-fetch" "$SERIES" 2>"$T/fetch.err") ||
	skip_all "cannot fetch a $SERIES kernel: $(tail -n1 "$T/fetch.err")"
diag "kernel $KERNEL"

# run NAME ARGS...: kernel-run ARGS with --out $T/NAME; $T/NAME.{out,err,rc}
run() {
	local name=$1; shift
	mkdir -p "$T/$name"
	"$KR" -q --kernel "$KERNEL" --out "$T/$name" "$@" >"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
}
rc() { cat "$T/$1.rc"; }
show() { sed 's/^/# /' "$T/$1.err"; }

# --- one boot: status, streams, files, quoting, --add, --env, environment ---
head -c 300000 /dev/urandom >"$T/blob"	# every byte value: \r, \n, NUL, 0xff ...
cat >"$T/guest.sh" <<'EOF'
#!/bin/sh
# argv as received, one per line between brackets
for a in "$@"; do printf '[%s]\n' "$a"; done >args
echo "to stdout"
echo "to stderr" >&2
cp /usr/local/share/blob blob.copy
mkdir -p sub/dir && echo deep >sub/dir/file
echo "$EXITMON_EMULATED" >emulated
echo "$RIG_TEST" >env
date +%s >now
pwd >pwd
id -u >uid
hostname >hostname
exit 3
EOF
chmod 755 "$T/guest.sh"
before=$(date +%s)
run main --add "$T/guest.sh" --add "$T/blob:/usr/local/share/blob" --env "RIG_TEST=a b 'c'" \
	-- guest.sh "two words" "it's" '$HOME' '' '*' 'back\slash' 'semi;colon'
check "command's exit status comes back (3)" [ "$(rc main)" = 3 ]
[ "$(rc main)" = 3 ] || show main
check "stdout comes back on stdout, alone" [ "$(cat "$T/main.out")" = "to stdout" ]
check "stderr comes back on stderr, alone" [ "$(cat "$T/main.err")" = "to stderr" ]
printf '[%s]\n' "two words" "it's" '$HOME' '' '*' 'back\slash' 'semi;colon' >"$T/args.want"
check "arguments with spaces, quotes, \$, * and empty ones arrive intact" cmp -s "$T/args.want" "$T/main/args"
check "a binary file made in the guest comes back byte for byte" cmp -s "$T/blob" "$T/main/blob.copy"
check "subdirectories of the work directory come back" [ "$(cat "$T/main/sub/dir/file" 2>/dev/null)" = deep ]
check "--env reaches the command" [ "$(cat "$T/main/env" 2>/dev/null)" = "a b 'c'" ]
check "the command runs as root in /out" [ "$(cat "$T/main/uid" "$T/main/pwd" 2>/dev/null | tr '\n' ' ')" = "0 /out " ]
check "the guest has a hostname" [ "$(cat "$T/main/hostname" 2>/dev/null)" = kernel-run-guest ]
now=$(cat "$T/main/now" 2>/dev/null || echo 0)
check "the guest's clock is the host's (within 120 s)" [ $((now - before)) -ge -5 -a $((now - before)) -le 120 ]
if [ -e /sys/module/kvm_pvm ] || [ ! -w /dev/kvm ]; then
	check "under TCG the command sees EXITMON_EMULATED=tcg" [ "$(cat "$T/main/emulated" 2>/dev/null)" = tcg ]
fi

# --- status 0 and a shell pipeline --------------------------------------------
run zero -- sh -c 'uname -r; grep -c . /proc/mounts >/dev/null'
check "status 0 passes through" [ "$(rc zero)" = 0 ]
check "uname -r in the guest is the kernel's release" grep -q cloud-amd64 "$T/zero.out"

# --- the distinct status: no kernel, a kernel that does not start, a panic, a timeout
"$KR" -q --kernel /etc/hostname -- true >"$T/nokernel.out" 2>"$T/nokernel.err"
r=$?
check "a file that is no bzImage: status 2 (the caller's mistake) and a one-line message" \
	[ $r = 2 -a "$(wc -l <"$T/nokernel.err")" = 1 -a -n "$(grep '^kernel-run: .*not an x86 bzImage' "$T/nokernel.err")" ]
# What the caller got wrong is said at once, with status 2, before anything
# is fetched or made: a missing kernel, --opt=value read as --opt value, a
# bad --mem, a missing --add (a series not cached would be fetched first),
# and no --out directory left behind.
"$KR" -q --kernel /nonexistent -- true 2>"$T/nofile.err"; r=$?
check "a missing kernel file: status 2 (got $r), named" \
	[ $r = 2 -a -n "$(grep "^kernel-run: --kernel '/nonexistent' is no file" "$T/nofile.err")" ]
"$KR" -q --kernel=/nonexistent -- true 2>"$T/eq.err"; r=$?
check "--kernel=VALUE is --kernel VALUE (status $r, the value named)" \
	[ $r = 2 -a -n "$(grep "^kernel-run: --kernel '/nonexistent' is no file" "$T/eq.err")" ]
"$KR" -q --mem lots --kernel "$SERIES" -- true 2>"$T/mem.err"; r=$?
check "--mem lots: status 2 (got $r)" [ $r = 2 -a -n "$(grep "^kernel-run: --mem 'lots'" "$T/mem.err")" ]
"$KR" -q --add /nope --kernel 99.9 -- true 2>"$T/add.err"; r=$?
check "--add of nothing: status 2 (got $r), before kernel 99.9 is fetched" \
	[ $r = 2 -a -n "$(grep '^kernel-run: --add: no such file' "$T/add.err")" -a -z "$(grep -i fetch "$T/add.err")" ]
"$KR" -q --out "$T/never" --kernel /nonexistent -- true 2>/dev/null
check "a refused run makes no --out directory" [ ! -e "$T/never" ]

head -c 2000000 "$KERNEL" >"$T/truncated.bzImage"
"$KR" -q --timeout 60 --kernel "$T/truncated.bzImage" -- true >"$T/trunc.out" 2>"$T/trunc.err"
r=$?
check "a truncated bzImage that cannot start: status 125, said so" \
	[ $r = 125 -a -n "$(grep '^kernel-run: .*did not start' "$T/trunc.err")" ]
[ $r = 125 ] || show trunc

run panic -- sh -c 'echo c >/proc/sysrq-trigger'
check "a guest kernel panic: status 125, said so" [ "$(rc panic)" = 125 -a -n "$(grep -e '^kernel-run: .*panicked' "$T/panic.err")" ]
check "the panic's console lines are shown" grep -q 'Kernel panic' "$T/panic.err"

run noinit --cmdline rdinit=/nonexistent -- true
check "a kernel that panics while booting: booted again once, then status 125" \
	[ "$(rc noinit)" = 125 -a "$(grep -c 'booting again' "$T/noinit.err")" = 1 ]

run slow --timeout 3 -- sleep 600
check "a timeout: status 125, said so" [ "$(rc slow)" = 125 -a -n "$(grep '^kernel-run: timed out' "$T/slow.err")" ]

# --- the instruction clock: --clock instructions ---------------------------------
"$KR" --clock instructions --accel kvm -- true >/dev/null 2>"$T/clockkvm.err"
r=$?
check "--clock instructions with --accel kvm: status 2, one line saying why" \
	[ $r = 2 -a "$(wc -l <"$T/clockkvm.err")" = 1 -a -n "$(grep 'needs TCG' "$T/clockkvm.err")" ]

# spin N R: R times N turns of "dec; jnz" (2N instructions), each followed by
# the thread's CPU time for them in ns.  Under the clock that is 2N plus the
# timer interrupts it took, the same each time; under --clock time it is
# whatever the host gave.
cat >"$T/spin.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static long long cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}
int main(int argc, char **argv)
{
	for (int r = 0; argc == 3 && r < atoi(argv[2]); r++) {
		long n = atol(argv[1]);
		long long a = cpu_ns();
		__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
		printf("%lld\n", cpu_ns() - a);
	}
	return 0;
}
EOF
# clock_boot NAME SMP KERNEL: one boot under the clock; checks what it saw.
# The clock is QEMU's, one for all vCPUs: while the loop runs, what another
# vCPU executes counts too.  So first a sleep (free: idle time is skipped)
# lets the boot's leftover work on the other vCPU end.
clock_boot() {
	local name=$1 smp=$2 kernel=$3 a b r
	mkdir -p "$T/$name"
	"$KR" -q --kernel "$kernel" --clock instructions --smp "$smp" --out "$T/$name" --add "$T/spin" -- \
		sh -c 'echo "$EXITMON_CLOCK $EXITMON_EMULATED" >env; grep -c ^processor /proc/cpuinfo >cpus
			sleep 2; spin 50000000 2 >spin' >"$T/$name.out" 2>"$T/$name.err"
	r=$?
	check "$name: the guest boots with --smp $smp, all CPUs up" [ $r = 0 -a "$(cat "$T/$name/cpus" 2>/dev/null)" = "$smp" ]
	[ $r = 0 ] || show "$name"
	check "$name: the command sees EXITMON_CLOCK=instructions (and EXITMON_EMULATED=tcg)" \
		[ "$(cat "$T/$name/env" 2>/dev/null)" = "instructions tcg" ]
	a=$(sed -n 1p "$T/$name/spin" 2>/dev/null); b=$(sed -n 2p "$T/$name/spin" 2>/dev/null)
	diag "$name: 100000000 instructions took $a and $b ns of CPU time"
	check "$name: 100M instructions take 100M ns of CPU time (within 1%)" in_range "$a" 99000000 101000000
	check "$name: the same loop twice in one boot: CPU times within 0.5%" \
		eval '[ -n "$b" ] && in_range "$b" 0 999999999 && [ $(( (a > b ? a - b : b - a) * 200 )) -le $((a + b)) ]'
}
if ! cc -O2 -static -o "$T/spin" "$T/spin.c" 2>"$T/cc.err"; then
	ok "# SKIP the instruction clock's boots: no static C build here ($(head -n1 "$T/cc.err"))"
else
	# Kernels before 6.5 cannot bring up a second CPU under QEMU < 8.0's
	# icount: that is refused, in one line, before booting.
	"$KR" --kernel "$KERNEL" --clock instructions --smp 2 -- true >/dev/null 2>"$T/clocksmp.err"
	if [ $? = 2 ]; then
		check "--clock instructions --smp 2 refused for this kernel: one line naming it and --smp 1" \
			[ "$(wc -l <"$T/clocksmp.err")" = 1 -a -n "$(grep -e 'kernel .*before 6\.5.*use --smp 1' "$T/clocksmp.err")" ]
		clock_boot clock1 1 "$KERNEL"
		NEWEST=$("$TOP/tools/kernel-fetch" 7 2>"$T/fetch7.err") || NEWEST=""
		if [ -n "$NEWEST" ]; then
			clock_boot clock2 2 "$NEWEST"
		else
			ok "# SKIP --smp 2 under the clock: no 7.x kernel ($(tail -n1 "$T/fetch7.err"))"
		fi
	else
		clock_boot clock2 2 "$KERNEL"
	fi
fi

# --- usage errors: status 2, before any boot -----------------------------------
"$KR" --kernel "$KERNEL" >/dev/null 2>"$T/u.err"
check "no command: status 2" [ $? = 2 ]
"$KR" --bogus -- true >/dev/null 2>"$T/u.err"
check "an unknown option: status 2, one line" [ $? = 2 -a "$(wc -l <"$T/u.err")" = 1 ]

done_testing
