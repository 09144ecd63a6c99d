#!/bin/sh
# verify_async=N (fio's meaning): N threads of their own check the reads; the figures are those
# of inline verification, a corrupted byte is found at its offset (as fio finds it in the same
# file), the threads exist and run on verify_async_cpus.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
v() { jget "$1" "jobs.0.iowl.verify.$2"; }
w() { # w VA: a written and read-back file, verify_async=VA
	"$IOWL" --eta=never --output-format=json --name=w --filename=d --size=2m --bs=4k \
		--rw=randwrite --verify=crc32c --ioengine=libaio --iodepth=16 --verify_async="$1" \
		> "w$1.json" 2> err || { cat err; fail "write, verify_async=$1"; }
}
w 0
w 4
for k in units errors readback_units; do
	[ "$(v w0.json $k)" = "$(v w4.json $k)" ] || fail "verify_async=4: $k $(v w4.json $k), inline $(v w0.json $k)"
done
[ "$(v w4.json units)" = 512 ] && [ "$(v w4.json errors)" = 0 ] || fail "the read-back checked $(v w4.json units) units"
# One flipped byte: both find it, at the same offset and byte, with the same counts.
at=123457
b=$(od -An -tu1 -j $at -N1 d | tr -d ' ')
printf "$(printf '\\%03o' $((255 - b)))" | dd of=d bs=1 seek=$at conv=notrunc 2>/dev/null
for va in 0 3; do
	"$IOWL" --eta=never --output-format=json --name=r --filename=d --size=2m --bs=4k --rw=read \
		--verify=crc32c --ioengine=libaio --iodepth=8 --continue_on_error=verify \
		--verify_async=$va > "r$va.json" 2> err
	[ $? = 2 ] || { cat err; fail "verify_async=$va: a corrupted unit is not exit status 2"; }
	grep -q "first differing byte at +577 (offset $at)" err || { cat err; fail "verify_async=$va: the byte"; }
done
for k in units errors read_units first_failure.offset first_failure.byte first_failure.kind; do
	[ "$(v r0.json $k)" = "$(v r3.json $k)" ] || fail "verify_async=3: $k $(v r3.json $k), inline $(v r0.json $k)"
done
[ "$(v r3.json units)" = 512 ] && [ "$(v r3.json errors)" = 1 ] || fail "verify_async=3 counted $(v r3.json units)/$(v r3.json errors)"
# (fio's answer kept once given: tests/lib.sh's fio_kept)
if have_fio && ! fio_kept verify_async=3 "offset 122880"; then
	fio --name=r --filename=d --size=2m --bs=4k --rw=read --verify=crc32c --ioengine=libaio \
		--iodepth=8 --verify_async=3 > fio.out 2>&1
	grep -q "verify failed at file d offset 122880" fio.out || { cat fio.out; fail "fio does not find the unit at 122880"; }
	fio_keep verify_async=3 "offset 122880"
fi
# The threads: verify_async=2 makes two "iowl-verify" threads, on verify_async_cpus' CPU (the
# reads throttled: 3 s of them unthrottled spun a CPU)
dd if=/dev/zero of=d bs=1M count=2 conv=notrunc 2>/dev/null
w 0
"$IOWL" --eta=never --name=r --filename=d --size=2m --bs=4k --rw=read --verify=crc32c \
	--verify_async=2 --verify_async_cpus=0 --time_based --runtime=3 --rate_iops=2000 > r.out 2> err &
pid=$!
on_exit "kill $pid"
n=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	n=$(grep -l '^iowl-verify$' /proc/$pid/task/*/comm 2>/dev/null | wc -l)
	[ "$n" = 2 ] && break
	sleep 0.1
done
[ "$n" = 2 ] || fail "$n iowl-verify threads, expected 2"
for c in $(grep -l '^iowl-verify$' /proc/$pid/task/*/comm); do
	cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' "$(dirname "$c")/status")
	[ "$cpus" = 0 ] || fail "a verify thread runs on CPUs $cpus, expected 0"
done
wait $pid || { cat err; fail "the time_based read with verify_async"; }
# Bad values: FILE:LINE, exit 1.
expect_status 1 "$IOWL" --name=x --filename=d --size=1m --rw=read --verify=crc32c --verify_async=-1
expect_status 1 "$IOWL" --name=x --filename=d --size=1m --rw=read --verify=crc32c --verify_async_cpus=abc
exit 0
