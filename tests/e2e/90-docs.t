#!/bin/bash
# --help, the man page and the README agree on every option.
. "$(dirname "$0")/lib.sh"

for prog in exitmon:man/exitmon.8 exitgen:man/exitgen.1 exitsweep:man/exitsweep.1 \
	exitstat:man/exitstat.1 exitprobe:man/exitprobe.8; do
	p=${prog%%:*} page=$TOP/${prog#*:}
	[ -x "$TOP/$p" ] || { nok "$p is built"; continue; }
	check "$p: man page exists" [ -f "$page" ]
	opts=$("$TOP/$p" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
	check "$p: --help lists options" [ -n "$opts" ]
	for o in $opts; do
		name=${o#--}
		# mdoc writes --name as "Fl -name"; man(7) as \-\-name.
		if grep -qE -- "Fl -$name([^a-z0-9-]|\$)|\\\\-\\\\-$name([^a-z0-9-]|\$)" "$page"; then
			ok "$p $o in its man page"
		else
			nok "$p $o missing from $page"
		fi
		if grep -qE -- "$o([^a-z0-9-]|\$)" "$TOP/README.md"; then
			ok "$p $o in README.md"
		else
			nok "$p $o missing from README.md"
		fi
	done
done

# A short option means one thing in every program: each letter stands for
# one long name (or is long-only where the programs would disagree).  A
# list of values is the same option: exitsweep's --rates is exitgen's --rate.
for p in exitmon exitgen exitsweep exitstat exitprobe; do
	[ -x "$TOP/$p" ] && "$TOP/$p" --help | sed -n "s/^  -\([a-zA-Z]\), \(--[a-z0-9-]*\).*/\1 \2 $p/p"
done | sort -u >"$T/short"
check "short options found in --help" [ -s "$T/short" ]
for l in $(cut -d' ' -f1 "$T/short" | sort -u); do
	meanings=$(awk -v l="$l" '$1 == l { sub(/s$/, "", $2); print $2 }' "$T/short" | sort -u)
	if [ "$(echo "$meanings" | wc -l)" -eq 1 ]; then
		ok "-$l means $meanings wherever it exists"
	else
		nok "-$l means" $(awk -v l="$l" '$1 == l { print $2 " in " $3 }' "$T/short")
	fi
done
done_testing
