#!/bin/sh
# SPDX-License-Identifier: MIT
# create_on_open over a file shorter than the region, with a queueing engine (fio's meaning, as
# examples/enospc-pressure.fio uses it): the file is not extended at open, and a read past its
# end gets nothing and counts as an IO of 0 bytes (fio 3.33's libaio: 1000 reads, the bytes of
# those inside the file, no error).  With a synchronous engine fio ends the job with EIO at the
# first such read; iowl refuses that job before the run (tests/func/layout.sh).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# run TOOL: "ERROR READS BYTES INSIDE SIZE": the job's error, reads, bytes read, the reads of its
# iolog that start inside the 1 MiB file, times 4096, and the file's size after the run
run() {
	rm -f co.dat co.log
	truncate -s 1m co.dat
	"$1" --output-format=json --name=co --filename=co.dat --create_on_open=1 --filesize=16m \
		--rw=randread --bs=4k --ioengine=libaio --iodepth=4 --number_ios=1000 \
		--write_iolog=co.log 2> run.err | sed -n '/^{/,$p' > run.json
	echo "$(jget run.json jobs.0.error) $(jget run.json jobs.0.read.total_ios) $(jget run.json jobs.0.read.io_bytes)" \
		"$(awk 'NF == 4 && $2 == "read" && $3 < 1048576 { n++ } NF == 5 && $3 == "read" && $4 < 1048576 { n++ } END { print (n + 0) * 4096 }' co.log)" \
		"$(stat -c %s co.dat)"
}
set -- $(run "$IOWL")
echo "iowl: error $1, $2 reads, $3 bytes, $4 bytes inside the file, size $5"
[ "$1/$2/$5" = 0/1000/1048576 ] || fail "create_on_open read past the end: error $1, $2 reads, file size $5 (expected 0, 1000, 1048576: not extended)"
[ "$3" = "$4" ] && [ "$3" -gt 0 ] || fail "create_on_open: $3 bytes read, the reads inside the file make $4"
if have_fio; then
	set -- $(run fio)
	echo "fio: error $1, $2 reads, $3 bytes, $4 bytes inside the file, size $5"
	[ "$1/$2/$5" = 0/1000/1048576 ] && [ "$3" = "$4" ] || fail "fio did otherwise (error $1, $2 reads, $3 bytes, $4 inside, size $5): the test's premise changed"
fi
exit 0
