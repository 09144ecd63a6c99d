#!/bin/sh
# --assert: one that holds passes with 0, one that cannot hold fails with 3 and says why, a bad one is 1.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# (its 262144 IOs, not a second of a spinning CPU: every figure asserted is there either way)
run() { "$IOWL" --name=a --ioengine=null --size=1g --rw=randrw --runtime=1 \
	--eta=never --output-format=json "$@"; }
expect_status 0 run --assert 'read.iops>=1000' --assert 'total.ios>1k' --assert errors==0 \
	--assert 'a:read.clat.p99<=1s' --assert 'write.bw>=1MiB/s'
expect_status 3 run --assert 'read.iops>=1000' --assert 'read.iops>=1000g' --assert 'nojob:errors==0'
grep -q "assertion 'read.iops>=1000g' failed for job 'a' (clone 0): measured .*, expected >= 1e+12" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "failure message"; }
grep -q "names no reported job 'nojob'" "$SCRATCH/err" || fail "unknown job message"
grep -q "read.iops>=1000'" "$SCRATCH/err" && fail "a holding assertion was reported"
[ "$(jget "$SCRATCH/out" jobs.0.read.total_ios)" -gt 0 ] || fail "results not printed before the assertions"
expect_status 1 run --assert 'read.iopz>=1'
grep -q "unknown figure 'read.iopz'" "$SCRATCH/err" || fail "bad assertion message"
# A loop device smoke test as README shows it: the run works and its figures can be asserted
# (with bounds any machine meets, also a loaded one under ThreadSanitizer).
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1; then
	truncate -s 256m /dev/shm/iowl-assert.$$ && on_exit "rm -f /dev/shm/iowl-assert.$$"
	dev=$(losetup -f --show /dev/shm/iowl-assert.$$) && on_exit "losetup -d $dev"
	expect_status 0 "$IOWL" --name=smoke --filename="$dev" --ioengine=io_uring --direct=1 \
		--iodepth=32 --rw=randrw --bs=4k --runtime=2 --time_based --eta=never \
		--output-format=json --assert 'read.iops>=10' --assert 'write.clat.p99<=30s' \
		--assert errors==0
fi
echo "assert ok"
