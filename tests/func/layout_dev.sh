#!/bin/sh
# What a new file costs the device, measured by the device itself: on ext4 over a loop device a
# write job's new file is preallocated, not written first (fio: 800 sectors for 100 writes of
# 4 KiB, where writing the file first cost 33614), a read job's is written once; fill_device
# writes until the file system is full and ends there without an error.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 not found (apt-get install e2fsprogs)"
loop_device 256m
cd "$SCRATCH" || fail "cd"
mnt=$(cd "$SCRATCH" && pwd -P)/mnt
mkdir "$mnt" || fail "mkdir"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" || fail "mkfs.ext4 $dev"
mount "$dev" "$mnt" || skip "cannot mount ext4 here"
on_exit "umount $mnt"
written() { sync -f "$mnt"; awk '{ print $7 }' "/sys/block/$name/stat"; }
w0=$(written)
"$IOWL" --eta=never --name=w --filename="$mnt/w" --rw=randwrite --bs=4k --size=128m --direct=1 \
	--number_ios=100 > w.out 2> w.err || { cat w.err; fail "write job"; }
w1=$(written)
echo "write job on a new 128 MiB file, 100 IOs: $((w1 - w0)) sectors written (fio: about 800)"
[ $((w1 - w0)) -lt 8192 ] || fail "a write job's new file cost $((w1 - w0)) sectors: it was written before the job"
"$IOWL" --eta=never --name=r --filename="$mnt/r" --rw=randread --bs=4k --size=16m --direct=1 \
	--number_ios=100 > r.out 2> r.err || { cat r.err; fail "read job"; }
w2=$(written)
echo "read job on a new 16 MiB file: $((w2 - w1)) sectors written"
[ $((w2 - w1)) -ge 32768 ] && [ $((w2 - w1)) -lt 49152 ] ||
	fail "a read job's new 16 MiB file cost $((w2 - w1)) sectors (its data once: 32768)"

# fill_device: sequential writes until the file system is full, no error.
rm -f "$mnt/w" "$mnt/r"
"$IOWL" --eta=never --name=fill --filename="$mnt/fill" --rw=write --bs=1m --fill_device=1 \
	--output-format=json > fill.json 2> fill.err || { cat fill.err; fail "fill_device run failed"; }
[ "$(jget fill.json jobs.0.error)" = 0 ] || fail "fill_device ended with error $(jget fill.json jobs.0.error)"
free=$(df -P -k "$mnt" | awk 'NR == 2 { print $4 }')
[ "$free" -lt 2048 ] || fail "fill_device left $free KiB free"
echo "fill_device: $(jget fill.json jobs.0.write.io_bytes) bytes written, $free KiB left"
