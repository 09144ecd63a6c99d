#!/bin/sh
# Every verify method: iowl writes and reads back, a flipped data byte is found at its offset, and
# the data crosses over with fio 3.33 both ways (fio verifies what iowl wrote, iowl what fio wrote;
# sha512 one way only, README).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
v() { jget "$1" "jobs.0.iowl.verify.$2"; }
flip() { # file offset: complements the byte
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((255 - b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
methods="md5 crc64 crc32c crc32c-intel crc32 crc16 crc7 xxhash sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 sha3-512 meta"
fio=0
have_fio && fio=1
for m in $methods pattern; do
	pat=
	[ $m = pattern ] && pat=--verify_pattern=0x5aa5
	rm -f d
	"$IOWL" --eta=never --output-format=json --name=w --filename=d --size=256k --bs=4k --rw=randwrite \
		--verify=$m $pat > w.json 2> err || { cat err; fail "$m: the write and read-back failed"; }
	[ "$(v w.json units)" = 64 ] && [ "$(v w.json errors)" = 0 ] ||
		fail "$m: $(v w.json units) units checked, $(v w.json errors) failed"
	if [ $fio = 1 ]; then
		fio --name=r --filename=d --size=256k --bs=4k --rw=read --verify=$m $pat --ioengine=psync \
			> fio.out 2>&1
		if [ $m = sha512 ]; then
			grep -q "sha512: verify failed" fio.out || fail "sha512: fio 3.33 accepted iowl's real digest?"
		else
			grep -q "err= 0" fio.out || { cat fio.out; fail "$m: fio 3.33 does not verify iowl's data"; }
		fi
		rm -f f
		fio --name=w --filename=f --size=64k --bs=4k --rw=write --verify=$m $pat --do_verify=0 \
			--ioengine=psync > /dev/null 2>&1 || fail "$m: fio write"
		"$IOWL" --eta=never --output-format=json --name=r --filename=f --bs=4k --rw=read \
			--verify=$m $pat > r.json 2> err || { cat err; fail "$m: iowl does not verify fio's data"; }
		[ "$(v r.json units)" = 16 ] || fail "$m: $(v r.json units) of fio's 16 units checked"
	fi
	[ $m = meta ] && continue	# the header alone: data is not checked (fio's meaning)
	flip d $((5 * 4096 + 2000))
	"$IOWL" --eta=never --output-format=json --name=r --filename=d --bs=4k --rw=read --verify=$m $pat \
		> r.json 2> err
	[ $? = 2 ] && grep -q "verify failed on '.*d' at offset=20480, length=4096: corrupt payload; first differing byte at +2000 (offset 22480)" err ||
		{ cat err; fail "$m: a flipped byte at 22480 not found"; }
done
# meta checks the header: a flipped offset byte is found.
"$IOWL" --eta=never --name=w --filename=d --size=256k --bs=4k --rw=write --verify=meta > /dev/null 2>&1 ||
	fail "meta write"
flip d $((7 * 4096 + 17))
"$IOWL" --eta=never --name=r --filename=d --bs=4k --rw=read --verify=meta > /dev/null 2> err
[ $? = 2 ] && grep -q "at offset=28672, length=4096: header checksum mismatch; first differing byte at +17" err ||
	{ cat err; fail "meta: a flipped header byte not found"; }
# null pretends: reads back, checks nothing, counts nothing.
"$IOWL" --eta=never --output-format=json --name=n --filename=d --size=256k --bs=4k --rw=write \
	--verify=null > n.json 2> err || { cat err; fail "null"; }
[ "$(jget n.json jobs.0.read.total_ios)" = 64 ] && [ "$(v n.json units)" = 0 ] ||
	fail "verify=null: $(jget n.json jobs.0.read.total_ios) reads, $(v n.json units) units"
[ $fio = 1 ] || skip "fio 3.33 not installed: the methods work, the crossing with fio is not tested"
echo "every verify method detects a flipped byte and crosses over with fio 3.33"
