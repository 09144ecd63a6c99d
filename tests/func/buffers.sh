#!/bin/sh
# Write buffer contents with fio's meaning, counted on the written file (tests/helpers/blkuniq):
# every block unique by default (scramble_buffers=1), dedupe_percentage, buffer_compress_percentage
# measured by gzip, zero_buffers, buffer_pattern byte for byte as fio 3.33 writes it.
. "$(dirname "$0")/../lib.sh"
BLKUNIQ=$(cd "$HELPERS" && pwd)/blkuniq
cd "$SCRATCH" || fail "cd"
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
uniq_of() { "$BLKUNIQ" 4096 "$@" | awk '{ print $4 }'; }
write() { # FILE OPTIONS...: a sequential write of 16 MiB (4096 blocks of 4 KiB)
	f=$1; shift
	rm -f "$f"
	"$IOWL" --name=w --filename="$f" --size=16m --bs=4k --rw=write --eta=never "$@" > out 2> err ||
		{ cat err; fail "iowl $*"; }
}
write d
[ "$(uniq_of d)" = 4096 ] || fail "default: $("$BLKUNIQ" 4096 d), every block should be unique"
write d --bs=64k --ioengine=io_uring --iodepth=8
[ "$(uniq_of d)" = 4096 ] || fail "bs=64k: $("$BLKUNIQ" 4096 d), every 4 KiB block should be unique"
write d --rw=randwrite --norandommap --number_ios=4096 --ioengine=libaio --iodepth=4
# rewrites of a block at another time are new contents too: every write is unique
[ "$("$BLKUNIQ" 4096 d | awk '{ print $4 == $2 - $8 + ($8 > 0) }')" = 1 ] || fail "randwrite: $("$BLKUNIQ" 4096 d)"
write s --scramble_buffers=0
[ "$(uniq_of s)" -le 1 ] || fail "scramble_buffers=0: $("$BLKUNIQ" 4096 s), expected one repeated block"
write r --scramble_buffers=0 --refill_buffers
[ "$(uniq_of r)" = 4096 ] || fail "refill_buffers: $("$BLKUNIQ" 4096 r)"
write z --zero_buffers
[ "$("$BLKUNIQ" 4096 z | awk '{ print $8 }')" = 4096 ] || fail "zero_buffers: $("$BLKUNIQ" 4096 z)"
write z --zero_buffers --scramble_buffers=1
[ "$(uniq_of z)" = 4096 ] || fail "zero_buffers scramble_buffers=1 (fio scrambles them): $("$BLKUNIQ" 4096 z)"
# dedupe_percentage=40: 60 % of the writes are new data, the rest repeat one
for mode in repeat working_set; do
	ws=""
	[ $mode = working_set ] && ws=--dedupe_working_set_percentage=10
	write u --dedupe_percentage=40 --dedupe_mode=$mode $ws
	u=$(uniq_of u)
	within "$u" 2335 2580 || fail "dedupe_percentage=40 ($mode): $u of 4096 unique, expected 60 +-3 %"
done
# working_set: the repeated contents come from the first 10 % of the region (409 blocks)
[ "$("$BLKUNIQ" 4096 u | awk '{ print $6 }')" -le 409 ] || fail "working set: $("$BLKUNIQ" 4096 u)"
# clones write their own data (refill_buffers seeded per clone)
rm -f c.*
"$IOWL" --name=c --size=4m --bs=4k --rw=write --numjobs=2 --refill_buffers --scramble_buffers=0 \
	--eta=never > out || fail "numjobs=2"
[ "$(uniq_of c.*)" = 2048 ] || fail "two clones: $("$BLKUNIQ" 4096 c.*), expected 2048 unique"
# buffer_compress_percentage: gzip takes the share off, +-2 % (gzip -1: a third less CPU than -6,
# the share saved within 0.3 % of -6's: 29.36/29.13, 49.34/49.10, 73.89/73.80 %).  2 MiB of it
# (the last --size wins): gzip saves the same share to 0.01 % as of 16 MiB, for an eighth of
# the CPU (0.4 s a file).
for pct in 30 50 75; do
	write g --buffer_compress_percentage=$pct --size=2m
	gz=$(gzip -1 -c g | wc -c)
	saved=$(awk -v gz="$gz" 'BEGIN { printf "%.2f", 100 - 100 * gz / 2097152 }')
	within "$saved" $((pct - 2)) $((pct + 2)) ||
		fail "buffer_compress_percentage=$pct: gzip saved $saved %"
	[ "$(uniq_of g)" = 512 ] || fail "compressible blocks are unique too: $("$BLKUNIQ" 4096 g)"
done
write g --buffer_compress_percentage=50 --buffer_compress_chunk=4k --size=2m
gz=$(gzip -1 -c g | wc -c)
within "$(awk -v gz="$gz" 'BEGIN { print 100 - 100 * gz / 2097152 }')" 48 52 || fail "chunk 4k: gzip $gz"
# buffer_pattern: fio's syntax, and the bytes fio writes
write p '--buffer_pattern=0xdeadbeef"abc"-12'
[ "$(od -An -tx1 -N16 p | tr -d ' \n')" = deadbeef616263f4ffffffdeadbeef61 ] ||
	fail "buffer_pattern: $(od -An -tx1 -N16 p)"
[ "$(uniq_of p)" = 1 ] || fail "buffer_pattern turns scrambling off as in fio: $("$BLKUNIQ" 4096 p)"
# (random bytes, the same every run: fio's bytes for the pattern can be kept, below)
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 1000; i++) printf "%c", int(rand() * 256) }' > pat.bin
[ "$(wc -c < pat.bin)" = 1000 ] || fail "pat.bin: $(wc -c < pat.bin) bytes"
write p2 "--buffer_pattern=0x01'pat.bin'"
# a job that reads refills the pattern before each write (reads land in the same buffers): every
# block it wrote holds the pattern, the rest is the layout's data (every block unique)
write p3 --rw=randrw --buffer_pattern=\"xyz\" --number_ios=2000 --write_iolog=p3.log
w=$(awk '$2 == "write" { print $3 }' p3.log | sort -u | wc -l)
[ "$("$BLKUNIQ" 4096 p3 | awk '{ print $6 "/" $2 - $4 + 1 }')" = "1/$w" ] ||
	fail "randrw buffer_pattern: $("$BLKUNIQ" 4096 p3), $w blocks written"
expect_status 1 "$IOWL" --name=w --filename=x --size=1m --rw=write '--buffer_pattern=0xab|0xcd'
grep -q "buffer_pattern" "$SCRATCH/err" || fail "'|' in a pattern: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --name=w --filename=x --size=1m --rw=write --verify=crc32c --dedupe_percentage=10
grep -q "dedupe_percentage" "$SCRATCH/err" || fail "verify with dedupe: $(cat "$SCRATCH/err")"
# (fio's bytes are kept as their MD5 with the question, tests/lib.sh's fio_kept: iowl's bytes
# have the MD5 fio's had; 1 MiB of them, the pattern repeats)
if have_fio; then
	for pat in '0xdeadbeef"abc"-12' "0x01'pat.bin'" '"abcd"'; do
		for extra in "" "--bs=8k" "--buffer_compress_percentage=100"; do
			write i --size=1m "--buffer_pattern=$pat" $extra
			sum=$(md5sum < i)
			fio_kept buffer_pattern "$pat" "$extra" "$sum" && continue
			rm -f f
			fio --name=w --filename=f --size=1m --bs=4k --rw=write "--buffer_pattern=$pat" $extra \
				--output=/dev/null || fail "fio $pat"
			cmp -s i f || fail "buffer_pattern=$pat $extra: iowl's bytes differ from fio's ($(cmp i f))"
			fio_keep buffer_pattern "$pat" "$extra" "$sum"
		done
	done
	echo "buffer_pattern: the same bytes as fio 3.33"
fi
echo "buffers ok"
