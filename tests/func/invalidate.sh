#!/bin/sh
# invalidate=1 (fio's default) drops the page cache of the job's files before its IO, before
# every loop and at every time_based pass, so buffered reads reach the device; checked with the
# loop device's own read counter after the data was put in the page cache.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# A regular file: the pages in the cache after a job that read 10 of them (fincore, util-linux).
if command -v fincore >/dev/null 2>&1 && [ "$(stat -f -c %T .)" != tmpfs ]; then
	pages() { cat f > /dev/null 2>&1; "$IOWL" --eta=never --name=f --filename=f --rw=randread --bs=4k \
		--size=16m --number_ios=10 "$@" > /dev/null 2>&1 || fail "run on a file"
		echo $(( $(fincore -n -o PAGES f) )); }
	keep=$(pages --invalidate=0)
	drop=$(pages)
	echo "file: $keep pages cached after invalidate=0, $drop after invalidate=1"
	[ "$keep" -ge 4096 ] && [ "$drop" -le 64 ] || fail "invalidate=1 left $drop of a file's pages cached (invalidate=0: $keep)"
fi
loop_device 64m
reads() { awk '{ print $1 }' "/sys/block/$name/stat"; }
sectors() { awk '{ print $3 }' "/sys/block/$name/stat"; }
cache() { dd if="$dev" of=/dev/null bs=1M count=16 2>/dev/null; }	# the first 16 MiB, cached
run() { "$IOWL" --eta=never --name=inv --filename="$dev" --bs=4k --size=16m "$@" > out 2> err ||
	{ cat err; fail "run $*"; }; }
# A block device's page cache goes with its last close: a subshell holds it open while it is
# measured (and closes it however it ends, so that the device can be detached).
(
exec 3< "$dev"
cache; r0=$(reads)
run --rw=randread --number_ios=2000 --invalidate=0
r1=$(reads)
echo "invalidate=0: $((r1 - r0)) device reads for 2000 cached random reads"
[ $((r1 - r0)) -lt 100 ] || skip "the cached blocks did not stay cached ($((r1 - r0)) device reads): memory pressure"
cache; r1=$(reads)
run --rw=randread --number_ios=2000
r2=$(reads)
echo "invalidate=1 (default): $((r2 - r1)) device reads for 2000 random reads"
[ $((r2 - r1)) -ge 1000 ] || fail "buffered random reads were served from the page cache ($((r2 - r1)) device reads)"
# Every loop, and every time_based pass, starts with a cold cache: 3 loops of 16 MiB read 48.
s0=$(sectors)
run --rw=read --bs=64k --loops=3
s1=$(sectors)
echo "loops=3: $(( (s1 - s0) / 2048 )) MiB read from the device"
[ $((s1 - s0)) -ge $((3 * 32768)) ] || fail "loops=3 over 16 MiB read $(( (s1 - s0) / 2048 )) MiB from the device, expected 48"
run --rw=read --bs=1m --size=4m --runtime=1 --time_based --output-format=json
s2=$(sectors)
ios=$(jget out jobs.0.read.total_ios)
echo "time_based: $ios reads of 1 MiB, $(( (s2 - s1) / 2048 )) MiB from the device"
[ $((s2 - s1)) -ge $(( (ios - 4) * 2048 * 9 / 10 )) ] ||
	fail "time_based passes over 4 MiB: $ios reads of 1 MiB but $(( (s2 - s1) / 2048 )) MiB from the device"
) || exit $?
