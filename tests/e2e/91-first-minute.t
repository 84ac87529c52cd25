#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The first minute of a new user: `make demo` on a machine without the
# libraries says what it installs and why before anything else (no
# pkg-config noise from reading the Makefile), and the demo ends with where
# its plot is and what the headline numbers say.
. "$(dirname "$0")/lib.sh"

# A pkg-config that knows no package, as on a fresh machine, and as loud.
mkdir -p "$T/bin"
cat >"$T/bin/pkg-config" <<'EOF'
#!/bin/sh
echo "Package libnl-3.0 was not found in the pkg-config search path." >&2
exit 1
EOF
chmod 755 "$T/bin/pkg-config"
# (not the make running this test: its jobserver and level are not ours)
fresh() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$T/bin:$PATH" \
		make -C "$TOP" --no-print-directory "$@"
}

fresh -n deps >"$T/deps.out" 2>"$T/deps.err"
check "make deps: reading the Makefile is quiet without the libraries" \
	eval '! grep -q "pkg-config search path" "$T/deps.err" "$T/deps.out"'
check "make deps: nothing on stderr" [ ! -s "$T/deps.err" ]
# Every goal a user may run first on a new machine installs its own list
# before it builds (a goal that read the libraries first stopped at them).
for g in demo:demo test:test bench:bench deb:deb test-kernels:kernels \
	test-systemd:systemd test-fleet:fleet; do
	fresh -n "${g%%:*}" >"$T/g.out" 2>"$T/g.err"
	check "make -n ${g%%:*}: no pkg-config noise" \
		eval '! grep -q "pkg-config search path" "$T/g.err" "$T/g.out"'
	check "make -n ${g%%:*}: tools/deps.sh ${g#*:} is the first thing it runs" \
		[ "$(head -n1 "$T/g.out")" = "tools/deps.sh ${g#*:}" ]
done
fresh all >"$T/all.out" 2>"$T/all.err"
check "make all without the libraries fails" [ $? -ne 0 ]
check "... in one line" [ "$(wc -l <"$T/all.err")" -eq 1 ]
check "... that names them and says to run make deps" \
	grep -q 'libnl-3.0.*json-c.*make deps' "$T/all.err"
diag "$(cat "$T/all.err")"

# deps.sh: what is missing and why, before apt-get runs (shims for both).
cat >"$T/bin/dpkg-query" <<'EOF'
#!/bin/sh
case "$*" in *" libnl-3-dev"|*" gnuplot-nox") exit 1 ;; esac
exec /usr/bin/dpkg-query "$@"
EOF
# The apt-get shim notes each call and whether deps.sh had already said
# what it installs and why (its output so far is in d.out); it chatters
# as apt does, and fails when APT_FAIL is set.
cat >"$T/bin/apt-get" <<EOF
#!/bin/sh
said=no; grep -q '^deps:   for plots' "$T/d.out" 2>/dev/null && said=yes
echo "apt-get \$* said=\$said" >>"$T/apt.log"
echo "debconf: delaying package configuration, since apt-utils is not installed" >&2
[ -z "\$APT_FAIL" ] || { echo "E: Unable to locate package \$APT_FAIL" >&2; exit 100; }
EOF
chmod 755 "$T/bin/dpkg-query" "$T/bin/apt-get"
EXITMON_DEPS_RECORD=$T/record PATH="$T/bin:$PATH" "$TOP/tools/deps.sh" >"$T/d.out" 2>&1
check "deps.sh as root exits 0" [ $? -eq 0 ]
check "deps.sh says first what it installs" grep -q '^deps: installing [0-9]* missing' <(head -n1 "$T/d.out")
check "... the library, for the build" grep -q '^deps:   to build.*: .*libnl-3-dev' "$T/d.out"
check "... gnuplot, for plots" grep -q '^deps:   for plots.*: .*gnuplot-nox' "$T/d.out"
check "... before apt-get runs" eval '[ -s "$T/apt.log" ] && ! grep -q "said=no" "$T/apt.log"'
check "... and installs them" grep -q '^apt-get install .*libnl-3-dev.*gnuplot-nox' "$T/apt.log"
check "... without apt's chatter" eval '! grep -q debconf "$T/d.out"'
check "... and says so at the end" grep -q '^deps: installed .*libnl-3-dev' <(tail -n1 "$T/d.out")
sed "s/^/# /" "$T/d.out"
APT_FAIL=libnl-3-dev EXITMON_DEPS_RECORD=$T/record PATH="$T/bin:$PATH" "$TOP/tools/deps.sh" >"$T/e.out" 2>"$T/e.err"
check "apt-get failing: deps.sh exits 1" [ $? -eq 1 ]
check "... showing apt's own words" grep -q '^E: Unable to locate package libnl-3-dev' "$T/e.err"
check "... and its own line last" grep -q '^deps: apt-get update failed' <(tail -n1 "$T/e.err")
if command -v setpriv >/dev/null; then
	chmod 666 "$T/apt.log"; apt_calls=$(wc -l <"$T/apt.log")
	# A copy: the checkout may be in a directory only root can enter.
	install -m 755 "$TOP/tools/deps.sh" "$T/deps.sh"
	setpriv --reuid=65534 --regid=65534 --clear-groups env PATH="$T/bin:$PATH" \
		"$T/deps.sh" >"$T/u.out" 2>&1
	check "deps.sh as a user exits 1" [ $? -eq 1 ]
	check "... with the reasons and the command to run" \
		grep -q '^deps: run as root: apt-get install -y --no-install-recommends .*libnl-3-dev' "$T/u.out"
	check "... and runs nothing" eval '[ "$(wc -l <"$T/apt.log")" -eq "$apt_calls" ]'
fi

# The demo's ending, from a result of known figures: an exitsweep that
# writes them.  Excluded cells (met a foreign listener) do not count.
mkdir -p "$T/known"
python3 - "$T/known/r.json" <<'PY'
import json, sys
def c(sec, key, v, sig=True, exc=False):
    r = {"section": sec, "key": key, "metric": "ts_ns_per_exit", "unit": "ns",
         "value": None if exc else v, "significant": None if exc else sig}
    if exc: r["excluded"] = True
    return r
summ = [c("cost:tgid", "rate=1000 listener=none", 240), c("cost:tgid", "rate=max listener=none", 340),
        c("cost:tgid", "rate=4000 listener=none", 9999, exc=True),
        c("cost:tgid", "rate=1000 listener=batch", -800, sig=False),
        c("cost:listener:batch", "rate=1000 tgid=on", 2600), c("cost:listener:batch", "rate=max tgid=off", 3200),
        {"section": "means", "metric": "cpu_us_per_exit", "value": 37.2},
        {"section": "means", "metric": "cpu_us_per_exit", "value": 69.4}]
loss = [{"expected": 10000, "lost": 0}, {"expected": 20000, "lost": 3}]
json.dump({"format": "exitsweep/1", "summary": summ, "loss": loss}, open(sys.argv[1], "w"))
PY
printf '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#08f"/></svg>\n' \
	>"$T/known/r.svg"
cat >"$T/known/exitsweep" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in --plot) cp "$T/known/r.svg" "\$2"; shift ;; --json) cp "$T/known/r.json" "\$2"; shift ;; esac
	shift
done
echo "(the report)"
EOF
chmod 755 "$T/known/exitsweep"
mkdir -p "$T/k"
EXITSWEEP=$T/known/exitsweep "$TOP/tools/demo.sh" "$T/k" >"$T/k.out" 2>&1
check "demo with known figures exits 0" [ $? -eq 0 ]
check "... says where the plot is" grep -qx "Plot: $T/k/demo.svg and $T/k/demo.png" "$T/k.out"
check "... its PNG is one" eval '[ "$(head -c4 "$T/k/demo.png" | tail -c3)" = PNG ]'
check "... ends with the headline in words" grep -qxF "Headline: tgid accumulation +240 to +340 ns per thread exit; a listener +2.6 to +3.2 us per exit (CPU time inside the kernel's taskstats_exit(), timed by exitprobe, against 37-69 us for a whole create+exit); 3 of 30000 records lost by exitmon." <(tail -n1 "$T/k.out")
tail -n3 "$T/k.out" | sed "s/^/# /"
# A sweep that fails before writing anything: the earlier run's demo.json
# is not read as this one's.
printf '#!/bin/sh\necho "exitsweep: cannot run" >&2\nexit 1\n' >"$T/known/failing"
chmod 755 "$T/known/failing"
EXITSWEEP=$T/known/failing "$TOP/tools/demo.sh" "$T/k" >"$T/f.out" 2>&1
check "a failed sweep: its status" [ $? -eq 1 ]
check "... and no headline from the earlier demo.json" eval '! grep -q "^Headline" "$T/f.out"'
check "... but says it wrote nothing" grep -q '^demo: exitsweep wrote no results (status 1)' "$T/f.out"
command -v rsvg-convert >/dev/null || nok "rsvg-convert is missing (tools/deps.sh installs librsvg2-bin)"

# And for real: a tiny sweep through the same script.
if [ "$(id -u)" -eq 0 ] && have_taskstats; then
	mkdir -p "$T/real"
	"$TOP/tools/demo.sh" "$T/real" --rates max --runs 2 --count 300 -q >"$T/real.out" 2>&1
	check "demo.sh with a tiny real sweep exits 0" [ $? -eq 0 ]
	check "... draws demo.svg and demo.png" eval '[ -s "$T/real/demo.svg" ] && [ -s "$T/real/demo.png" ]'
	check "... and ends with its headline" \
		grep -qE '^Headline: tgid accumulation.*; [0-9]+ of 1200 records lost by exitmon\.$' <(tail -n1 "$T/real.out")
	diag "$(tail -n1 "$T/real.out")"
fi
done_testing
