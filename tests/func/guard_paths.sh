#!/bin/sh
# The write guard covers every path iowl writes, not only the targets: --output, write_iolog and
# the write_*_log files on a device holding ext4 or mounted are refused before any IO (also by
# --parse-only) and the filesystem survives; allow_signature_write in every job lets --output by.
# A read-only device is refused to a job that writes, before any IO.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 not found (apt-get install e2fsprogs)"
command -v blkid >/dev/null 2>&1 || skip "blkid not found (apt-get install util-linux)"
loop_device 64m
mnt=$(cd "$SCRATCH" && pwd -P)/mnt
mkdir "$mnt" || fail "mkdir $mnt"
cd "$SCRATCH" || fail "cd"
job="--name=j --ioengine=null --size=1m --rw=randread --eta=never"

is_ext4() { [ "$(blkid -p -o value -s TYPE "$dev" 2>/dev/null)" = ext4 ]; }

# refused "message" iowl-arguments...: status 1 with --parse-only and as a run, ext4 intact
refused() {
	want=$1
	shift
	for mode in --parse-only run; do
		if [ "$mode" = run ]; then set -- "$@"; else set -- --parse-only "$@"; fi
		"$IOWL" "$@" > out 2> err
		rc=$?
		[ "$mode" = run ] || shift
		[ "$rc" = 1 ] || { cat err; fail "$mode $*: exited $rc, expected 1"; }
		grep -qF -- "$want" err || { cat err; fail "$mode $*: no '$want'"; }
		is_ext4 || fail "$mode $*: the ext4 filesystem on $dev was destroyed"
	done
}

mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4 $dev"
refused "--output '$dev': '$dev' holds an ext4 filesystem; writing would destroy it" \
	$job --output="$dev"
refused "write_iolog=$dev: '$dev' holds an ext4 filesystem" $job --write_iolog="$dev"
ln -s "$dev" lnk_bw.1.log
refused "write_bw_log=lnk: 'lnk_bw.1.log' holds an ext4 filesystem" $job --write_bw_log=lnk

# Mounted: refused even where signatures are allowed.
if mount "$dev" "$mnt" 2>/dev/null; then
	on_exit "umount $mnt"
	refused "--output '$dev': '$dev' is mounted at $mnt" \
		--allow_signature_write=1 $job --output="$dev"
	umount "$mnt" || fail "umount"
else
	echo "note: cannot mount ext4 here, the mounted case is left out"
fi

# --output passes the guard with what every job allows.
refused "--output '$dev': '$dev' holds an ext4 filesystem" \
	$job --allow_signature_write=1 --name=k --ioengine=null --size=1m --output="$dev"
expect_status 0 "$IOWL" --allow_signature_write=1 $job --output="$dev"
is_ext4 && fail "--output with allow_signature_write=1 did not write $dev"

# A read-only device: a job that writes is refused before any IO, a job that reads runs.
ro=$(losetup -r -f --show "$back") || skip "no second loop device"
on_exit "losetup -d $ro"
expect_status 1 "$IOWL" --parse-only --name=w --filename="$ro" --rw=write --bs=4k --size=64k \
	--ioengine=psync --allow_signature_write=1
grep -qF "'$ro' is a read-only device" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "read-only message"; }
expect_status 0 "$IOWL" --name=r --filename="$ro" --rw=read --bs=4k --size=64k --ioengine=psync
echo "guard over every written path ok"
