#!/bin/sh
# Every engine writes a scratch file and reads it back, buffered and with O_DIRECT; the JSON counts must be exact.
# (2 MiB: 32 writes, 512 reads, a queue of 16 filled twice or more; 8 MiB took 7 s on the disk)
. "$(dirname "$0")/../lib.sh"
f="$SCRATCH/data"
for engine in sync psync libaio io_uring pvsync pvsync2 vsync mmap posixaio; do
	for direct in 0 1; do
		for depth in 1 16; do
			rm -f "$f"
			"$IOWL" --name=w --filename="$f" --size=2m --bs=64k --rw=randwrite \
				--ioengine=$engine --direct=$direct --iodepth=$depth \
				--output-format=json --eta=never > "$SCRATCH/w.json" 2> "$SCRATCH/err" ||
				{ cat "$SCRATCH/err"; fail "$engine direct=$direct write failed"; }
			[ "$(jget "$SCRATCH/w.json" jobs.0.write.io_bytes)" = 2097152 ] ||
				fail "$engine direct=$direct depth=$depth: wrote $(jget "$SCRATCH/w.json" jobs.0.write.io_bytes) bytes"
			[ "$(jget "$SCRATCH/w.json" jobs.0.write.total_ios)" = 32 ] || fail "$engine: write IO count"
			"$IOWL" --name=r --filename="$f" --bs=4k --rw=read --ioengine=$engine \
				--direct=$direct --iodepth=$depth --output-format=json --eta=never \
				> "$SCRATCH/r.json" 2> "$SCRATCH/err" ||
				{ cat "$SCRATCH/err"; fail "$engine direct=$direct read failed"; }
			[ "$(jget "$SCRATCH/r.json" jobs.0.read.io_bytes)" = 2097152 ] ||
				fail "$engine direct=$direct depth=$depth: read $(jget "$SCRATCH/r.json" jobs.0.read.io_bytes) bytes"
			[ "$(jget "$SCRATCH/r.json" jobs.0.read.total_ios)" = 512 ] || fail "$engine: read IO count"
			[ "$(jget "$SCRATCH/r.json" jobs.0.error)" = 0 ] || fail "$engine: error set"
		done
	done
done
# The null engine moves no data and needs no file.
"$IOWL" --name=t --ioengine=null --rw=randread --bs=4k --size=1g --runtime=1 \
	--output-format=json --eta=never > "$SCRATCH/n.json" || fail "null engine run"
awk -v v="$(jget "$SCRATCH/n.json" jobs.0.read.iops)" 'BEGIN { exit !(v > 0) }' || fail "null iops not positive"
[ ! -e t.0.0 ] || fail "the null engine created a file"
echo "all engines ok"
