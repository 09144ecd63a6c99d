#!/bin/sh
# write_iolog records every IO in fio's iolog v2 format, and every IO stays inside the job's region.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
check_region() { # log lo hi expected-ios
	awk -v lo="$2" -v hi="$3" -v want="$4" '
		NR == 1 { if ($0 != "fio version 2 iolog") { print "bad header"; exit 1 } next }
		$2 == "read" || $2 == "write" { n++; if ($3 < lo || $3 + $4 > hi) { print "outside: " $0; exit 1 } }
		END { if (n != want) { print "ios " n " != " want; exit 1 } }' "$1"
}
"$IOWL" --name=r --ioengine=null --filename=x --size=1m --offset=64k --bs=4k --rw=randread \
	--write_iolog=r.log --eta=never > /dev/null || fail "run"
check_region r.log 65536 $((65536 + 1048576)) 256 || fail "random, random map"
# With the random map every block is read exactly once per pass.
[ "$(awk '$2 == "read" { print $3 }' r.log | sort -u | wc -l)" = 256 ] || fail "random map coverage"
"$IOWL" --name=m --ioengine=null --filename=x --size=1m --offset=1m --rw=randrw \
	--bssplit=4k/50:64k/50 --loops=1000 --number_ios=2000 --write_iolog=m.log --eta=never > /dev/null || fail "mixed"
check_region m.log 1048576 2097152 2000 || fail "mixed sizes"
"$IOWL" --name=s --ioengine=null --filename=x --size=1m --rw=write --bs=16k:0 \
	--write_iolog=s.log --eta=never > /dev/null 2>&1 && fail "bs=16k:0 accepted"
"$IOWL" --name=s --ioengine=null --filename=x --size=1m --rw=write:16k --bs=16k \
	--write_iolog=s.log --eta=never > /dev/null || fail "rw=write:16k"
[ "$(awk '$2 == "write" { print $3 }' s.log | head -3 | tr '\n' ' ')" = "0 32768 65536 " ] ||
	fail "rw=write:16k should skip 16k after each IO"
"$IOWL" --name=n --ioengine=null --filename=x --size=1m --bs=4k --rw=randread --norandommap --loops=100 \
	--number_ios=5000 --write_iolog=n.log --eta=never > /dev/null || fail "norandommap"
check_region n.log 0 1048576 5000 || fail "norandommap region"
echo "iolog ok"
