#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/licence-lint: clean on this tree; in a small git tree, failing on
# each kind of source file without its SPDX line, and saying the line to add.
. "$(dirname "$0")/lib.sh"

check "the tree: every source file says its licence" "$TOP/tools/licence-lint"
check "COPYING is the GPL, version 2" grep -q 'Version 2, June 1991' "$TOP/COPYING"
check "the package's copyright says GPL-2+" grep -qx 'License: GPL-2+' "$TOP/tools/debian/copyright"

tree=$T/tree
mkdir -p "$tree/tools" "$tree/src" "$tree/man" "$tree/tests/data"
cp "$TOP/tools/licence-lint" "$tree/tools/"
L="SPDX-License-Identifier: GPL-2.0-or-later"
printf '// %s\nint a;\n' "$L" >"$tree/src/a.c"
printf '#!/bin/sh\n# %s\ntrue\n' "$L" >"$tree/tools/s"
printf 'x,y\n1,2\n' >"$tree/tests/data/d.csv"    # data: no line
printf '# notes\n' >"$tree/README.md"             # prose: no line
git -C "$tree" init -q && git -C "$tree" add -A
check "a small tree with its lines passes" "$tree/tools/licence-lint"

printf '/* a header */\nint b(void);\n' >"$tree/src/b.h"
printf '#!/bin/sh\ntrue\n' >"$tree/tools/t"
printf '.Dd May 1, 2026\n' >"$tree/man/x.1"
git -C "$tree" add -A
out=$("$tree/tools/licence-lint" 2>&1)
check "files without it: the lint fails" [ $? -ne 0 ]
check "... naming the header, with its comment" grep -qF "src/b.h: no '$L' line in its first three lines (add: /* $L */)" <<<"$out"
check "... the script without an extension" grep -qF "tools/t: no '$L'" <<<"$out"
check "... the man page, as roff's comment" grep -qF "(add: .\\\" $L)" <<<"$out"
check "... and not the data or prose" eval '! grep -qE "d.csv|README.md" <<<"$out"'
done_testing
