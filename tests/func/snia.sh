#!/bin/sh
# The SNIA hot-band jobs run with direct=1 on loop devices of 512- and 4096-byte logical blocks
# and on a file: the percentage offset= and size= of the streams are rounded down to their
# blocks (and the rounding is reported), and --parse-only refuses a stream misaligned in bytes.
. "$(dirname "$0")/../lib.sh"
jobs=$(cd "$(dirname "$0")/../../jobs" && pwd) || fail "no jobs directory"
cd "$SCRATCH" || fail "cd"
# 100 MiB + 4 KiB: 10 % of it is not a multiple of 512, so every hot band must be rounded.
size=104861696
# run TARGET EXTRA...: both job files for a short while; both must do IO without an error
run() {
	target=$1; shift
	for j in snia-hotband snia-hotband-vdbench; do
		IOWL_DEV=$target "$IOWL" --eta=never --output-format=json --set runtime=300ms \
			--set ramp_time=0 "$@" "$jobs/$j.ini" > "$j.json" 2> "$j.err"
		rc=$?
		[ $rc = 0 ] || { cat "$j.err"; fail "$j on $target ($*): exit status $rc"; }
		[ "$(jget "$j.json" jobs.0.error)" = 0 ] || fail "$j on $target: error $(jget "$j.json" jobs.0.error)"
		r=$(jget "$j.json" jobs.0.read.total_ios); w=$(jget "$j.json" jobs.0.write.total_ios)
		[ "$r" -gt 0 ] && [ "$w" -gt 0 ] || fail "$j on $target: $r reads, $w writes"
		echo "$j on $target $*: $r reads, $w writes"
	done
}
# A file first (no root needed), where the file system takes O_DIRECT.
truncate -s $size target.img
if dd if=target.img of=/dev/null bs=4096 count=1 iflag=direct 2>/dev/null; then
	run "$SCRATCH/target.img"
else
	echo "skip the file: $(stat -f -c %T .) does not take O_DIRECT"
fi
IOWL_DEV=$SCRATCH/target.img "$IOWL" --parse-only "$jobs/snia-hotband.ini" > notes 2> err ||
	{ cat err; fail "--parse-only of the hot-band job"; }
grep -q "stream 'hot1': offset=10% of the job's region is .* rounded down to" notes || { cat notes err; fail "the rounding of hot1 is not reported"; }
[ -s err ] && { cat err; fail "--parse-only wrote to stderr"; }
printf '[s]\nfilename=%s\ndirect=1\nsize=1m\nstream=a\nrw=randread\noffset=1000\nsize=64k\n' "$SCRATCH/target.img" > bad.ini
"$IOWL" --parse-only bad.ini 2> err && fail "a stream at byte 1000 with direct=1 passed --parse-only"
grep -q "bad.ini:5:.*stream 'a'.*1000" err || { cat err; fail "misaligned stream: message does not name it"; }

loop_device $size
run "$dev"
d512=$dev
loop_device $size 4096
[ "$(blockdev --getss "$dev")" = 4096 ] || skip "losetup --sector-size 4096 made $(blockdev --getss "$dev")-byte sectors"
run "$dev" --set bs_roundup=1
# The job's own percentages are rounded as fio rounds them (offset up, size down), to whole
# logical blocks where bs_roundup lets the block size be smaller.
"$IOWL" --name=pct --filename="$dev" --direct=1 --bs=512 --bs_roundup=1 --offset=10% --size=10% \
	--rw=randread --number_ios=100 --write_iolog=pct.log > pct.out 2> pct.err ||
	{ cat pct.err; fail "offset=10% size=10% with 512-byte blocks rounded up to 4096"; }
[ "$(awk '$2 == "read" && ($3 % 4096 || $3 < 10489856)' pct.log | wc -l)" = 0 ] ||
	fail "offset=10% on a 4096-byte-sector device: reads not on 4 KiB blocks from 10489856"
echo "hot band jobs run with direct=1 on $d512 (512) and $dev (4096)"
