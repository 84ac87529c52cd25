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
done_testing
