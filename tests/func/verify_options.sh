#!/bin/sh
# verify_offset (the bytes fio writes: fio verifies them), verify_dump's files, verify_backlog_batch
# counted as fio 3.33 counts it, experimental_verify's read-back, and the later fio options refused.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
v() { jget "$1" "jobs.0.iowl.verify.$2"; }
"$IOWL" --eta=never --output-format=json --name=w --filename=d --size=256k --bs=4k --rw=randwrite \
	--verify=md5 --verify_offset=1000 > w.json 2> err || { cat err; fail "verify_offset write"; }
[ "$(v w.json units)" = 64 ] && [ "$(v w.json errors)" = 0 ] || fail "verify_offset read-back"
# The header is at byte 1000 of every unit (fio's magic 0xacca, md5's type 2).
[ "$(od -An -tx1 -j $((5 * 4096 + 1000)) -N4 d | tr -d ' ')" = caac0200 ] || fail "no header at +1000"
if have_fio; then
	fio --name=r --filename=d --size=256k --bs=4k --rw=read --verify=md5 --verify_offset=1000 \
		--ioengine=psync > fio.out 2>&1
	grep -q "err= 0" fio.out || { cat fio.out; fail "fio does not verify iowl's verify_offset data"; }
fi
cp d orig
b=$(od -An -tu1 -j $((3 * 4096 + 3000)) -N1 d | tr -d ' ')
printf "$(printf '\\%03o' $((255 - b)))" | dd of=d bs=1 seek=$((3 * 4096 + 3000)) conv=notrunc 2>/dev/null
mkdir dump && cd dump || fail "mkdir"
"$IOWL" --eta=never --name=r --filename=../d --bs=4k --rw=read --verify=md5 --verify_offset=1000 \
	--verify_dump=1 > /dev/null 2> err
[ $? = 2 ] && [ -f d.12288.received ] && [ -f d.12288.expected ] || { ls; cat err; fail "verify_dump files"; }
[ "$(ls | grep -c 'received\|expected')" = 2 ] || fail "verify_dump wrote more than the failed unit"
# received differs from expected in the flipped byte only.
[ "$(cmp -l d.12288.received d.12288.expected | wc -l)" = 1 ] &&
	cmp -l d.12288.received d.12288.expected | grep -q "^ *3001 " || fail "the dumps differ elsewhere"
cd .. || fail "cd"
expect_status 1 "$IOWL" --name=x --filename=d --size=256k --rw=write --verify=md5 --verify_offset=10
expect_status 1 "$IOWL" --name=x --filename=d --size=256k --rw=write --verify=md5 --verify_offset=4050
expect_status 1 "$IOWL" --name=x --filename=d --size=256k --rw=write --verify=pattern \
	--verify_pattern=0x11 --verify_offset=100
# verify_backlog_batch: fio 3.33 reads every write once whatever the batch (256 reads for 256).
for batch in 16 64 100; do
	rm -f d
	"$IOWL" --eta=never --output-format=json --name=b --filename=d --size=1m --bs=4k --rw=write \
		--verify=crc32c --verify_backlog=64 --verify_backlog_batch=$batch > b.json 2> err ||
		{ cat err; fail "verify_backlog_batch=$batch"; }
	[ "$(jget b.json jobs.0.read.total_ios)" = 256 ] && [ "$(v b.json errors)" = 0 ] ||
		fail "verify_backlog_batch=$batch: $(jget b.json jobs.0.read.total_ios) reads, expected 256 (fio)"
	[ $batch != 16 ] || [ $(( $(v b.json backlog_units) % 16 )) = 0 ] ||
		fail "verify_backlog_batch=16: $(v b.json backlog_units) read while writing, not rounds of 16"
done
# experimental_verify: the same read-back.
rm -f d
"$IOWL" --eta=never --output-format=json --name=e --filename=d --size=1m --bs=4k --rw=randwrite \
	--verify=xxhash --experimental_verify=1 > e.json 2> err || { cat err; fail "experimental_verify"; }
[ "$(v e.json readback_units)" = 256 ] && [ "$(v e.json errors)" = 0 ] || fail "experimental_verify read-back"
for o in verify_write_sequence verify_header_seed; do
	"$IOWL" --name=x --filename=d --size=1m --rw=write --$o=1 > /dev/null 2> err
	[ $? = 1 ] && grep -q "$o.*not a fio 3.33 option" err || { cat err; fail "$o not refused by name"; }
done
# verify_only: the writes are replayed without IO (counted, as fio counts them) and every unit
# they cover is read and checked on its own; the file is left as it was.
rm -f d
"$IOWL" --eta=never --name=w --filename=d --size=256k --bs=4k --rw=randwrite --verify=md5 \
	--do_verify=0 > /dev/null 2> err || { cat err; fail "write for verify_only"; }
sum=$(md5sum < d)
"$IOWL" --eta=never --output-format=json --name=w --filename=d --size=256k --bs=4k --rw=randwrite \
	--verify=md5 --verify_only=1 > o.json 2> err || { cat err; fail "verify_only"; }
[ "$(jget o.json jobs.0.read.total_ios) $(jget o.json jobs.0.write.total_ios) $(v o.json units) $(v o.json errors)" = "64 64 64 0" ] ||
	fail "verify_only: $(jget o.json jobs.0.read.total_ios) reads, $(jget o.json jobs.0.write.total_ios) writes, $(v o.json units) units, $(v o.json errors) failed; expected 64 64 64 0"
[ "$(md5sum < d)" = "$sum" ] || fail "verify_only wrote"
if have_fio; then
	fio --name=w --filename=d --size=256k --bs=4k --rw=randwrite --verify=md5 --verify_only \
		> fio.out 2>&1
	grep -q "err= 0" fio.out || { cat fio.out; fail "fio --verify_only on iowl's data"; }
	rm -f f
	fio --name=w --filename=f --size=256k --bs=4k --rw=randwrite --verify=sha1 --do_verify=0 \
		> /dev/null 2>&1 || fail "fio write"
	"$IOWL" --eta=never --output-format=json --name=w --filename=f --size=256k --bs=4k \
		--rw=randwrite --verify=sha1 --verify_only=1 > o.json 2> err || { cat err; fail "iowl --verify_only on fio's data"; }
	[ "$(v o.json units)" = 64 ] || fail "verify_only on fio's data: $(v o.json units) units"
fi
b=$(od -An -tu1 -j $((9 * 4096 + 100)) -N1 d | tr -d ' ')
printf "$(printf '\\%03o' $((255 - b)))" | dd of=d bs=1 seek=$((9 * 4096 + 100)) conv=notrunc 2>/dev/null
"$IOWL" --eta=never --name=w --filename=d --size=256k --bs=4k --rw=randwrite --verify=md5 \
	--verify_only=1 > /dev/null 2> err
[ $? = 2 ] && grep -q "at offset=36864, length=4096: corrupt payload; first differing byte at +100" err ||
	{ cat err; fail "verify_only: the flipped byte not found"; }
expect_status 1 "$IOWL" --name=w --filename=d --size=256k --rw=randwrite --verify=md5 --verify_only=1 \
	--time_based --runtime=1
echo "verify_only, verify_offset, verify_dump, verify_backlog_batch and experimental_verify as fio 3.33"
