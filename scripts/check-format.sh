#!/bin/sh
# SPDX-License-Identifier: MIT
# The formatting check CI runs (make format-check): every C line changed since the commit in
# scripts/format-base must be as .clang-format writes it, checked by git clang-format (as git's own
# CI does), so new code follows the style without a tree-wide rewrite of the old. `make format`
# fixes the lines it complains about. Older code is formatted when it is touched.
cd "$(dirname "$0")/.." || exit 1
base=$(cat scripts/format-base)
gcf=$(command -v git-clang-format || command -v git-clang-format-14)
[ -n "$gcf" ] || { echo "format-check: git-clang-format not found (apt-get install clang-format)" >&2; exit 1; }
cf=$(command -v clang-format || command -v clang-format-14)
git cat-file -e "$base^{commit}" 2>/dev/null ||
	{ echo "format-check: the base commit $base is not in this clone (a shallow clone?): fetch the history" >&2; exit 1; }
fix=""
[ "$1" = fix ] && fix=1
if [ -n "$fix" ]; then
	"$gcf" --force --binary "$cf" --extensions c,h "$base" -- src include tests bench
	exit 0
fi
out=$("$gcf" --binary "$cf" --diff --extensions c,h "$base" -- src include tests bench)
case $out in
""|"no modified files to format"|"clang-format did not modify any files") echo "format-check: the C lines changed since $(echo "$base" | cut -c1-12) are formatted"; exit 0 ;;
esac
printf '%s\n' "$out"
echo "format-check: the lines above are not formatted as .clang-format says; run make format" >&2
exit 1
