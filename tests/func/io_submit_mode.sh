#!/bin/sh
# SPDX-License-Identifier: MIT
# io_submit_mode=offload (fio's meaning): a pool of iodepth submit threads does the IOs, one each
# at a time, so a device that stalls one IO does not hold back the IOs due after it.  One read of
# the fault shim stalls 300 ms in a paced psync job (rate_iops=1000): inline, every IO due during
# the stall waits for it and their latency from the schedule grows by the backlog; offloaded, the
# other threads keep to the schedule and only the stalled IO is late.  Measured as the mean
# latency from the schedule (jobs[].iowl.sched_lat_ns_read), offload against inline in one run.
# fio 3.33 hangs here in offload mode with every engine (killed after 20 s), so there is nothing
# of fio's to compare with.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"
truncate -s 16m iowl-fault.dat
# run MODE [STALL]: the mean schedule latency of a 1 s run with read STALL stalled (300; 0: none)
run() {
	LD_PRELOAD="$shim" IOWL_FAULT_STALL_AT=${2:-300} "$IOWL" --name=s --filename=iowl-fault.dat \
		--ioengine=psync --iodepth=8 --io_submit_mode="$1" --rw=randread --rate_iops=1000 \
		--runtime=1 --time_based --eta=never --output-format=json > "$1$2.json" 2> "$1.err" ||
		{ cat "$1.err"; fail "io_submit_mode=$1 run"; }
	jget "$1$2.json" jobs.0.iowl.sched_lat_ns_read.mean
}
inl=$(run inline)
off=$(run offload)
n=$(jget offload.json jobs.0.read.total_ios)
[ "$n" -ge 900 ] && [ "$n" -le 1001 ] || fail "offload at rate_iops=1000 for 1 s did $n reads"
# What the stall added, over an offloaded run without one (the machine's own lateness, which a
# loaded machine adds to both runs alike): inline about 300 ms of backlog, offload one IO's.
base=$(run offload 0)
busy=""
awk -v b="$base" -v i="$inl" 'BEGIN { exit !(b * 2 > i) }' &&
	busy="the machine alone made the schedule $base ns late on average, inline with the stall $inl ns: too busy to judge the stall"
[ -n "$busy" ] || awk -v i="$inl" -v o="$off" -v b="$base" 'BEGIN { exit !(i > 5000000 && (o - b) * 3 < i - b) }' ||
	fail "a 300 ms stall: mean latency from the schedule inline $inl ns, offload $off ns, offload without a stall $base ns (expected the stall to add to offload under a third of what it adds inline)"
# every engine runs offloaded, the asynchronous ones with an instance per submit thread
for e in libaio io_uring posixaio mmap null; do
	"$IOWL" --name=e --filename=iowl-fault.dat --ioengine="$e" --iodepth=4 \
		--io_submit_mode=offload --rw=randrw --size=1m --eta=never --output-format=json \
		> e.json 2> e.err || { cat e.err; fail "ioengine=$e io_submit_mode=offload"; }
	r=$(jget e.json jobs.0.read.io_bytes) w=$(jget e.json jobs.0.write.io_bytes)
	[ $((r + w)) = 1048576 ] || fail "ioengine=$e offload: $r + $w bytes, expected 1 MiB"
done
printf '[j]\nfilename=iowl-fault.dat\nsize=1m\nio_submit_mode=later\n' > bad.fio
expect_status 1 "$IOWL" --parse-only bad.fio
grep -q "bad.fio:4: io_submit_mode=later" "$SCRATCH/err" || fail "bad value: $(cat "$SCRATCH/err")"
[ -z "$busy" ] || skip "$busy"
echo "io_submit_mode ok (stall: schedule latency inline $inl ns, offload $off ns, without it $base ns)"
exit 0
