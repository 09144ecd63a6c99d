#!/bin/sh
# SPDX-License-Identifier: MIT
# The manual renders without a single groff warning (-ww): a stray escape or an eaten \f shows up
# as garbage in `man iowl`, and nothing else would notice.
. "$(dirname "$0")/../lib.sh"
man=$(cd "$(dirname "$0")/../../man" && pwd)/iowl.1
command -v groff >/dev/null 2>&1 || skip "groff is not installed (apt-get install groff-base)"
warn=$(groff -ww -z -man "$man" 2>&1)
[ -z "$warn" ] || fail "groff -ww warns about man/iowl.1: $warn"
# A literal form feed or other control character in the source is always an eaten escape.
bad=$(LC_ALL=C grep -n "$(printf '[\001-\010\013-\037]')" "$man" | head -n 3)
[ -z "$bad" ] || fail "control characters in man/iowl.1: $bad"
exit 0
