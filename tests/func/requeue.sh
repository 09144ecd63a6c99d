#!/bin/sh
# Short completions are finished, however many come back in one reap batch: a fake libaio
# device (tests/shim/aioshim.c) completes every transfer above 512 bytes half done, at iodepth 8
# with iodepth_batch_complete_max=8; every IO completes and the byte counts are exact.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
shim="$SHIMS/aioshim.so"
[ -f "$shim" ] || fail "aio shim not built"
truncate -s 1m f
aio() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$shim" \
		IOWL_AIO_SHORT=1 timeout 60 "$IOWL" --name=s --filename=f --ioengine=libaio \
		--iodepth=8 --iodepth_batch_complete_max=8 --size=1m --eta=never \
		--output-format=json "$@" > o.json 2> err || { cat err; fail "$*: status $?"; }
}
for args in "--rw=randread --bs=4k" "--rw=write --bs=4k" "--rw=randrw --bs=8k" \
	"--rw=read --bs=4k --iodepth_batch_submit=8" "--rw=randwrite --bs=16k --iodepth_batch_complete_min=4"; do
	# shellcheck disable=SC2086
	aio $args
	r=$(jget o.json jobs.0.read.io_bytes) w=$(jget o.json jobs.0.write.io_bytes)
	[ $((r + w)) = 1048576 ] || fail "$args: read $r + wrote $w bytes of 1048576"
	bs=${args##*--bs=}; bs=${bs%% *}; bs=${bs%k}
	ios=$(( $(jget o.json jobs.0.read.total_ios) + $(jget o.json jobs.0.write.total_ios) ))
	[ "$ios" = $((1024 / bs)) ] || fail "$args: $ios IOs completed, expected $((1024 / bs))"
	[ "$(jget o.json jobs.0.iowl.errors)" = 0 ] || fail "$args: errors"
done
# With verify: every block written, read back and found right, no spin to a deadline.
aio --rw=randwrite --bs=4k --verify=crc32c
[ "$(jget o.json jobs.0.write.io_bytes)" = 1048576 ] || fail "verify: wrote $(jget o.json jobs.0.write.io_bytes)"
grep -qi "verif.*fail\|mismatch" err && { cat err; fail "verify failed"; }
echo "requeue ok"
