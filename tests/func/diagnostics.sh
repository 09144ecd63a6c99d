#!/bin/sh
# Diagnostics fire when provoked and stay silent on a clean run: a device that splits IOs, a queue
# depth not reached, reads served by the page cache, reads of zeros, a saturated load generator,
# and Little's law.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
kinds() { jget "$1" iowl.diagnostics > /dev/null && i=0 && n=$(jget "$1" iowl.diagnostics) &&
	while [ $i -lt "$n" ]; do jget "$1" iowl.diagnostics.$i.kind; i=$((i + 1)); done; }
"$IOWL" --name=n --ioengine=null --size=1g --rw=randread --runtime=1 --time_based --eta=never \
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
# The device splits 1 MiB IOs into 64 KiB requests.
old=$(cat $q/max_sectors_kb)
echo 64 > $q/max_sectors_kb || skip "cannot lower max_sectors_kb"
on_exit "echo $old > $q/max_sectors_kb"
"$IOWL" --name=s --filename="$dev" --ioengine=libaio --direct=1 --rw=read --bs=1m --iodepth=2 \
	--runtime=1 --time_based --eta=never --output-format=json > s.json || fail "split run"
kinds s.json | grep -qx device_split || { kinds s.json; fail "no device_split"; }
jget s.json iowl.diagnostics > /dev/null
grep -q "bs=1m but the device $(basename "$dev") received 64k requests (max_sectors_kb=64)" s.json ||
	{ grep message s.json; fail "device_split message"; }
echo "$old" > $q/max_sectors_kb
# A synchronous engine asked for 32 in flight keeps one.
"$IOWL" --name=d --filename="$dev" --ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=32 \
	--runtime=1 --time_based --eta=never --output-format=json > d.json 2> /dev/null || fail "depth run"
kinds d.json | grep -qx queue_depth || { kinds d.json; fail "no queue_depth"; }
grep -q "synchronous ioengine" d.json || fail "queue_depth cause"
# Buffered reads of a 16 MiB range read twice: the second pass comes from the page cache.
"$IOWL" --name=p --filename="$dev" --ioengine=psync --rw=read --bs=4k --size=16m --loops=4 \
	--eta=never --output-format=json > p.json || fail "page cache run"
kinds p.json | grep -qx page_cache || { kinds p.json; fail "no page_cache"; }
echo "diagnostics ok"
