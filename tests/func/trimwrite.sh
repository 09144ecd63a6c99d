#!/bin/sh
# rw=trimwrite and randtrimwrite on a loop device: every trim is followed by a write of the same
# block and size, io_size and number_ios count each direction (fio's meaning); the iolog, the JSON
# and the device's discard and write sectors compared with fio 3.33 on the same job.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
loop_device 16m
stat_of() { cat /sys/block/$name/stat; }
# sectors written and discarded between two stat lines
delta() { echo "$1" "$2" | awk '{ print "write_sectors", $24 - $7, "discard_sectors", $31 - $14 }'; }
js() { echo "$(jget "$1" jobs.0.trim.total_ios) $(jget "$1" jobs.0.trim.io_bytes) $(jget "$1" jobs.0.write.total_ios) $(jget "$1" jobs.0.write.io_bytes)"; }
for m in trimwrite randtrimwrite; do
	rm -f i.log f.log
	b=$(stat_of)
	"$IOWL" --eta=never --output-format=json --name=t --filename=$dev --size=1m --bs=4k --rw=$m \
		--direct=1 --write_iolog=i.log > i.json 2> err || { cat err; fail "$m"; }
	a=$(stat_of)
	[ "$(js i.json)" = "256 1048576 256 1048576" ] || fail "$m: trims and writes $(js i.json), expected 256 of 1 MiB each"
	[ "$(delta "$b" "$a")" = "write_sectors 2048 discard_sectors 2048" ] ||
		fail "$m: the device saw $(delta "$b" "$a"), expected 2048 and 2048"
	# each write follows the trim of its block; every block once
	awk '$2 == "trim" { t = $3 " " $4; n++ } $2 == "write" { if ($3 " " $4 != t) bad++; w++ }
	     END { exit !(n == 256 && w == 256 && !bad) }' i.log || fail "$m: a write does not follow its trim"
	[ "$(awk '$2 == "trim" { print $3 }' i.log | sort -u | wc -l)" = 256 ] || fail "$m: blocks trimmed twice"
	if have_fio; then
		b=$(stat_of)
		fio --output-format=json --name=t --filename=$dev --size=1m --bs=4k --rw=$m --direct=1 \
			--write_iolog=f.log > f.json 2> err || { cat err; fail "fio $m"; }
		a=$(stat_of)
		[ "$(js f.json)" = "$(js i.json)" ] || fail "$m: fio $(js f.json), iowl $(js i.json)"
		[ "$(delta "$b" "$a")" = "write_sectors 2048 discard_sectors 2048" ] ||
			fail "$m: fio's device counters $(delta "$b" "$a")"
		# fio's log is v3 (a time first): the same IOs, in the same order when sequential
		grep -E ' (trim|write) ' f.log | awk '{ print $3, $4, $5 }' > f.ops
		grep -E ' (trim|write) ' i.log | awk '{ print $2, $3, $4 }' > i.ops
		if [ $m = trimwrite ]; then
			cmp -s f.ops i.ops || fail "trimwrite: the iolog differs from fio's"
		else
			[ "$(sort f.ops | md5sum)" = "$(sort i.ops | md5sum)" ] || fail "randtrimwrite: other blocks than fio's"
		fi
	fi
done
# number_ios counts the trims: 10 of each, as fio.
"$IOWL" --eta=never --output-format=json --name=t --filename=$dev --size=1m --bs=4k --rw=trimwrite \
	--number_ios=10 > n.json 2> err || { cat err; fail "number_ios"; }
[ "$(js n.json)" = "10 40960 10 40960" ] || fail "number_ios=10: $(js n.json)"
echo "trimwrite and randtrimwrite trim then write each block, as fio 3.33"
