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
methods="md5 crc64 crc32c crc32c-intel crc32 crc16 crc7 xxhash sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 sha3-512 meta pattern"
pat() { [ $1 = pattern ] && echo "verify_pattern=0x5aa5"; }
fio=0
have_fio && fio=1
# iowl writes a file per method and reads it back.
for m in $methods; do
	"$IOWL" --eta=never --output-format=json --name=w --filename=$m.i --size=256k --bs=4k \
		--rw=randwrite --verify=$m $( [ $m = pattern ] && echo --verify_pattern=0x5aa5) \
		> w.json 2> err || { cat err; fail "$m: the write and read-back failed"; }
	[ "$(v w.json units)" = 64 ] && [ "$(v w.json errors)" = 0 ] ||
		fail "$m: $(v w.json units) units checked, $(v w.json errors) failed"
done
if [ $fio = 1 ]; then
	# One fio run reads all of iowl's files, one writes a file per method (one job each).
	: > r.fio
	: > w.fio
	for m in $methods; do
		printf '[%s]\nfilename=%s.i\nsize=256k\nbs=4k\nrw=read\nverify=%s\n%s\nioengine=psync\n' \
			$m $m $m "$(pat $m)" >> r.fio
		printf '[%s]\nfilename=%s.f\nsize=64k\nbs=4k\nrw=write\nverify=%s\n%s\ndo_verify=0\nioengine=psync\n' \
			$m $m $m "$(pat $m)" >> w.fio
	done
	# (fio's verdicts on iowl's files are kept once given, with the MD5 of the files in the
	# question: tests/lib.sh's fio_kept)
	files=$(for m in $methods; do cat $m.i; done | md5sum)
	if ! fio_kept read "iowl's files $files"; then
		fio --output-format=json --output=r.json r.fio > fio.err 2>&1
		for m in $methods; do
			e=$(jget r.json "jobs.$(echo $methods | tr ' ' '\n' | grep -nx -- "$m" | cut -d: -f1 | awk '{ print $1 - 1 }').error")
			if [ $m = sha512 ]; then
				[ "$e" = 84 ] || fail "sha512: fio 3.33 accepted iowl's real digest? (error $e)"
			else
				[ "$e" = 0 ] || { cat fio.err; fail "$m: fio 3.33 does not verify iowl's data (error $e)"; }
			fi
		done
		fio_keep read "iowl's files $files"
	fi
	fio w.fio > /dev/null 2>&1 || fail "fio writes"
	for m in $methods; do
		"$IOWL" --eta=never --output-format=json --name=r --filename=$m.f --bs=4k --rw=read \
			--verify=$m $( [ $m = pattern ] && echo --verify_pattern=0x5aa5) > r.json 2> err ||
			{ cat err; fail "$m: iowl does not verify fio's data"; }
		[ "$(v r.json units)" = 16 ] || fail "$m: $(v r.json units) of fio's 16 units checked"
	done
fi
# A flipped data byte is found at its offset (not by meta: the header alone, fio's meaning).
for m in $methods; do
	[ $m = meta ] && continue
	flip $m.i $((5 * 4096 + 2000))
	"$IOWL" --eta=never --output-format=json --name=r --filename=$m.i --bs=4k --rw=read --verify=$m \
		$( [ $m = pattern ] && echo --verify_pattern=0x5aa5) > r.json 2> err
	[ $? = 2 ] && grep -q "verify failed on '$m.i' at offset=20480, length=4096: corrupt payload; first differing byte at +2000 (offset 22480)" err ||
		{ cat err; fail "$m: a flipped byte at 22480 not found"; }
done
rm -f d
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
