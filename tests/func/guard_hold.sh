#!/bin/sh
# A run holds every block device it writes with O_EXCL: a write run allowed onto a device holding
# ext4 (allow_signature_write) makes a mount of that device fail while it runs, and a second
# write run on it is refused; once the run ends the device is free again.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 not found (apt-get install e2fsprogs)"
loop_device 64m
mnt=$(cd "$SCRATCH" && pwd -P)/mnt
mkdir "$mnt" || fail "mkdir $mnt"
cd "$SCRATCH" || fail "cd"
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4 $dev"
mount "$dev" "$mnt" 2>/dev/null || skip "cannot mount ext4 here"
umount "$mnt" || fail "umount $mnt"

writes() { awk '{ print $5 }' "/sys/block/$name/stat"; }

# Writes far from the primary superblock, so the filesystem stays mountable but for the hold.
w0=$(writes)
"$IOWL" --name=w --filename="$dev" --rw=randwrite --bs=4k --offset=32m --size=16m --direct=1 \
	--ioengine=psync --runtime=3 --time_based --allow_signature_write=1 --eta=never \
	> run.out 2> run.err &
pid=$!
on_exit "kill $pid"
for i in $(seq 50); do [ "$(writes)" -gt "$w0" ] && break; sleep 0.1; done
[ "$(writes)" -gt "$w0" ] || { cat run.err; fail "the run did not write within 5 s"; }

if mount "$dev" "$mnt" 2> mount.err; then
	umount "$mnt"
	fail "$dev was mounted while iowl wrote it"
fi
grep -qi "busy" mount.err || { cat mount.err; fail "the mount failed for another reason than the hold"; }
echo "mount during the run: $(head -n 1 mount.err)"

expect_status 1 "$IOWL" --name=v --filename="$dev" --rw=write --bs=4k --offset=32m --size=1m \
	--ioengine=psync --allow_signature_write=1
grep -qF "'$dev' is in use by the kernel" "$SCRATCH/err" && grep -qF "another iowl run" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "a second write run was not refused with the reason"; }

wait "$pid"
rc=$?
[ "$rc" = 0 ] || { cat run.err; fail "the write run exited $rc"; }
"$IOWL" --name=v --filename="$dev" --rw=write --bs=4k --offset=32m --size=1m --ioengine=psync \
	--allow_signature_write=1 > /dev/null 2> again.err || { cat again.err; fail "the device was not released"; }

# The hold does not keep a buffered job's writes out of its figures: they are written back
# when the phase ends, as the last close of the device would, inside disk_util's window.
"$IOWL" --name=b --filename="$dev" --rw=write --bs=64k --offset=32m --size=8m --ioengine=psync \
	--allow_signature_write=1 --output-format=json > b.json 2> b.err || { cat b.err; fail "buffered run"; }
ws=$(jget b.json disk_util.0.write_sectors)
[ "$ws" -ge 16384 ] || fail "disk_util counts $ws sectors written of a buffered 8 MiB write"
echo "hold ok"
