#!/bin/sh
# The write guard on a loop device: a blank device passes; a filesystem, a mount, swap and a
# partition table are refused with a message naming them, and each allow option lets its case by.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to create a loop device"
command -v losetup >/dev/null 2>&1 || skip "losetup not found (apt-get install mount)"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 not found (apt-get install e2fsprogs)"
GUARD=$(cd "$HELPERS" && pwd)/guardcheck
[ -x "$GUARD" ] || fail "$GUARD is not built (make func)"

# One cleanup, in the right order (lib.sh runs each on_exit word separately, so pass one word).
back=/dev/shm/iowl-guard.$$
dev="" mnt_on="" swap_on="" ns_pid=""
guard_cleanup() {
	[ -n "$ns_pid" ] && kill "$ns_pid" && wait "$ns_pid"
	[ -n "$mnt_on" ] && umount "$mnt_on"
	[ -n "$swap_on" ] && swapoff "$dev"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -f "$back"
}
on_exit guard_cleanup

truncate -s 64m "$back" || skip "cannot create a backing file on /dev/shm"
dev=$(losetup -f --show "$back" 2>/dev/null) || { dev=""; skip "no loop device available"; }
mnt=$(cd "$SCRATCH" && pwd -P)/mnt
mkdir "$mnt" || fail "mkdir $mnt"

# check STATUS MASK [DEVICE] -- NEEDLE...: guardcheck must exit STATUS and print every NEEDLE
check() {
	want=$1 mask=$2 target=$dev
	shift 2
	[ "$1" = -- ] || { target=$1; shift; }
	shift
	out=$("$GUARD" "$target" "$mask" 2>&1)
	got=$?
	[ "$got" = "$want" ] || fail "guardcheck $target $mask exited $got, expected $want: $out"
	for needle in "$@"; do
		case $out in
		*"$needle"*) ;;
		*) fail "guardcheck $target $mask: '$out' lacks '$needle'" ;;
		esac
	done
	echo "allow=$mask $target: $out"
}

# Waits up to 10 s for guardcheck to pass with MASK (a lazily torn-down mount).
settled() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		"$GUARD" "$dev" "$1" >/dev/null 2>&1 && return 0
		sleep 1
	done
	return 1
}

echo "== blank"
check 0 0 -- ok

echo "== filesystem"
mkfs.ext4 -q -F -L data "$dev" || fail "mkfs.ext4 $dev"
check 1 0 -- "EEXIST: '$dev' holds an ext4 filesystem (label 'data'); writing would destroy it" \
	"set allow_signature_write=1"
check 1 mounted -- "holds an ext4 filesystem"
check 0 signature -- ok

echo "== mounted"
if mount "$dev" "$mnt"; then
	mnt_on=$mnt
	check 1 0 -- "EBUSY: '$dev' is mounted at $mnt; writing would corrupt it" \
		"set allow_mounted_write=1"
	check 1 signature -- "is mounted at $mnt"
	check 1 mounted -- "EEXIST" "ext4"
	check 0 mounted,signature -- ok
	umount "$mnt" || fail "umount $mnt"
	mnt_on=""
	check 0 signature -- ok
else
	echo "note: cannot mount ext4 here, mounted cases left out"
fi

echo "== mounted in another mount namespace"
if command -v unshare >/dev/null 2>&1 &&
	unshare -m --propagation private true 2>/dev/null; then
	rm -f "$SCRATCH/ns-ready"
	unshare -m --propagation private \
		sh -c "mount '$dev' '$mnt' && touch '$SCRATCH/ns-ready' && exec sleep 60" &
	ns_pid=$!
	for i in 1 2 3 4 5 6 7 8 9 10; do [ -e "$SCRATCH/ns-ready" ] && break; sleep 1; done
	[ -e "$SCRATCH/ns-ready" ] || fail "mount in a new mount namespace did not happen"
	grep -q " $mnt " /proc/self/mountinfo && fail "the namespace's mount is visible here"
	check 1 signature -- "EBUSY: '$dev' is in use by the kernel" "allow_mounted_write=1"
	{ kill "$ns_pid" && wait "$ns_pid"; } 2>/dev/null
	ns_pid=""
	settled signature || fail "$dev still busy after the namespace ended"
else
	echo "note: unshare -m unavailable, namespace case left out"
fi

echo "== swap"
if command -v mkswap >/dev/null 2>&1; then
	mkswap -L sw "$dev" >/dev/null 2>&1 || fail "mkswap $dev"
	check 1 0 -- "EEXIST: '$dev' holds a swap signature (label 'sw')"
	if swapon "$dev" 2>/dev/null; then
		swap_on=1
		check 1 signature -- "EBUSY: '$dev' is in use as swap" "allow_mounted_write=1"
		swapoff "$dev" || fail "swapoff $dev"
		swap_on=""
	else
		echo "note: swapon refused, active swap case left out"
	fi
	check 0 signature -- ok
else
	echo "note: mkswap not found, swap cases left out"
fi

echo "== iowl"
mkfs.ext4 -q -F -L data "$dev" || fail "mkfs.ext4 $dev"
if "$IOWL" --cmdhelp=allow_signature_write >/dev/null 2>&1; then
	expect_status 1 "$IOWL" --name=w --filename="$dev" --rw=write --size=1m
	grep -q "holds an ext4 filesystem" "$SCRATCH/err" ||
		{ cat "$SCRATCH/err"; fail "iowl's refusal does not name the ext4 filesystem"; }
	sed 's/^/iowl: refused: /' "$SCRATCH/err" | head -n 1
	expect_status 0 "$IOWL" --name=w --filename="$dev" --rw=write --size=1m \
		--allow_signature_write=1
	echo "iowl: accepted with allow_signature_write=1"
else
	echo "iowl not wired yet: allow_signature_write is not an option, iowl runs left out"
fi

echo "== partition table"
dd if=/dev/zero of="$dev" bs=1M count=2 conv=fsync 2>/dev/null || fail "zeroing $dev"
check 0 0 -- ok
if command -v sfdisk >/dev/null 2>&1; then
	echo 'start=2048, type=83' | sfdisk -q "$dev" >/dev/null 2>&1 || fail "sfdisk $dev"
elif command -v parted >/dev/null 2>&1; then
	parted -s "$dev" mklabel msdos mkpart primary 1MiB 100% || fail "parted $dev"
else
	# An MBR by hand: one Linux partition (type 0x83) from sector 2048 for 129024 sectors.
	printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\370\001\000' |
		dd of="$dev" bs=1 seek=446 conv=notrunc 2>/dev/null &&
		printf '\125\252' | dd of="$dev" bs=1 seek=510 conv=notrunc,fsync 2>/dev/null ||
		fail "writing an MBR to $dev"
fi
check 1 0 -- "EEXIST: '$dev' holds a dos partition table; writing would destroy it"
check 0 signature -- ok

echo "== mounted partition"
part=${dev}p1
# The kernel may lack the msdos parser (then partx adds the partition from user space).
blockdev --rereadpt "$dev" 2>/dev/null
[ -e /sys/block/"${dev#/dev/}"/"${part#/dev/}" ] || partx -a "$dev" 2>/dev/null
for i in 1 2 3 4 5; do [ -b "$part" ] && break; sleep 1; done
if [ -b "$part" ] && mkfs.ext4 -q -F "$part" && mount "$part" "$mnt"; then
	mnt_on=$mnt
	check 1 signature -- "EBUSY: '$part', a partition of '$dev', is mounted at $mnt"
	check 1 0 "$part" -- "EBUSY: '$part' is mounted at $mnt"
	check 1 mounted -- "holds a dos partition table"
	check 0 mounted,signature -- ok
	umount "$mnt" || fail "umount $mnt"
	mnt_on=""
	check 1 mounted "$part" -- "EEXIST: '$part' holds an ext4 filesystem"
else
	echo "note: no partition device $part, mounted partition case left out"
fi
echo "guard ok"
