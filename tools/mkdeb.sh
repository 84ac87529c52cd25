#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make deb`: build build/deb/exitmon_<VERSION>_<arch>.deb with debhelper
# from a clean export of the committed tree (git archive HEAD: uncommitted
# changes are not packaged), tools/debian copied to debian/ there.
# Usage: tools/mkdeb.sh VERSION
set -eu
version=${1:?usage: mkdeb.sh VERSION}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/deb
cd "$top"

[ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$top" ] &&
	git rev-parse --verify -q HEAD >/dev/null 2>&1 || {
	echo "make deb: $top is not a git checkout with a commit; the package is built from 'git archive HEAD'" >&2
	exit 1
}
for t in dpkg-buildpackage dh; do
	command -v $t >/dev/null 2>&1 || {
		echo "make deb: $t not found (apt-get install debhelper dpkg-dev fakeroot; or make deps)" >&2
		exit 1
	}
done
cl=$(git show HEAD:tools/debian/changelog | dpkg-parsechangelog -l - -S Version)
[ "$cl" = "$version" ] || {
	echo "make deb: tools/debian/changelog (at HEAD) says $cl, the Makefile's VERSION is $version" >&2
	exit 1
}
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	echo "make deb: note: uncommitted changes are not packaged (building HEAD $(git rev-parse --short HEAD))" >&2

# The package is a function of the committed tree: one built from this
# tree already (e2e's 80-deb-package.t, then make test-systemd) is kept.
tree=$(git rev-parse HEAD^{tree})
if [ "$(cat "$out/tree" 2>/dev/null)" = "$tree" ] &&
	ls "$out"/exitmon_"$version"_*.deb >/dev/null 2>&1; then
	echo "  DEB     $(ls "$out"/exitmon_"$version"_*.deb) is already built from HEAD's tree"
	exit 0
fi

tmp=$(mktemp -d /tmp/exitmon-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/exitmon-$version
mkdir "$src"
git archive --format=tar HEAD | tar -x -C "$src"
cp -R "$src/tools/debian" "$src/debian"

mkdir -p "$out"
echo "  DEB     building HEAD $(git rev-parse --short HEAD) in $src (log: build/deb/build.log)"
if ! (cd "$src" && dpkg-buildpackage -us -uc -b -J2) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "make deb: dpkg-buildpackage failed; full log in build/deb/build.log" >&2
	exit 1
fi
rm -f "$out"/exitmon_*.deb "$out"/exitmon_*.buildinfo "$out"/exitmon_*.changes "$out/tree"
mv "$tmp"/exitmon_"$version"_*.deb "$tmp"/exitmon_"$version"_*.buildinfo \
	"$tmp"/exitmon_"$version"_*.changes "$out"/
echo "$tree" > "$out/tree"
ls "$out"/exitmon_"$version"_*.deb
