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
	--bssplit=4k/50:64k/50 --loops=100 --number_ios=15 --write_iolog=m.log --eta=never > /dev/null || fail "mixed"
check_region m.log 1048576 2097152 1500 || fail "mixed sizes"
"$IOWL" --name=s --ioengine=null --filename=x --size=1m --rw=write --bs=16k:0 \
	--write_iolog=s.log --eta=never > /dev/null 2>&1 && fail "bs=16k:0 accepted"
"$IOWL" --name=s --ioengine=null --filename=x --size=1m --rw=write:16k --bs=16k \
	--write_iolog=s.log --eta=never > /dev/null || fail "rw=write:16k"
[ "$(awk '$2 == "write" { print $3 }' s.log | head -3 | tr '\n' ' ')" = "0 32768 65536 " ] ||
	fail "rw=write:16k should skip 16k after each IO"
"$IOWL" --name=n --ioengine=null --filename=x --size=1m --bs=4k --rw=randread --norandommap --loops=20 \
	--number_ios=5000 --write_iolog=n.log --eta=never > /dev/null || fail "norandommap"
check_region n.log 0 1048576 5120 || fail "norandommap region"
# (number_ios counts per loop, and a loop also ends after its bytes, as in fio.)
# A zoned distribution and a job of streams with their own ranges stay inside the region too.
"$IOWL" --name=z --ioengine=null --filename=x --size=2m --offset=3m --bs=4k --rw=randrw \
	--random_distribution=zoned:60/10:30/30:10/60 --loops=10 --number_ios=300 \
	--write_iolog=z.log --eta=never > /dev/null || fail "zoned"
check_region z.log 3145728 $((3145728 + 2097152)) 3000 || fail "zoned region"
printf '[s]\nioengine=null\nfilename=x\nsize=4m\noffset=8m\nloops=100\nnumber_ios=30\nwrite_iolog=s2.log\nstream=hot\nrw=randwrite\noffset=25%%\nsize=10%%\nbssplit=4k/50:64k/50\nstream=walk\nrw=read\nwalkers=2\npercentage_random=5\nbs=128k\n' > s2.ini
"$IOWL" --eta=never s2.ini > /dev/null || fail "streams"
check_region s2.log 8388608 $((8388608 + 4194304)) 3000 || fail "streams region"
awk '$2 == "write" && ($3 < 8388608 + 1048576 || $3 + $4 > 8388608 + 1048576 + 419430) { print; bad = 1 } END { exit bad }' s2.log ||
	fail "a stream's IO left its range"
echo "iolog ok"
