#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/include-graph, the layout's check: clean on this tree, and failing
# on each rule it holds, in small trees made here.
. "$(dirname "$0")/lib.sh"

check "the tree keeps every rule of the layout" "$TOP/tools/include-graph"

# mini NAME: a tree of one library module and one program, clean as made;
# each case below breaks one rule in its own copy.
mini() {
	local d=$T/$1
	mkdir -p "$d/tools" "$d/include" "$d/src/common" "$d/src/exitmon" \
		"$d/src/exitgen" "$d/tests/unit"
	cp "$TOP/tools/include-graph" "$d/tools/"
	printf '#ifndef COMMON_LOW_H\n#define COMMON_LOW_H\nint low_one(void);\n#endif\n' >"$d/include/low.h"
	printf '#include "low.h"\nint low_one(void) { return 1; }\n' >"$d/src/common/low.c"
	printf '#ifndef EXITMON_TOP_H\n#define EXITMON_TOP_H\nint top_one(void);\n#endif\n' >"$d/src/exitmon/top.h"
	printf '#include "top.h"\n#include "low.h"\nint top_one(void) { return low_one(); }\n' >"$d/src/exitmon/top.c"
	printf '#include "low.h"\nint gen_one(void) { return low_one(); }\n' >"$d/src/exitgen/gen.c"
	printf '#include "low.h"\nint main(void) { return low_one(); }\n' >"$d/tests/unit/test_low.c"
	echo "$d"
}
# fails NAME WHAT: the check fails on the tree NAME, naming WHAT
fails() {
	local out
	out=$("$T/$1/tools/include-graph" 2>&1) && { nok "$1: the check fails"; return; }
	ok "$1: the check fails"
	check "$1: it says $2" grep -q -- "$2" <<<"$out"
}

d=$(mini clean)
check "a clean small tree passes" "$d/tools/include-graph"

d=$(mini circle)
printf '#ifndef COMMON_OTHER_H\n#define COMMON_OTHER_H\n#include "low.h"\n#endif\n' >"$d/src/common/other.h"
printf '#include "other.h"\nint other_x;\n' >"$d/src/common/other.c"
sed -i 's/#include "low.h"/#include "low.h"\n#include "other.h"/' "$d/src/common/low.c"
fails circle "circle: src/common/low <-> src/common/other"

d=$(mini climb)
sed -i 's/#include "low.h"/#include "low.h"\n#include "..\/exitmon\/top.h"/' "$d/src/common/low.c"
fails climb "climb: library src/common/low includes program module src/exitmon/top"

d=$(mini across)
printf '#include "../exitmon/top.h"\n' >>"$d/src/exitgen/gen.c"
fails across "across: src/exitgen/gen includes src/exitmon/top"

d=$(mini lonely)
printf '#ifndef COMMON_ONLY_H\n#define COMMON_ONLY_H\n#endif\n' >"$d/include/only.h"
printf '#include "only.h"\n' >>"$d/src/exitgen/gen.c"
fails lonely "include/only.h is used only by src/exitgen"

d=$(mini guard)
sed -i 's/EXITMON_TOP_H/EXITGEN_TOP_H/g' "$d/src/exitmon/top.h"
fails guard "guard: src/exitmon/top.h should be guarded by EXITMON_TOP_H"

d=$(mini test)
mv "$d/tests/unit/test_low.c" "$d/tests/unit/test_lowest.c"
fails test "tests/unit/test_lowest.c tests no module lowest.c"

# names come from the built objects (nm), so this tree is compiled
d=$(mini name)
printf 'int stray_name(void) { return 2; }\n' >>"$d/src/common/low.c"
mkdir -p "$d/build/src/common"
cc -c -I"$d/include" -o "$d/build/src/common/low.o" "$d/src/common/low.c"
fails name "name: src/common/low.c exports stray_name (not low_...)"

done_testing
