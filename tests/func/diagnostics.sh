#!/bin/sh
# Diagnostics fire when provoked and stay silent on a clean run: a device that splits IOs, a queue
# depth not reached, reads served by the page cache, reads of zeros, a saturated load generator,
# and Little's law.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
kinds() { jget "$1" iowl.diagnostics > /dev/null && i=0 && n=$(jget "$1" iowl.diagnostics) &&
	while [ $i -lt "$n" ]; do jget "$1" iowl.diagnostics.$i.kind; i=$((i + 1)); done; }
# (its 262144 IOs: the CPU share and Little's law are measured over any length)
"$IOWL" --name=n --ioengine=null --size=1g --rw=randread --runtime=1 --eta=never \
	--output-format=json > n.json || fail "null run"
# The diagnostic follows the CPU the worker got: on a busy machine it may get less than 80 %.
busy=$(jget n.json jobs.0.usr_cpu)
if awk -v b="$busy" 'BEGIN { exit !(b > 80) }'; then
	kinds n.json | grep -qx saturated || fail "the null engine used $busy % CPU and no saturated diagnostic"
else
	kinds n.json | grep -qx saturated && fail "saturated diagnostic at $busy % CPU"
fi
kinds n.json | grep -qx concurrency || fail "no Little's law line"
[ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 || skip "the device diagnostics need root and losetup"
truncate -s 256m /dev/shm/iowl-diag.$$ && on_exit "rm -f /dev/shm/iowl-diag.$$"
dev=$(losetup -f --show /dev/shm/iowl-diag.$$) || skip "no loop device"
on_exit "losetup -d $dev"
q=/sys/block/$(basename "$dev")/queue
# The device is sparse: reading it before writing it returns zeros ("Here be Zeroes").
"$IOWL" --name=z --filename="$dev" --ioengine=psync --direct=1 --rw=randread --bs=4k --size=64m \
	--number_ios=2000 --eta=never --output-format=json > z.json || fail "zero-read run"
kinds z.json | grep -qx zero_reads || { kinds z.json; fail "no zero_reads"; }
"$IOWL" --name=fill --filename="$dev" --ioengine=libaio --direct=1 --iodepth=16 --rw=write --bs=1m \
	--allow_signature_write=1 --eta=never > /dev/null 2>&1 || fail "prefill"
# A clean run on the filled device: psync at depth 1, direct, 4k: nothing but the concurrency line.
"$IOWL" --name=c --filename="$dev" --ioengine=psync --direct=1 --rw=randread --bs=4k --runtime=1 \
	--time_based --eta=never --output-format=json > c.json || fail "clean run"
[ "$(kinds c.json | grep -v concurrency | wc -l)" = 0 ] || { kinds c.json; fail "a clean run raised diagnostics"; }
# The device splits 1 MiB IOs into 64 KiB requests.  The diagnostic needs 100 IOs of a direction:
# a count, not a time, so that a slow machine (TSan, load) still makes them.
old=$(cat $q/max_sectors_kb)
echo 64 > $q/max_sectors_kb || skip "cannot lower max_sectors_kb"
on_exit "echo $old > $q/max_sectors_kb"
"$IOWL" --name=s --filename="$dev" --ioengine=libaio --direct=1 --rw=read --bs=1m --iodepth=2 \
	--number_ios=200 --eta=never --output-format=json > s.json || fail "split run"
kinds s.json | grep -qx device_split || { kinds s.json; fail "no device_split"; }
jget s.json iowl.diagnostics > /dev/null
grep -q "bs=1m but the device $(basename "$dev") received 64k requests (max_sectors_kb=64)" s.json ||
	{ grep message s.json; fail "device_split message"; }
echo "$old" > $q/max_sectors_kb
# A synchronous engine keeps one IO in flight per clone: iodepth=32 says so, and is no unreached
# queue depth.
"$IOWL" --name=d --filename="$dev" --ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=32 \
	--number_ios=2000 --eta=never --output-format=json > d.json 2> /dev/null || fail "depth run"
kinds d.json | grep -qx sync_iodepth || { kinds d.json; fail "no sync_iodepth"; }
kinds d.json | grep -qx queue_depth && fail "queue_depth for a synchronous engine"
grep -q "job 'd': iodepth=32 has no effect with the synchronous ioengine psync" d.json || fail "sync_iodepth message"
approx "$(jget d.json jobs.0.iowl.diagnose.asked_inflight)" 1 0 || fail "a psync clone asked for $(jget d.json jobs.0.iowl.diagnose.asked_inflight)"
# Stonewalled phases are judged apart: each asked for 16, never the 32 of both, and each figure
# names its group, job and device; iowl kept 16 in flight in each (Little's law).
printf '[global]\nfilename=%s\ndirect=1\nioengine=libaio\niodepth=16\nrw=randread\nnumber_ios=20000\n[a]\n[b]\nstonewall\n' \
	"$dev" > two.ini
"$IOWL" --eta=never --output-format=json two.ini > two.json || fail "two phases"
grep -q "asked for 32" two.json && { grep message two.json; fail "the phases' depths were added up"; }
for j in 0 1; do
	approx "$(jget two.json jobs.$j.iowl.diagnose.asked_inflight)" 16 0 || fail "job $j asked_inflight"
	approx "$(jget two.json jobs.$j.iowl.diagnose.kept_inflight)" 16 10 || fail "job $j kept_inflight"
	[ "$(jget two.json jobs.$j.iowl.diagnose.device)" = "$(basename "$dev")" ] || fail "job $j device"
	jget two.json jobs.$j.iowl.diagnose.device_aqu_sz > /dev/null || fail "job $j device_aqu_sz"
done
i=0
while [ $i -lt "$(jget two.json iowl.diagnostics)" ]; do
	m=$(jget two.json iowl.diagnostics.$i.message)
	case "$(jget two.json iowl.diagnostics.$i.kind)" in
	concurrency|queue_depth) case $m in "group "[01]", job '"[ab]"' on $(basename "$dev"): "*) ;;
		*) fail "a diagnostic names no group, job and device: $m" ;; esac ;;
	esac
	i=$((i + 1))
done
# Think time and ramps keep fewer in flight on purpose: no queue_depth.
"$IOWL" --name=t --filename="$dev" --ioengine=libaio --direct=1 --rw=randread --iodepth=16 \
	--thinktime=2ms --thinktime_blocks=16 --number_ios=2000 --eta=never --output-format=json > t.json ||
	fail "think run"
kinds t.json | grep -qx queue_depth && fail "queue_depth with thinktime"
[ "$(jget t.json jobs.0.iowl.diagnose.paced)" = true ] || fail "paced"
# Jobs on two devices side by side: each device's depth against its own jobs'.
truncate -s 64m /dev/shm/iowl-diag2.$$ && on_exit "rm -f /dev/shm/iowl-diag2.$$"
dev2=$(losetup -f --show /dev/shm/iowl-diag2.$$) || skip "no second loop device"
on_exit "losetup -d $dev2"
"$IOWL" --eta=never --output-format=json --direct=1 --rw=randread --number_ios=5000 \
	--name=x --filename="$dev" --ioengine=libaio --iodepth=8 \
	--name=y --filename="$dev2" --ioengine=psync > xy.json || fail "two devices"
[ "$(jget xy.json jobs.1.iowl.diagnose.device)" = "$(basename "$dev2")" ] || fail "job y's device"
approx "$(jget xy.json jobs.0.iowl.diagnose.asked_inflight)" 8 0 || fail "job x asked"
grep -q "asked for 9" xy.json && fail "two devices' depths were added up"
# Buffered reads of a 16 MiB range read twice: the second pass comes from the page cache.
"$IOWL" --name=p --filename="$dev" --ioengine=psync --rw=read --bs=4k --size=16m --loops=4 \
	--eta=never --output-format=json > p.json || fail "page cache run"
kinds p.json | grep -qx page_cache || { kinds p.json; fail "no page_cache"; }
echo "diagnostics ok"
