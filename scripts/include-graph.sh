#!/bin/sh
# SPDX-License-Identifier: MIT
# The include graph of src/ and include/ between modules, and its circles.
#
# A module is a header and the sources that implement it: include/iowl/NAME.h, src/NAME.c, its
# private header src/NAME_int.h, and a directory src/NAME/ (with its private headers) when
# include/iowl/NAME.h exists; any other directory src/D/ is one module D, with the headers of
# include/iowl/ its files implement (include/iowl/hist.h and src/stats/hist.c are in stats).  An edge A B says that a file of A includes a header of B.
#
#   scripts/include-graph.sh          edges, one "A B" a line
#   scripts/include-graph.sh --dot    the graph for graphviz
#   scripts/include-graph.sh --check [MODULE]
#                                     prints every circle (modules that reach each other), or the
#                                     one through MODULE, and exits 1 if there is one
set -eu
cd "$(dirname "$0")/.."

module() {	# the module of a file path
	p=$1
	case $p in
	include/iowl/*) p=${p#include/iowl/} ;;
	src/*) p=${p#src/} ;;
	esac
	case $p in
	*/*)
		d=${p%%/*}
		if [ -f "include/iowl/$d.h" ] || [ -d "src/$d" ] && [ ! -d "include/iowl/$d" ]; then
			echo "$d"
			return
		fi ;;
	esac
	p=${p%.[ch]}
	p=${p%_int}	# src/NAME_int.h: NAME's private header
	# include/iowl/NAME.h implemented in a module directory (src/stats/hist.c): that module
	if [ ! -f "src/$p.c" ]; then
		for c in src/*/"$p".c; do
			[ -f "$c" ] || continue
			d=${c#src/}
			echo "${d%%/*}"
			return
		done
	fi
	echo "${p##*/}"
}

edges() {
	find src include -name '*.[ch]' | sort | while read -r f; do
		a=$(module "$f")
		dir=$(dirname "$f")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r inc; do
			case $inc in
			iowl/*) h=include/$inc ;;
			*) h=$dir/$inc ;;
			esac
			[ -f "$h" ] || continue
			b=$(module "$h")
			[ "$a" = "$b" ] || echo "$a $b"
		done
	done | sort -u
}

# The strongly connected components of more than one module (the circles), one a line, from the
# edges on stdin; with a module name, only the one holding it.
circles() {
	awk -v only="${1:-}" '
	{ n[$1] = n[$2] = 1; adj[$1] = adj[$1] " " $2 }
	END {
		for (s in n) {	# reach[s, t]: t is reachable from s
			delete seen; q[0] = s; head = 0; tail = 1
			while (head < tail) {
				u = q[head++]; k = split(adj[u], out, " ")
				for (i = 1; i <= k; i++)
					if (!((out[i]) in seen)) { seen[out[i]] = 1; reach[s, out[i]] = 1; q[tail++] = out[i] }
			}
		}
		for (s in n) {
			if (done[s] || !((s, s) in reach) || (only != "" && s != only))
				continue
			line = ""
			for (t in n)
				if (((s, t) in reach) && ((t, s) in reach)) { done[t] = 1; line = line " " t }
			print substr(line, 2)
		}
	}' | while read -r c; do printf '%s\n' $c | sort | tr '\n' ' ' | sed 's/ $//'; echo; done | sort
}

case ${1:-} in
--dot)
	echo 'digraph includes {'
	edges | awk '{ printf "\t\"%s\" -> \"%s\";\n", $1, $2 }'
	echo '}' ;;
--check)
	c=$(edges | circles "${2:-}")
	if [ -n "$c" ]; then
		echo "include graph: circles (modules that include each other, directly or not):" >&2
		printf '%s\n' "$c" >&2
		exit 1
	fi
	echo "include graph: no circles${2:+ through $2}" ;;
'') edges ;;
*) echo "usage: $0 [--dot | --check [MODULE]]" >&2; exit 1 ;;
esac
