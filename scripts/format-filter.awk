# SPDX-License-Identifier: MIT
# Used by check-format.sh: reads the unified diff git clang-format --diff writes and prints only the
# hunks whose change is more than alignment (runs of blanks after the first non-blank of a line),
# so hand-aligned trailing comments and #define values are not flagged; exit 1 if any is left.
function norm(s,   ind) {
	match(s, /^[ \t]*/); ind = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
	gsub(/[ \t]+/, " ", s); sub(/ $/, "", s); return ind s
}
function flush() {
	if (hunk != "" && minus != plus) { if (!printed_head) { printf "%s", head; printed_head = 1 }; printf "%s", hunk; n++ }
	hunk = ""; minus = ""; plus = ""
}
/^diff --git/ { flush(); head = $0 "\n"; printed_head = 0; next }
/^(index|---|\+\+\+) / { head = head $0 "\n"; next }
/^@@/ { flush(); hunk = $0 "\n"; next }
{ hunk = hunk $0 "\n"; if (/^-/) minus = minus norm(substr($0, 2)) "\n"; else if (/^\+/) plus = plus norm(substr($0, 2)) "\n" }
END { flush(); exit n > 0 }
