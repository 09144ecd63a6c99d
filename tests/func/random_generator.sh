#!/bin/sh
# SPDX-License-Identifier: MIT
# random_generator=lfsr: every block once per pass even with norandommap, as fio's LFSR; the
# tausworthe names keep plain uniform draws, which repeat blocks.  Counted from write_iolog, and
# the same counts from fio where it is installed.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
distinct() { awk '{ for (i = 1; i < NF; i++) if ($i == "read") print $(i + 1) }' "$1" | sort -u | wc -l; }
for tool in iowl fio; do
	[ $tool = fio ] && ! have_fio && break
	for g in lfsr tausworthe tausworthe64; do
		if [ $tool = iowl ]; then
			"$IOWL" --name=r --ioengine=null --size=1m --bs=4k --rw=randread --norandommap \
				--random_generator=$g --write_iolog=$g.log > /dev/null 2> err || { cat err; fail "iowl $g"; }
		else
			fio --name=r --ioengine=null --size=1m --bs=4k --rw=randread --norandommap \
				--random_generator=$g --write_iolog=$g.log > /dev/null 2> err || { cat err; fail "fio $g"; }
		fi
		n=$(distinct $g.log)
		case $g in
		lfsr) [ "$n" = 256 ] || fail "$tool lfsr norandommap: $n distinct blocks of 256 IOs, expected 256" ;;
		*) [ "$n" -lt 256 ] || fail "$tool $g norandommap: $n distinct blocks of 256, expected repeats" ;;
		esac
		echo "$tool $g: $n distinct blocks in 256 IOs"
	done
done
"$IOWL" --name=r --ioengine=null --size=1m --random_generator=xorshift --parse-only 2> err && fail "xorshift accepted"
grep -q "random_generator=xorshift" err || fail "bad value: $(cat err)"
exit 0
