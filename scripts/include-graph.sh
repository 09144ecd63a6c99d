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

# The edges, from one awk over the file list (a module is looked up in the list, not on disk):
# a fork per include took a second and more.
edges() {
	find src include \( -type d -printf 'd %p\n' \) -o \( -name '*.[ch]' -printf 'f %p\n' \) |
	LC_ALL=C sort -k2 | awk '
	# the module of a file path
	function module(p,   d, c) {
		if (p ~ /^include\/iowl\//) p = substr(p, 14)
		else if (p ~ /^src\//) p = substr(p, 5)
		if ((c = index(p, "/"))) {
			d = substr(p, 1, c - 1)
			if (((("include/iowl/" d ".h") in F) || (("src/" d) in D)) && !(("include/iowl/" d) in D))
				return d
		}
		sub(/\.[ch]$/, "", p)
		sub(/_int$/, "", p)	# src/NAME_int.h: NAME private header
		# include/iowl/NAME.h implemented in a module directory (src/stats/hist.c): that module
		if (!(("src/" p ".c") in F) && (p in IN))
			return IN[p]
		sub(/.*\//, "", p)
		return p
	}
	$1 == "d" { D[$2] = 1; next }
	{
		F[$2] = 1; list[n++] = $2
		# src/DIR/REST.c: REST is implemented in module DIR (the first DIR, as a glob sorts)
		if (match($2, /^src\/[^\/]+\/.*\.c$/)) {
			d = substr($2, 5); c = index(d, "/"); r = substr(d, c + 1); sub(/\.c$/, "", r)
			if (!(r in IN))
				IN[r] = substr(d, 1, c - 1)
		}
	}
	END {
		for (i = 0; i < n; i++) {
			f = list[i]; a = module(f); dir = f; sub(/\/[^\/]*$/, "", dir)
			while ((getline line < f) > 0) {
				if (line !~ /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/)
					continue
				sub(/^[^"]*"/, "", line); sub(/".*/, "", line)
				h = line ~ /^iowl\// ? "include/" line : dir "/" line
				if (!(h in F))
					continue
				b = module(h)
				if (a != b)
					print a, b
			}
			close(f)
		}
	}' | sort -u
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
