#!/bin/sh
# The reads iowl itself makes of a device before a write job (the write guard's signature probe)
# are reported, in the text and under iowl.own_io in JSON, once per run, and stay out of the job
# and disk_util figures: the device's own read counter over the whole run equals them.
. "$(dirname "$0")/../lib.sh"
loop_device 64m
cd "$SCRATCH" || fail "cd"

reads() { awk '{ print $1 }' "/sys/block/$name/stat"; }
w="--filename=$dev --rw=write --bs=64k --size=4m --direct=1 --ioengine=psync --eta=never"

# One job, then two stonewalled phases of write jobs on the device (a second probe, or a probe
# inside the disk_util window, would show here).
for jobs in "--name=a $w" "--name=a $w --name=b $w --stonewall"; do
	r0=$(reads)
	"$IOWL" $jobs --output-format=json > o.json 2> o.err || { cat o.err; fail "$jobs: run failed"; }
	r1=$(reads)
	own=$(jget o.json iowl.own_io.0.reads) || { cat o.json; fail "$jobs: no iowl.own_io"; }
	[ "$(jget o.json iowl.own_io)" = 1 ] || fail "$jobs: $(jget o.json iowl.own_io) own_io entries for one device"
	[ "$(jget o.json iowl.own_io.0.path)" = "$dev" ] || fail "$jobs: own_io path"
	[ "$own" -gt 0 ] || fail "$jobs: the signature probe read nothing"
	bytes=$(jget o.json iowl.own_io.0.read_bytes)
	[ "$bytes" -ge $((own * 512)) ] || fail "$jobs: $own reads of $bytes bytes"
	[ "$(jget o.json jobs.0.read.total_ios)" = 0 ] || fail "$jobs: the probe's reads are in the job"
	du=$(jget o.json disk_util.0.read_ios) || fail "$jobs: no disk_util for $dev"
	[ "$du" = 0 ] || fail "$jobs: disk_util shows $du reads of a write-only run"
	[ $((r1 - r0)) = "$own" ] ||
		fail "$jobs: the device counted $((r1 - r0)) reads, iowl reports $own of its own"
	echo "$jobs: $own reads ($bytes bytes) of iowl's own, device counted $((r1 - r0))"
done

"$IOWL" --name=a $w > o.txt 2> o.err || { cat o.err; fail "text run failed"; }
grep -q "^iowl's own IO (not in the job or disk figures):" o.txt || { cat o.txt; fail "text report"; }
grep -q "^  $dev: reads=[1-9][0-9]*, .* (write guard: signature probe before the run)" o.txt ||
	{ cat o.txt; fail "text report line"; }
echo "own IO ok"
