#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The documentation names only what exists.
#  (a) --help and each man page agree on every option: what a man page's
#      SYNOPSIS and option list name is in --help (a short letter as the
#      pair it is), and every option of --help is in both;
#  (b) every command line in README.md's sh blocks and in the sh blocks of
#      docs/*.md uses only options its program's --help has, and so does
#      `PROG --option` in their prose;
#  (c) every repository path named in README.md, docs/**/*.md and
#      tests/README.md (in backticks or as a markdown link), and every
#      path a man page names, exists;
#  (d) README.md stays a front door (under 400 lines) and, with docs/
#      outside docs/results/ and tests/README.md, names no issue number;
#      each docs/results/ file is dated in its name, names its command and
#      machine at the top, and is listed in docs/results/README.md.
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

# (a) --help against each man page.
for p in $PROGS; do
	[ -s "$T/$p.opts" ] || continue
	page=$(page_of "$p")
	check "$p: man page exists" [ -f "$page" ] || continue

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
	# is in the SYNOPSIS (short or long form) and the option list.
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
	done <"$T/$p.opts"
done

# (b) Command lines.  The sh blocks of README.md and docs/*.md (not the
# dated results: they record what was run on their day), continuation
# lines joined.  Words after a program's name (or a path ending in it) up
# to the next program, separator or -- are its own.
DOCS_TOP="$TOP/README.md $(ls "$TOP"/docs/*.md 2>/dev/null)"
for f in $DOCS_TOP; do
	awk '/^```sh/ { c = 1; next } /^```/ { c = 0; next }
		c { if (sub(/\\$/, "")) { held = held $0 " "; next }
		    print held $0; held = "" }' "$f" |
		sed 's/^\$ //; s/#.*//; s/[;&|()'"'"'"\\]/ ; /g' |
		awk -v progs=" $PROGS " -v f="${f#$TOP/}" '{
			prog = ""
			for (i = 1; i <= NF; i++) {
				w = $i; base = w; sub(/.*\//, "", base)
				if (index(progs, " " base " ")) { prog = base; continue }
				if (w == ";" || w == "--") { prog = ""; continue }
				if (prog != "" && w ~ /^--?[a-zA-Z]/) { sub(/=.*/, "", w); print f, prog, w }
			}
		}'
done | sort -u >"$T/examples"
check "sh blocks of README.md name options" grep -q '^README.md ' "$T/examples"
while read -r f p o; do
	[ -s "$T/$p.help" ] || continue
	check "$f example: $p $o exists" has_opt "$p" "$o"
done <"$T/examples"

# Prose: `exitgen --baseline` anywhere in README.md or docs/*.md is
# exitgen's; in README.md a bare `--option` in a program's section (one
# whose first sh block starts with the program) belongs to one of them.
for f in $DOCS_TOP; do
	awk -v progs=" $PROGS " -v f="${f#$TOP/}" '
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
					for (i = 2; i <= n; i++) if (w[i] ~ /^--?[a-zA-Z]/) { sub(/=.*/, "", w[i]); print f, w[1], w[i] }
				} else if (f == "README.md" && prog != "" && w[1] ~ /^--?[a-zA-Z]/) print f, "*", w[1]
			}
		}' "$f"
done | sort -u >"$T/prose"
check "README.md prose names options" grep -q '^README.md ' "$T/prose"
while read -r f p o; do
	if [ "$p" = "*" ]; then
		found=""
		for q in $PROGS; do [ -s "$T/$q.help" ] && has_opt "$q" "$o" && found=$q; done
		check "$f prose: $o is an option of one of the programs" [ -n "$found" ]
	elif [ -s "$T/$p.help" ]; then
		check "$f prose: $p $o exists" has_opt "$p" "$o"
	fi
done <"$T/prose"

# (c) Paths.  In backticks: a word that starts with a folder of the tree
# (src/ tools/ tests/ include/ man/ systemd/ docs/ .ci/), or one of its
# top files, is a path from the top; a bare source file name (stat_group.c)
# must exist somewhere in the tree.  A markdown link is relative to its
# file.  Words with placeholders or globs (<version>, *) are not paths.
# Exceptions, each with its reason:
#   build/...       made by make, not in the tree
excepted() {
	case $1 in
	build/*) return 0 ;;
	*) return 1 ;;
	esac
}
DOCS_ALL="$TOP/README.md $TOP/tests/README.md $(find "$TOP/docs" -name '*.md' 2>/dev/null | sort)"
for f in $DOCS_ALL; do
	rel=${f#$TOP/}; dir=$(dirname "$rel")
	# backticked words (a span may hold several, as `a.c`, `b.c` or a command)
	grep -o '`[^`]*`' "$f" | tr -d '`' | tr ' ,;:()' '\n\n\n\n\n\n' | sed 's|^\./||' |
		grep -E '^(src|tools|tests|include|man|systemd|docs|build|\.ci)/|^(README\.md|Makefile)$|^[A-Za-z0-9_.-]+\.(c|h|sh|py|t|mk)$' |
		grep -v '[<>*$]' | sed "s|^|$rel top |"
	# markdown links, not to other sites or to anchors alone
	grep -o '](\([^)]*\))' "$f" | sed 's/^](//; s/)$//; s/#.*//' |
		grep -vE '^(https?:|mailto:|$)' | sed "s|^|$rel $dir |"
done | sort -u >"$T/paths"
grep -ho 'Pa [a-z][^ ]*/[^ ]*' "$TOP"/man/*.[18] | sed 's/^Pa //' |
	grep -E '^(src|tools|tests|include|man|systemd)/' | sed 's|^|man top |' >>"$T/paths"
check "the documents name paths" grep -q '^README.md top ' "$T/paths"
check "the documents link to each other" grep -q '^README.md \. ' "$T/paths"
while read -r f base p; do
	if [ "$base" = top ]; then path=$p; else path=$(realpath -m --relative-to="$TOP" "$TOP/$base/$p"); fi
	case $path in
	*/*|README.md|Makefile) if excepted "$path"; then ok "$f: $p (excepted)"
		else check "$f: $p exists" [ -e "$TOP/$path" ]; fi ;;
	# a bare name: a file at the top (COPYING), or one in the tree
	*) check "$f: $p exists in the tree" eval \
		'[ -f "$TOP/$p" ] || [ -n "$(find "$TOP/src" "$TOP/tools" "$TOP/tests" "$TOP/include" -name "$p" -print -quit)" ]' ;;
	esac
done <"$T/paths"

# (d) A front door, not a notebook.
n=$(wc -l <"$TOP/README.md")
check "README.md is under 400 lines ($n)" [ "$n" -lt 400 ]
for f in "$TOP/README.md" "$TOP/tests/README.md" $(find "$TOP/docs" -name '*.md' -not -path '*/docs/results/*' | sort); do
	check "${f#$TOP/} names no issue number" eval '! grep -nEi "issues? *#?[0-9]" "$f"'
done
results=$(ls "$TOP"/docs/results/*.md 2>/dev/null | grep -v '/README\.md$')
check "docs/results/ holds results" [ -n "$results" ]
check "docs/results/README.md indexes them" [ -f "$TOP/docs/results/README.md" ]
for f in $results; do
	b=$(basename "$f")
	dt=$(echo "$b" | sed -n 's/^\([0-9]\{4\}-[0-9][0-9]-[0-9][0-9]\)-[a-z0-9-]*\.md$/\1/p')
	check "results/$b: dated in its name (YYYY-MM-DD-topic.md)" \
		eval '[ -n "$dt" ] && [ "$(date -d "$dt" +%F 2>/dev/null)" = "$dt" ]'
	# (a command in backticks, which may run on to the next lines)
	check "results/$b: names its command at the top" \
		eval 'head -n 15 "$f" | grep -qE "^- Command: .*\`[^\` ]"'
	check "results/$b: names its machine at the top" \
		eval 'head -n 15 "$f" | grep -qE "^- Machine: "'
	check "results/$b: listed in docs/results/README.md" \
		grep -qF "]($b)" "$TOP/docs/results/README.md"
done

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
