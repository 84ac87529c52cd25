#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What each goal installs, and the way back to a new machine:
#  (a) tools/deps-lint: clean on this tree; failing, and saying where and
#      what to add, when a tier's test looks up a tool its deps step does
#      not install (main at 46b94dd: busybox, only the kernel tier's), when
#      a tools/ script a test runs does, when the table has no package for
#      a command or the wrong one, and for a lookup it cannot read;
#  (b) tools/deps.sh --list GOAL: every goal's list holds make test's, or
#      is make test's building part;
#  (c) tools/deps.sh --remove purges what its record names and nothing
#      more, refuses when apt would take a package it never installed, and
#      removes the project's caches (apt-get shimmed: nothing is purged here).
. "$(dirname "$0")/lib.sh"

# ---- (a) the lint ------------------------------------------------------
check "the tree: every lookup is installed by its tier" "$TOP/tools/deps-lint"

# fails NAME WHAT [ARGS]: the lint of tree NAME fails, naming WHAT
fails() {
	local d=$1 what=$2 out; shift 2
	out=$("$T/$d/tools/deps-lint" "$@" 2>&1) && { nok "$d: the lint fails"; return; }
	ok "$d: the lint fails"
	check "$d: it says $what" grep -qF -- "$what" <<<"$out"
}
# mini NAME: a tree of this deps.sh and deps-lint and one e2e test that
# looks up valgrind (on make test's list), clean as made.
mini() {
	local d=$T/$1
	mkdir -p "$d/tools" "$d/tests/e2e"
	cp "$TOP/tools/deps-lint" "$TOP/tools/deps.sh" "$d/tools/"
	printf '#!/bin/sh\ncommand -v valgrind >/dev/null || exit 1\n' >"$d/tests/e2e/10-x.t"
}
mini clean
check "a small clean tree passes" "$T/clean/tools/deps-lint"

# main at 46b94dd: make test's list had no busybox; the listener-cost
# test looked it up (and skipped on a new machine).
sed '/^tests|for the listener-cost test/d' "$TOP/tools/deps.sh" >"$T/deps-46b94dd.sh"
chmod 755 "$T/deps-46b94dd.sh"
out=$("$TOP/tools/deps-lint" --deps "$T/deps-46b94dd.sh" 2>&1)
check "46b94dd's lists: the lint fails" [ $? -ne 0 ]
check "... at 52-listener-cost.t's lookup of busybox" \
	grep -q '^deps-lint: tests/e2e/52-listener-cost.t:[0-9]*: looks up busybox, but `make test` does not install busybox-static' <<<"$out"

mini script
printf '#!/bin/sh\n"$TOP/tools/helper" run\n' >"$T/script/tests/e2e/20-y.t"
h='#!/bin/sh\n# command -v qemu-img in a comment is no lookup\ncommand -v debootstrap >/dev/null\n' # deps-lint: planted
printf "$h" >"$T/script/tools/helper"
fails script 'tools/helper:3: looks up debootstrap, but `make test` does not install debootstrap'
check "script: a comment's lookup is not counted" \
	eval '! "$T/script/tools/deps-lint" 2>&1 | grep -q qemu-img'

mini unknown
printf '#!/bin/sh\ncommand -v frobnicate || exit 1\n' >"$T/unknown/tests/e2e/20-y.t" # deps-lint: planted
fails unknown "tests/e2e/20-y.t:2: looks up frobnicate, which tools/deps-lint's table does not know"

mini loop
h='#!/bin/sh\nfor c in valgrind frobnicate; do\n\tcommand -v "$c" >/dev/null\ndone\n' # deps-lint: planted
printf "$h" >"$T/loop/tests/e2e/20-y.t"
fails loop "tests/e2e/20-y.t:3: looks up frobnicate"
mini unread
printf '#!/bin/sh\nf() { command -v "$1"; }\n' >"$T/unread/tests/e2e/20-y.t" # deps-lint: planted
fails unread "tests/e2e/20-y.t:2: looks up a command through a variable"

# A wrong row of the table, caught where the package is installed.
mini table
sed -i 's/"valgrind": "valgrind"/"valgrind": "dash"/' "$T/table/tools/deps-lint"
fails table "tools/deps-lint's table says valgrind comes from dash, but dash does not ship"

# ---- (b) the lists -----------------------------------------------------
"$TOP/tools/deps.sh" --list test >"$T/test.list"
check "--list test: make test's packages, busybox-static among them" grep -qx busybox-static "$T/test.list"
for g in kernels systemd fleet; do
	"$TOP/tools/deps.sh" --list $g >"$T/$g.list"
	check "--list $g holds all of make test's" \
		[ -z "$(comm -23 "$T/test.list" "$T/$g.list")" ]
done
check "--list kernels: QEMU" grep -qx qemu-system-x86 "$T/kernels.list"
check "--list systemd: debootstrap" grep -qx debootstrap "$T/systemd.list"
check "--list fleet: rsyslog-pgsql" grep -qx rsyslog-pgsql "$T/fleet.list"
check "--list bench: the peers' kernel source" eval '"$TOP/tools/deps.sh" --list bench | grep -qx linux-source-6.1'
check "--list deb: debhelper" eval '"$TOP/tools/deps.sh" --list deb | grep -qx debhelper'
"$TOP/tools/deps.sh" --list nosuch >/dev/null 2>"$T/u.err"
check "--list of an unknown goal: exit 2" [ $? -eq 2 ]
check "... with the usage" grep -q '^usage: tools/deps.sh' "$T/u.err"

# ---- (c) --remove --------------------------------------------------------
[ "$(id -u)" -eq 0 ] || { diag "not root: --remove's checks need root (it refuses otherwise)"; done_testing; }
mkdir -p "$T/bin" "$T/cache/exitmon/kernels"
echo x >"$T/cache/exitmon/kernels/k"
# apt-get notes each call; its simulation purges what PURG names besides.
cat >"$T/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$T/apt.log"
case "\$*" in -s*) for p in \$PURG; do echo "Purg \$p [1.0]"; done ;; esac
exit 0
EOF
chmod 755 "$T/bin/apt-get"
# The record: two installed packages and one purged since.
printf 'dash\nbash\nno-such-package-here\n' >"$T/record"
remove() { EXITMON_DEPS_RECORD=$T/record XDG_CACHE_HOME=$T/cache PATH="$T/bin:$PATH" \
	"$TOP/tools/deps.sh" --remove "$@"; }

remove --dry-run >"$T/dry.out" 2>&1
check "--remove --dry-run: exit 0" [ $? -eq 0 ]
check "... says what it would purge: the recorded packages still installed" \
	grep -q '^deps: would purge 2 packages: bash dash$' "$T/dry.out"
check "... and the caches" grep -q "^deps: would remove $T/cache/exitmon" "$T/dry.out"
check "... and does nothing" eval '[ ! -e "$T/apt.log" ] && [ -f "$T/cache/exitmon/kernels/k" ]'

PURG="dash bash systemd" remove >"$T/r1.out" 2>&1
check "--remove where apt would take another package: exit 1" [ $? -eq 1 ]
check "... naming it" grep -q 'would also remove systemd .*not installed by deps.sh.*nothing done' "$T/r1.out"
check "... and purges nothing" eval '! grep -q "^apt-get purge" "$T/apt.log"'

PURG="dash bash" remove >"$T/r2.out" 2>&1
check "--remove: exit 0" [ $? -eq 0 ]
check "... purges exactly the recorded packages still installed" \
	grep -qx 'apt-get purge -y -qq bash dash' "$T/apt.log"
check "... forgets the record" [ ! -e "$T/record" ]
check "... removes the caches" [ ! -e "$T/cache/exitmon" ]
check "... and says both" eval 'grep -q "^deps: purging 2 packages" "$T/r2.out" && grep -q "^deps: removed $T/cache/exitmon" "$T/r2.out"'

remove >"$T/r3.out" 2>&1
check "--remove again: nothing to do, exit 0" [ $? -eq 0 ]
check "... and says so" grep -q '^deps: no package to purge' "$T/r3.out"
sed 's/^/# /' "$T/r2.out"

done_testing
