#!/bin/sh
# SPDX-License-Identifier: MIT
# The formatting check CI runs (make format-check): every C line changed since the commit in
# scripts/format-base must be as .clang-format writes it, checked by git clang-format (as git's own
# CI does), so new code follows the style without a tree-wide rewrite of the old. Alignment (blanks
# between tokens, as before hand-aligned trailing comments) is left to the author
# (scripts/format-filter.awk). `make format` applies the rest. Older code is formatted when touched.
# Files not yet added to git are checked whole.
cd "$(dirname "$0")/.." || exit 1
base=$(cat scripts/format-base)
gcf=$(command -v git-clang-format || command -v git-clang-format-14)
cf=$(command -v clang-format || command -v clang-format-14)
[ -n "$gcf" ] && [ -n "$cf" ] ||
	{ echo "format-check: git-clang-format not found (apt-get install clang-format)" >&2; exit 1; }
git cat-file -e "$base^{commit}" 2>/dev/null ||
	{ echo "format-check: the base commit $base is not in this clone (a shallow clone?): fetch the history" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$gcf" --binary "$cf" --diff --extensions c,h "$base" -- src include tests bench > "$tmp"
# git clang-format sees only files git knows: new files not yet added are checked whole.
git ls-files --others --exclude-standard -- 'src/*.[ch]' 'include/*.[ch]' 'tests/*.[ch]' \
	'bench/*.[ch]' | while IFS= read -r f; do
	"$cf" --style=file "$f" | diff -u --label "a/$f" --label "b/$f" "$f" - |
		sed "1i diff --git a/$f b/$f"
done >> "$tmp"
if awk -f scripts/format-filter.awk "$tmp" > "$tmp.left"; then
	rm -f "$tmp.left"
	echo "format-check: the C lines changed since $(echo "$base" | cut -c1-12) are formatted"
	exit 0
fi
if [ "$1" = fix ]; then
	git apply --whitespace=nowarn "$tmp.left" && echo "format: formatted the lines listed:" &&
		grep '^+++ ' "$tmp.left" | sed 's|^+++ b/|  |'
	rm -f "$tmp.left"
	exit 0
fi
cat "$tmp.left"
rm -f "$tmp.left"
echo "format-check: the lines above are not formatted as .clang-format says; run make format" >&2
exit 1
