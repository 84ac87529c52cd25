#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's example for a kernel developer, in its shape: boot a kernel
# image (a bzImage, as arch/x86/boot/bzImage would be), run a sweep inside
# it to a JSON file, and compare that with a sweep of this machine.  The
# sweep is smaller than --quick (which takes about 8 minutes under TCG);
# what is checked is the mechanism: the file comes back, says it is
# emulated, and compare puts both side by side with the warning.
. "$(dirname "$0")/../e2e/lib.sh"
need_taskstats
command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"

SWEEP="--rates 1000 --runs 2 --count 200 --tgid on,off --listener none,batch -q"
img=$("$TOP/tools/kernel-fetch" "${KERNEL_SWEEP:-7}" 2>"$T/fetch.err" | tail -n 1)
check "kernel-fetch gives an image ($img)" [ -s "$img" ]
[ -s "$img" ] || { sed 's/^/# /' "$T/fetch.err"; done_testing; }

# shellcheck disable=SC2086  # $SWEEP is a list of options
"$TOP/tools/kernel-run" -q --kernel "$img" --out "$T/g" -- \
	exitsweep $SWEEP --json patched.json > "$T/g.out" 2> "$T/g.err"
rc=$?
check "the sweep ran in the guest (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 15 "$T/g.err" | sed 's/^/# /'
check "patched.json came back" [ -s "$T/g/patched.json" ]
check "its report warns that the timings are emulated" \
	grep -q '^WARNING: timings are emulated (tcg)' "$T/g.out"
python3 - "$T/g/patched.json" <<'PY' > "$T/g.json-check"
import json, sys
d = json.load(open(sys.argv[1]))
m = d['machine']
print(m['emulated'], m['kernel'], d['partial'])
PY
read -r emu kern partial < "$T/g.json-check"
check "the file records emulated=tcg ($emu) and the guest's kernel ($kern)" \
	[ "$emu" = tcg ] && [ "$kern" != "$(uname -r)" ]
check "the guest's sweep finished (partial=$partial)" [ "$partial" = False ]

# shellcheck disable=SC2086
"$TOP/exitsweep" $SWEEP --probe off --json "$T/native.json" > /dev/null 2>&1
check "a native sweep to compare with" [ -s "$T/native.json" ]
"$TOP/exitsweep" compare "$T/native.json" "$T/g/patched.json" > "$T/cmp.out" 2>&1
check "compare exits 0" [ $? -eq 0 ]
check "compare names the emulated file (B) in a warning" \
	grep -q '^WARNING: B: timings are emulated (tcg)' "$T/cmp.out"
check "compare does not warn about the native file" \
	sh -c "! grep -q '^WARNING: A:' '$T/cmp.out'"
check "both kernels are in the machines table" \
	sh -c "grep -q '$(uname -r)' '$T/cmp.out' && grep -q '$kern' '$T/cmp.out'"
done_testing
