#!/bin/sh
# SPDX-License-Identifier: MIT
# Every option fio 3.33 knows (fio --cmdhelp=all, and --enghelp of each engine iowl has), as iowl
# sees it (iowl --cmdhelp=NAME): implemented, refused by name with the reason (hardware or
# services this machine lacks, or not a fio 3.33 option), or not built yet.  An option iowl calls
# unknown fails, and so does one "not supported yet" that is not on the list below; the list is
# exact: a name on it that iowl accepts or refuses with a reason now fails too (take it off).
# Prints the refused ones.
. "$(dirname "$0")/../lib.sh"
have_fio || skip "fio 3 is not installed (apt-get install fio): its option list is the reference"
# not built yet (issue 13), each by name
PENDING=""
pending() {
	for p in $PENDING; do
		[ "$1" = "$p" ] && return 0
	done
	return 1
}
# fio's list is kept in tests/data/fio-options.txt with fio's answer (tests/lib.sh's fio_kept):
# another fio is asked again (11 starts), and make fio-ref keeps its list.
NAMES=$(cd "$(dirname "$0")/../data" && pwd)/fio-options.txt
if [ -f "$NAMES" ] && fio_kept option names "$(md5sum < "$NAMES")"; then
	cp "$NAMES" "$SCRATCH/names"
else
	{
		fio --cmdhelp=all
		for e in libaio io_uring pvsync2 mmap psync sync pvsync vsync posixaio null; do
			fio --enghelp="$e"
		done
	} 2>/dev/null | sed -n 's/^ *\([A-Za-z0-9_-]*\) *:.*/\1/p' | LC_ALL=C sort -u > "$SCRATCH/names"
	if [ -n "$IOWL_FIO_KEEP" ]; then
		cp "$SCRATCH/names" "$NAMES"
		fio_keep option names "$(md5sum < "$NAMES")"
	fi
fi
n=$(wc -l < "$SCRATCH/names")
[ "$n" -gt 200 ] || fail "fio listed only $n options"
ok=0 bad="" refused="" notyet=""
while read -r o; do
	if "$IOWL" --cmdhelp="$o" > /dev/null 2> "$SCRATCH/err"; then
		ok=$((ok + 1))
		pending "$o" && bad="$bad
$o: accepted now: take it off the pending list"
		continue
	fi
	msg=$(head -n 1 "$SCRATCH/err")
	case $msg in
	*"unknown option"*|*"does not support yet"*)
		notyet="$notyet $o"
		pending "$o" || bad="$bad
$o: not supported yet and not on the pending list" ;;
	*) refused="$refused
  $o: ${msg#iowl: --cmdhelp: }"
		pending "$o" && bad="$bad
$o: refused with a reason now: take it off the pending list" ;;
	esac
done < "$SCRATCH/names"
for p in $PENDING; do
	grep -qx "$p" "$SCRATCH/names" || bad="$bad
$p: on the pending list but not a fio 3.33 option"
done
[ -z "$bad" ] || fail "the pending list is not exact:$bad"
echo "fio 3.33 options: $n, $ok implemented; not built yet:$notyet"
echo "refused with the reason:$refused"
exit 0
