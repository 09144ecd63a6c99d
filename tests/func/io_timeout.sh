#!/bin/sh
# The watchdog: IOs in flight that see no completion for io_timeout end the job with status 2
# and a message naming each (direction, offset, size, file, age).  A fake libaio device
# (tests/shim/aioshim.c) takes IOs after the first 20 and never completes them.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
shim="$SHIMS/aioshim.so"
[ -f "$shim" ] || fail "aio shim not built"
truncate -s 1m f
hang() { # status args...
	want=$1
	shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$shim" \
		IOWL_AIO_HANG=20 timeout 60 "$IOWL" --name=h --filename=f --ioengine=libaio \
		--size=1m --eta=never --output-format=json "$@" > o.json 2> err
	st=$?
	[ "$st" = "$want" ] || { cat err; fail "$*: status $st, expected $want"; }
}
hang 2 --rw=randread --iodepth=8 --io_timeout=1
grep -q "job 'h': no IO completed for 1\.[0-9] s (io_timeout=1\.0 s); 8 IOs in flight are stuck: read offset=[0-9]* size=4096 file 'f' for 1\.[0-9] s;" err ||
	{ cat err; fail "the stuck IOs are not named"; }
[ "$(grep -o "read offset=" err | wc -l)" = 8 ] || { cat err; fail "not every stuck IO is named"; }
[ "$(jget o.json jobs.0.read.total_ios)" = 20 ] || fail "completed IOs: $(jget o.json jobs.0.read.total_ios)"
[ "$(jget o.json jobs.0.error)" != 0 ] || fail "the job shows no error"
# Under a rate limit (the wait for the next IO's turn reaps), writes, a time_based job.
hang 2 --rw=randwrite --iodepth=4 --io_timeout=1 --rate_iops=200 --runtime=30 --time_based
grep -q "4 IOs in flight are stuck: write offset=" err || { cat err; fail "rated writes"; }
# More stuck IOs than the message holds: the oldest are named, the rest counted.
hang 2 --rw=randread --iodepth=64 --io_timeout=1
grep -q "64 IOs in flight are stuck: .*; and [0-9]* more$" err || { cat err; fail "64 stuck IOs"; }
# A synchronous engine blocked inside pread (tests/shim/faultshim.c: call 101 never returns) is
# watched by the main thread: the job ends with status 2 naming the IO; the other job of the
# phase runs to its end with its results, the stonewalled job after it is not run.  Without the
# watchdog the run never ends (timeout 60 kills it).  (The other job is throttled: unthrottled it
# spun a CPU for its 2 s, most of the test's CPU, and its results are kept all the same.)
fshim="$SHIMS/faultshim.so"
[ -f "$fshim" ] || fail "fault shim not built"
truncate -s 16m iowl-fault.dat other.dat
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$fshim" \
	IOWL_FAULT_HANG_AFTER=100 timeout 60 "$IOWL" --eta=never --output-format=json --io_timeout=1 \
	--name=h --filename=iowl-fault.dat --rw=randread --ioengine=psync --runtime=30 --time_based \
	--name=ok --filename=other.dat --rw=randread --ioengine=psync --runtime=2 --time_based --rate_iops=500 \
	--name=later --stonewall --filename=other.dat --size=1m > s.json 2> err
st=$?
[ "$st" = 2 ] || { cat err; fail "sync engine stuck in pread: status $st, expected 2"; }
grep -q "job 'h': a read at offset=[0-9]* size=4096 on file 'iowl-fault.dat' has not returned for [0-9.]* s (io_timeout=1.0 s)" err ||
	{ cat err; fail "the stuck pread is not named"; }
[ "$(jget s.json jobs.0.read.total_ios)" = 100 ] || fail "stuck job: $(jget s.json jobs.0.read.total_ios) IOs, expected the 100 done"
[ "$(jget s.json jobs.0.error)" = 110 ] || fail "stuck job: error $(jget s.json jobs.0.error), expected ETIMEDOUT"
# (its runtime is not judged: it counts from the phase's start, which a busy machine delays it from)
[ "$(jget s.json jobs.1.error)" = 0 ] && [ "$(jget s.json jobs.1.read.total_ios)" -gt 0 ] ||
	fail "the other job's results were not kept: error $(jget s.json jobs.1.error), $(jget s.json jobs.1.read.total_ios) IOs"
grep -q '"not_run": "a worker of an earlier phase' s.json || fail "the later phase is not said not run"
echo "sync engine stuck in a system call: status 2, named, others kept"
# A job that completes its IOs in time is not touched; io_timeout=0 turns the watchdog off.
"$IOWL" --name=ok --filename=f --ioengine=libaio --iodepth=8 --rw=randread --size=1m \
	--io_timeout=1 --eta=never > /dev/null 2> err || { cat err; fail "io_timeout=1 on a working file"; }
expect_status 0 "$IOWL" --parse-only --name=z --filename=f --size=1m --io_timeout=0
expect_status 1 "$IOWL" --parse-only --name=z --filename=f --size=1m --io_timeout=5x
echo "io_timeout ok"
