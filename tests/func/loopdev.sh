#!/bin/sh
# Every engine with direct=1 on a loop device (libaio and io_uring at iodepth 32): iowl's IO counts
# must match the device's own counters (/sys/block/loopN/stat) within 1 %.
. "$(dirname "$0")/../lib.sh"
loop_device 256m
stat_field() { awk -v f="$1" '{ print $f }' "/sys/block/$name/stat"; }
for engine in libaio io_uring psync sync; do
	for rw in randwrite randread; do
		r0=$(stat_field 1); w0=$(stat_field 5)
		depth=32
		case $engine in *sync) depth=1 ;; esac
		"$IOWL" --name=loop --filename="$dev" --ioengine=$engine --direct=1 --iodepth=$depth \
			--rw=$rw --bs=4k --number_ios=20000 --size=256m --output-format=json \
			--eta=never > "$SCRATCH/out.json" 2> "$SCRATCH/err" ||
			{ cat "$SCRATCH/err"; fail "$engine $rw failed"; }
		r1=$(stat_field 1); w1=$(stat_field 5)
		if [ $rw = randread ]; then dir=read; dev_ios=$((r1 - r0)); else dir=write; dev_ios=$((w1 - w0)); fi
		ios=$(jget "$SCRATCH/out.json" jobs.0.$dir.total_ios)
		[ "$ios" = 20000 ] || fail "$engine $rw: iowl did $ios IOs, expected 20000"
		approx "$dev_ios" "$ios" 1 || fail "$engine $rw: device counted $dev_ios, iowl $ios"
		# fio's disk_util block reports the same device and counts.
		[ "$(jget "$SCRATCH/out.json" disk_util.0.name)" = "$name" ] || fail "disk_util names $(jget "$SCRATCH/out.json" disk_util.0.name)"
		approx "$(jget "$SCRATCH/out.json" disk_util.0.${dir}_ios)" "$ios" 1 ||
			fail "$engine $rw: disk_util counted $(jget "$SCRATCH/out.json" disk_util.0.${dir}_ios)"
		echo "$engine $rw: iowl $ios, device $dev_ios"
	done
done
