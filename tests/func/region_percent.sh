#!/bin/sh
# Percentages of offset=, offset_increment= and size= are of the whole file or device, rounded
# to the block size as fio 3.33 rounds them (offsets up, sizes down), checked against the IOs
# in write_iolog and, on a loop device, against the device's own read counter.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 4m f4 || fail "truncate"
# run NAME OPTIONS...: reads f4 with 64 KiB blocks; prints "reads lowest end" of the iolog
run() {
	n=$1; shift
	rm -f "$n.log"
	"$IOWL" --eta=never --name="$n" --filename=f4 --rw=read --bs=64k --write_iolog="$n.log" "$@" \
		> /dev/null 2> "$n.err" || { cat "$n.err"; fail "$n: run failed"; }
	awk '$2 == "read" { n++; e = $3 + $4; if (lo == "" || $3 < lo) lo = $3; if (e > hi) hi = e } END { print n, lo, hi }' "$n.log"
}
expect() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3' (reads lowest end)"; }
expect "size=25% offset=50%" "$(run half --size=25% --offset=50%)" "16 2097152 3145728"
expect "offset=10% (rounded up to 64k)" "$(run ten --offset=10%)" "57 458752 4194304"
expect "size=30% (rounded down to 64k)" "$(run thirty --size=30%)" "19 0 1245184"
expect "offset=3.5m size=25% (cut at the end)" "$(run tail --offset=3584k --size=25%)" "8 3670016 4194304"
# each clone gets a quarter of the whole file
run clones --size=25% --offset_increment=25% --numjobs=4 > /dev/null
for k in 0 1 2 3; do
	got=$(awk -v k=$k '$2 == "read" && $3 >= k * 1048576 && $3 < (k + 1) * 1048576' clones.log | wc -l)
	[ "$got" = 16 ] || fail "size=25% offset_increment=25% numjobs=4: $got reads in MiB $k, expected 16"
done
echo "file: percentages of the whole 4 MiB file"
# The same from fio itself, where it is installed.
ios() { jget "$1" jobs.0.read.total_ios; }
clone_bytes() { for k in 0 1 2 3; do jget "$1" jobs.$k.read.io_bytes; done; }
same_as_fio ios 16 --name=fh --filename=f4 --rw=read --bs=64k --size=25% --offset=50%
same_as_fio ios 57 --name=ft --filename=f4 --rw=read --bs=64k --offset=10%
same_as_fio ios 19 --name=fs --filename=f4 --rw=read --bs=64k --size=30%
same_as_fio clone_bytes "1048576;1048576;1048576;1048576" --name=fc --filename=f4 --rw=read \
	--bs=64k --size=25% --offset_increment=25% --numjobs=4

[ "$(id -u)" = 0 ] || skip "needs root for the loop-device part"
loop_device 64m
reads() { awk '{ print $3 }' "/sys/block/$name/stat"; }
r0=$(reads)
"$IOWL" --eta=never --name=dev --filename="$dev" --rw=read --bs=1m --direct=1 --size=25% \
	--offset_increment=25% --numjobs=4 --write_iolog=dev.log > /dev/null 2> dev.err ||
	{ cat dev.err; fail "device run"; }
r1=$(reads)
[ $((r1 - r0)) = 131072 ] || fail "the device read $((r1 - r0)) sectors, expected 131072 (64 MiB)"
for k in 0 1 2 3; do
	got=$(awk -v k=$k '$2 == "read" && $3 >= k * 16777216 && $3 < (k + 1) * 16777216' dev.log | wc -l)
	[ "$got" = 16 ] || fail "device: clone region $k got $got reads, expected 16"
done
echo "device: four clones of 16 MiB each"
