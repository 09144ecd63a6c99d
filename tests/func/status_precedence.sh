#!/bin/sh
# An IO error outranks a failed --assert in the exit status (2, not 3) on every path that adds
# statuses up: a plain run, a worker_ramp run, a --sweep and a --curve whose points differ.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"
never='read.iops>=1000000000000'	# an assertion no run meets
truncate -s 64m iowl-fault.dat

# A plain run and a worker_ramp run: the read at 16 KiB fails and the assertion fails too.
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=16384 "$IOWL" --name=e --filename=iowl-fault.dat \
	--rw=read --bs=4k --size=64k --ioengine=psync --eta=never --assert "$never" > /dev/null 2> e.err
rc=$?
[ "$rc" = 2 ] || { cat e.err; fail "run: IO error and failed assert gave $rc, expected 2"; }
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=16384 "$IOWL" --name=r --filename=iowl-fault.dat \
	--rw=read --bs=4k --size=64k --ioengine=psync --numjobs=2 --worker_ramp=100ms --runtime=1 \
	--eta=never --assert "$never" > /dev/null 2> r.err
rc=$?
[ "$rc" = 2 ] || { cat r.err; fail "worker_ramp: IO error and failed assert gave $rc, expected 2"; }

# A sweep whose first point stops short of the bad offset (its assertion fails: 3) and whose
# second point reaches it (2): the sweep ends with 2.
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=16384 "$IOWL" --name=s --filename=iowl-fault.dat \
	--rw=read --bs=4k --ioengine=psync --eta=never --assert "$never" --sweep size=8k,32k \
	--output-format=json > s.json 2> s.err
rc=$?
[ "$(jget s.json points.0.status)" = 3 ] || { cat s.err; fail "sweep point 0: status $(jget s.json points.0.status), expected 3"; }
[ "$(jget s.json points.1.status)" = 2 ] || { cat s.err; fail "sweep point 1: status $(jget s.json points.1.status), expected 2"; }
[ "$rc" = 2 ] || { cat s.err; fail "sweep: points ending 3 and 2 gave $rc, expected 2"; }

# A curve: the maximum-rate run reads sequentially into the bad offset at 48 MiB (2, after 768
# reads of 64 KiB); the run at 1 % of that rate reads less than 48 MiB in its second and only
# fails its assertion (3).
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=50331648 "$IOWL" --name=c --filename=iowl-fault.dat \
	--rw=read --bs=64k --ioengine=psync --runtime=1 --time_based --eta=never --assert "$never" \
	--curve=1 --output-format=json > c.json 2> c.err
rc=$?
s0=$(jget c.json curve.0.status)
s1=$(jget c.json curve.1.status)
[ "$s0" = 2 ] && [ "$s1" = 3 ] ||
	skip "the curve's points ended $s0 and $s1 (this machine read too slowly or too fast to test the order)"
[ "$rc" = 2 ] || { cat c.err; fail "curve: points ending 2 and 3 gave $rc, expected 2"; }
echo "exit status precedence ok"
