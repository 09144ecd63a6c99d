#!/bin/sh
# IO errors and interruptions: ENOSPC on a small tmpfs, injected EIO, short transfers and EINTR, continue_on_error.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"

# Injected EIO at a known offset: status 2, the first error names file, offset, length, direction.
truncate -s 1m iowl-fault.dat
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=262144 "$IOWL" --name=e --filename=iowl-fault.dat \
	--rw=read --bs=64k --ioengine=psync --output-format=json --eta=never > e.json 2> e.err
rc=$?
[ "$rc" = 2 ] || { cat e.err; fail "EIO gave status $rc, expected 2"; }
grep -q "io error on '.*iowl-fault.dat': read offset=262144, length=65536: Input/output error" e.err ||
	{ cat e.err; fail "EIO report"; }
[ "$(jget e.json jobs.0.error)" = 5 ] || fail "JSON error field"
[ "$(jget e.json jobs.0.iowl.first_error.offset)" = 262144 ] || fail "JSON first_error offset"
[ "$(jget e.json jobs.0.iowl.first_error.direction)" = read ] || fail "JSON first_error direction"
[ "$(jget e.json jobs.0.read.total_ios)" = 4 ] || fail "the job should stop at the first error"

# continue_on_error=read goes on: 15 of 16 reads complete, one error counted, still status 2.
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=262144 "$IOWL" --name=e --filename=iowl-fault.dat \
	--rw=read --bs=64k --ioengine=sync --continue_on_error=read --output-format=json \
	--eta=never > c.json 2> c.err
[ $? = 2 ] || fail "continue_on_error: status"
[ "$(jget c.json jobs.0.read.total_ios)" = 15 ] || fail "continue_on_error: reads $(jget c.json jobs.0.read.total_ios)"
[ "$(jget c.json jobs.0.total_err)" = 1 ] || fail "total_err"
[ "$(jget c.json jobs.0.first_error)" = 5 ] || fail "first_error errno"

# Short transfers and EINTR are completed transparently: every byte is read, short_ios counted.
LD_PRELOAD="$shim" IOWL_FAULT_SHORT_EVERY=3 IOWL_FAULT_EINTR_EVERY=7 "$IOWL" --name=s \
	--filename=iowl-fault.dat --rw=randread --bs=64k --ioengine=psync --output-format=json \
	--eta=never > s.json 2> s.err || { cat s.err; fail "short/EINTR run failed"; }
[ "$(jget s.json jobs.0.read.io_bytes)" = 1048576 ] || fail "short IOs: bytes $(jget s.json jobs.0.read.io_bytes)"
[ "$(jget s.json jobs.0.read.total_ios)" = 16 ] || fail "short IOs: count"
[ "$(jget s.json jobs.0.read.short_ios)" -gt 0 ] || fail "short IOs not counted"

# ENOSPC on a small tmpfs.
[ "$(id -u)" = 0 ] || skip "ENOSPC part needs root to mount a small tmpfs"
mkdir small && mount -t tmpfs -o size=1m tmpfs small 2>/dev/null || skip "cannot mount tmpfs"
on_exit "umount $SCRATCH/small"
truncate -s 8m small/f
"$IOWL" --name=w --filename=small/f --rw=write --bs=64k --ioengine=psync \
	--output-format=json --eta=never > n.json 2> n.err
rc=$?
[ "$rc" = 2 ] || { cat n.err; fail "ENOSPC gave status $rc"; }
grep -q "io error on '.*small/f': write offset=[0-9]*, length=[0-9]*: No space left on device" n.err ||
	{ cat n.err; fail "ENOSPC report"; }
[ "$(jget n.json jobs.0.error)" = 28 ] || fail "ENOSPC errno in JSON"
echo "io errors ok"
