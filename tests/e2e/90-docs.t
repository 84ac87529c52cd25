#!/bin/bash
# --help, the man page and the README agree on every option: what the
# README's option tables, its examples and a man page's SYNOPSIS and
# option list name exists in --help, and what --help offers is in all three.
. "$(dirname "$0")/lib.sh"

PROGS="exitmon exitgen exitsweep exitstat exitprobe"
page_of() { case $1 in exitmon|exitprobe) echo "$TOP/man/$1.8" ;; *) echo "$TOP/man/$1.1" ;; esac; }

# has_opt PROG OPT: OPT (-x or --name) is an option of PROG's --help.
has_opt() {
	case $2 in
	--*) grep -qE -- "^ +(-[a-zA-Z], )?$2( |\$)" "$T/$1.help" ;;
	-?) grep -qE -- "^  $2, --" "$T/$1.help" ;;
	*) false ;;
	esac
}
# pair_ok PROG -x --long: --help gives -x as the short form of --long.
pair_ok() { grep -qE -- "^  $2, $3( |\$)" "$T/$1.help"; }

# check_named WHERE PROG FILE: FILE holds lines "OPT" or "-x --long" that
# WHERE names for PROG; each must exist in --help, a pair as a pair.
check_named() {
	local where=$1 p=$2 f=$3 a b
	while read -r a b; do
		if [ -n "$b" ]; then
			check "$p: $where's $a, $b is a short and long pair of --help" pair_ok "$p" "$a" "$b"
		else
			check "$p: $where's $a exists in --help" has_opt "$p" "$a"
		fi
	done <"$f"
}

for p in $PROGS; do
	[ -x "$TOP/$p" ] || { nok "$p is built"; continue; }
	"$TOP/$p" --help >"$T/$p.help"
	# every option of --help, one line each: "-x --long" or "--long"
	sed -n 's/^  \(-[a-zA-Z]\), \(--[a-z0-9-]*\).*/\1 \2/p; s/^      \(--[a-z0-9-]*\).*/\1/p' \
		"$T/$p.help" >"$T/$p.opts"
	check "$p: --help lists options" [ -s "$T/$p.opts" ]
	sec=$(page_of "$p"); sec=${sec##*.}
	check "$p: --help names its man page" grep -q "^See $p($sec) " "$T/$p.help"
done

# The README: the option table of each program's section (the section's
# first sh example names the program), its first column's `-x`, `--long`.
awk -v dir="$T" '
	/^```sh/ { code = 1; first = first ? first : 1; next }
	/^```/ { code = 0; next }
	code && first == 1 { split($0, w, " "); prog = w[1]; first = 2; next }
	/^## / { first = 0; prog = ""; tab = 0; next }
	/^\| option \| meaning \|/ { tab = 1; next }
	tab && /^\|/ && prog != "" {
		# the first column: up to the first | that is not written \|
		cell = $0; gsub(/\\\|/, "\001", cell); sub(/^\| */, "", cell); sub(/\|.*/, "", cell)
		n = 0; delete o
		while (match(cell, /`[^`]*`/)) {
			span = substr(cell, RSTART + 1, RLENGTH - 2)
			cell = substr(cell, RSTART + RLENGTH)
			split(span, w, " ")
			if (w[1] ~ /^--?[a-zA-Z]/) o[++n] = w[1]
		}
		for (i = 1; i <= n; i++) {
			if (o[i] ~ /^-[a-zA-Z]$/ && o[i + 1] ~ /^--/) {
				print o[i], o[i + 1] >(dir "/" prog ".readme"); i++
			} else print o[i] >(dir "/" prog ".readme")
		}
		next
	}
	tab && !/^\|/ { tab = 0 }
' "$TOP/README.md"

for p in $PROGS; do
	[ -s "$T/$p.opts" ] || continue
	page=$(page_of "$p")
	check "$p: man page exists" [ -f "$page" ] || continue
	if check "$p: README.md has its option table" [ -s "$T/$p.readme" ]; then
		check_named "README table" "$p" "$T/$p.readme"
	fi

	# SYNOPSIS, and the option list (.It Fl lines of OPTIONS, or exitgen's
	# Options subsection); mdoc writes -x as "Fl x", --name as "Fl -name".
	awk '/^\.Sh SYNOPSIS/ { s = 1; next } /^\.Sh/ { s = 0 } s' "$page" |
		grep -o 'Fl [^ ]*' | sed 's/^Fl /-/' | grep -v '^--$' |
		sort -u >"$T/$p.synopsis"
	awk '/^\.Sh OPTIONS|^\.Ss Options/ { s = 1; next } /^\.S[hs]/ { s = 0 }
		s && /^\.It Fl/' "$page" |
		sed -n 's/^\.It Fl \([a-zA-Z]\) , Fl \(-[a-z0-9-]*\).*/-\1 -\2/p; t; s/^\.It //p' |
		while read -r line; do
			case $line in -*) echo "$line" ;; *) echo "$line" | grep -o 'Fl [^ ]*' | sed 's/^Fl /-/' ;; esac
		done >"$T/$p.manopts"
	check "$p: SYNOPSIS names options" [ -s "$T/$p.synopsis" ]
	check "$p: the man page lists options" [ -s "$T/$p.manopts" ]
	check_named "SYNOPSIS" "$p" "$T/$p.synopsis"
	check_named "man page option list" "$p" "$T/$p.manopts"

	# the other way round: every option of --help (but help and version)
	# is in the SYNOPSIS (short or long form), the option list and the
	# README's table, and named in the man page.
	while read -r a b; do
		long=${b:-$a} short=${b:+$a}
		case $long in --help|--version) continue ;; esac
		if grep -qxF -- "$long" "$T/$p.synopsis" ||
			{ [ -n "$short" ] && grep -qxF -- "$short" "$T/$p.synopsis"; }; then
			ok "$p $long in its SYNOPSIS"
		else
			nok "$p $long missing from the SYNOPSIS of $page"
		fi
		check "$p $long in its man page's option list" \
			grep -qE -- "(^| )$long\$" "$T/$p.manopts"
		check "$p $long in its README table" \
			grep -qE -- "(^| )$long\$" "$T/$p.readme"
	done <"$T/$p.opts"
done

# The README's examples: every option given to one of the programs in an
# sh block (or after a "$ " prompt) exists.  Words after a program's name
# up to the next program, separator or -- are its own.
awk '/^```sh/ { c = 1; next } /^```/ { c = 0; next } c || /^\$ /' "$TOP/README.md" |
	sed 's/^\$ //; s/#.*//; s/[;&|()'"'"'"\\]/ ; /g' |
	awk -v progs=" $PROGS " '{
		prog = ""
		for (i = 1; i <= NF; i++) {
			w = $i; base = w; sub(/.*\//, "", base)
			if (index(progs, " " base " ")) { prog = base; continue }
			if (w == ";" || w == "--") { prog = ""; continue }
			if (prog != "" && w ~ /^--?[a-zA-Z]/) { sub(/=.*/, "", w); print prog, w }
		}
	}' | sort -u >"$T/examples"
check "README.md examples found" [ -s "$T/examples" ]
while read -r p o; do
	[ -s "$T/$p.help" ] || continue
	check "README example: $p $o exists" has_opt "$p" "$o"
done <"$T/examples"

# The README's prose: `exitgen --baseline` anywhere is exitgen's; a bare
# `--option` in a program's section (the part before its option table
# and after) belongs to one of the programs.
awk -v progs=" $PROGS " '
	/^```/ {
		c = !c
		if (c && sec == 1) {
			getline; split($0, w, " "); sec = 2
			prog = index(progs, " " w[1] " ") ? w[1] : ""
		}
		next
	}
	c || /^\|/ { next }
	/^## / { sec = 1; prog = "" }
	{
		line = $0
		while (match(line, /`[^`]*`/)) {
			n = split(substr(line, RSTART + 1, RLENGTH - 2), w, " ")
			line = substr(line, RSTART + RLENGTH)
			if (index(progs, " " w[1] " ")) {
				for (i = 2; i <= n; i++) if (w[i] ~ /^--?[a-zA-Z]/) print w[1], w[i]
			} else if (prog != "" && w[1] ~ /^--?[a-zA-Z]/) print "*", w[1]
		}
	}' "$TOP/README.md" | sort -u >"$T/prose"
check "README.md prose names options" [ -s "$T/prose" ]
while read -r p o; do
	if [ "$p" = "*" ]; then
		found=""
		for q in $PROGS; do [ -s "$T/$q.help" ] && has_opt "$q" "$o" && found=$q; done
		check "README prose: $o is an option of one of the programs" [ -n "$found" ]
	elif [ -s "$T/$p.help" ]; then
		check "README prose: $p $o exists" has_opt "$p" "$o"
	fi
done <"$T/prose"

# The source files and folders the README and the man pages name exist:
# `src/exitmon/shard.c`, or a bare `stat_group.c` somewhere in the tree.
{ grep -o '`[^`]*`' "$TOP/README.md" | tr -d '`' | tr ' ,' '\n\n'
  grep -ho 'Pa [a-z][^ ]*/[^ ]*' "$TOP"/man/*.[18] | sed 's/^Pa //'; } |
	grep -E '\.(c|h|sh|py|t|mk)$|^(src|tools|tests|include|man|systemd)/' |
	grep -v '[<>*]' | sort -u >"$T/paths"
check "README.md names source files" [ -s "$T/paths" ]
while read -r f; do
	case $f in
	*/*) check "$f exists" [ -e "$TOP/$f" ] ;;
	*) check "$f exists in the tree" eval \
		'[ -n "$(find "$TOP/src" "$TOP/tools" "$TOP/tests" "$TOP/include" -name "$f" -print -quit)" ]' ;;
	esac
done <"$T/paths"

# A short option means one thing in every program: each letter stands for
# one long name (or is long-only where the programs would disagree).  A
# list of values is the same option: exitsweep's --rates is exitgen's --rate.
for p in $PROGS; do
	[ -s "$T/$p.help" ] && sed -n "s/^  -\([a-zA-Z]\), \(--[a-z0-9-]*\).*/\1 \2 $p/p" "$T/$p.help"
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
