#!/bin/sh
# SPDX-License-Identifier: MIT
# openfiles, beside fio 3.33 on the same jobs (four files of 32 KiB, 4 KiB writes, openfiles=2):
# the IO thread's opens, closes and writes as strace sees them are the same calls in the same
# order as fio's for file_service_type=roundrobin and sequential (a file is opened at its first
# IO, and the files whose pass is over are closed before the next one is opened); random keeps
# fio's counts (each file opened and closed once, 8 writes each, never more than 2 open); libaio
# at iodepth 4 and io_uring with registerfiles write each file whole without an error; mmap
# with openfiles=1 writes data that verifies; unlink_each_loop removes every file, open or not,
# after each loop as fio; openfiles=nrfiles makes no call but the writes
# between the first write and the last.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
have_fio || skip "fio 3 is not installed (apt-get install fio): openfiles is compared with it"
command -v strace > /dev/null 2>&1 || skip "strace is not installed (apt-get install strace)"
strace_traced

JOB="--rw=write --bs=4k --nrfiles=4 --filesize=32k --ioengine=psync"
# run TOOL NAME ARGS...: the job NAME in directory NAME.TOOL, each thread traced to NAME.TOOL.st.TID
run() {
	tool=$1 n=$2
	shift 2
	rm -rf "$n.$tool" && mkdir "$n.$tool" || fail "mkdir"
	if [ "$tool" = fio ]; then set -- fio --output=/dev/null "$@"; else set -- "$IOWL" --eta=never --output=/dev/null "$@"; fi
	strace -ff -qq -e trace=openat,close,pwrite64,io_submit -o "$n.$tool.st" "$@" --name="$n" \
		--directory="$PWD/$n.$tool" --write_iolog="$n.$tool.iolog" > "$n.$tool.out" 2>&1 ||
		{ cat "$n.$tool.out"; fail "$tool: $n: the run failed"; }
}
# events TOOL NAME: the IO thread's "open F", "close F" and "w F" (F the file number), in order
events() {
	st=$(grep -l 'pwrite64\|io_submit' "$2.$1".st.* | head -n 1)
	[ -n "$st" ] || fail "$1: $2: no thread made the IOs"
	awk -v job="$2" '
	/^openat\(/ && index($0, "/" job ".0.") && !/O_WRONLY|O_RDONLY/ {
		f = $0; sub(/.*\.0\./, "", f); sub(/".*/, "", f)
		fd = $NF; file[fd] = f; print "open " f; next }
	/^close\(/ { fd = $0; sub(/^close\(/, "", fd); sub(/\).*/, "", fd)
		if (fd in file) { print "close " file[fd]; delete file[fd] } next }
	/^pwrite64\(/ { fd = $0; sub(/^pwrite64\(/, "", fd); sub(/,.*/, "", fd)
		print "w " (fd in file ? file[fd] : "?" fd) }' "$st"
}
# most TOOL NAME: the most files open at once in the IO thread
most() { events "$1" "$2" | awk '/^open/ { n++; if (n > m) m = n } /^close/ { n-- } END { print m + 0 }'; }
# per TOOL NAME: writes per file in the tool's iolog, "f0=N f1=N ..."
per() {
	awk '$(NF-2) == "write" { f = $(NF-3); sub(/.*\.0\./, "", f); n[f]++ }
	     END { for (i = 0; i < 4; i++) printf "f%d=%d ", i, n[i] }' "$2.$1.iolog"
}

# fio's answers (its calls the same as iowl's, its counts the expected ones) are kept once given
# (tests/lib.sh's fio_kept): the question holds the MD5 of iowl's calls, so other calls ask fio again.
for fst in roundrobin sequential; do
	run iowl $fst $JOB --openfiles=2 --file_service_type=$fst
	events iowl $fst > $fst.iowl.ev
	fio_kept $fst "iowl's calls $(md5sum < $fst.iowl.ev)" && continue
	run fio $fst $JOB --openfiles=2 --file_service_type=$fst
	events fio $fst > $fst.fio.ev
	[ "$(grep -c '^w' $fst.fio.ev)" = 32 ] || fail "fio $fst: $(grep -c '^w' $fst.fio.ev) writes traced, expected 32"
	cmp -s $fst.iowl.ev $fst.fio.ev ||
		fail "file_service_type=$fst openfiles=2: iowl's calls differ from fio's: $(diff $fst.fio.ev $fst.iowl.ev | head -n 8)"
	echo "$fst: the same $(grep -c '^open' $fst.iowl.ev) opens, $(grep -c '^close' $fst.iowl.ev) closes and 32 writes in the same order as fio, at most $(most iowl $fst) open: $(tr '\n' ' ' < $fst.iowl.ev | cut -c1-120)..."
	fio_keep $fst "iowl's calls $(md5sum < $fst.iowl.ev)"
done

for t in iowl fio; do
	[ $t = fio ] && fio_kept random "4 4 2" "f0=8 f1=8 f2=8 f3=8 " && continue
	run $t rnd $JOB --rw=randwrite --openfiles=2 --file_service_type=random
	ev=$(events $t rnd)
	o=$(echo "$ev" | grep -c '^open') c=$(echo "$ev" | grep -c '^close') m=$(most $t rnd) p=$(per $t rnd)
	[ "$o $c $m" = "4 4 2" ] || fail "$t random openfiles=2: $o opens, $c closes, at most $m open (expected 4 4 2)"
	[ "$p" = "f0=8 f1=8 f2=8 f3=8 " ] || fail "$t random openfiles=2: writes per file $p"
	echo "$t random: $o opens, $c closes, at most $m open, $p"
	[ $t = fio ] && fio_keep random "4 4 2" "f0=8 f1=8 f2=8 f3=8 "
done

# a queue of 4: a file is closed once its IOs are done, none is lost or fails
for t in iowl fio; do
	[ $t = fio ] && fio_kept libaio "4 2 f0=8 f1=8 f2=8 f3=8 " && continue
	run $t aio $JOB --ioengine=libaio --iodepth=4 --direct=1 --openfiles=2
	ev=$(events $t aio)
	o=$(echo "$ev" | grep -c '^open') m=$(most $t aio) p=$(per $t aio)
	[ "$o $m $p" = "4 2 f0=8 f1=8 f2=8 f3=8 " ] ||
		fail "$t libaio iodepth=4 openfiles=2: $o opens, at most $m open, $p"
	echo "$t libaio iodepth=4: $o opens, at most $m open, $p"
	[ $t = fio ] && fio_keep libaio "4 2 f0=8 f1=8 f2=8 f3=8 "
done
# io_uring with registered files: the table's slot follows each open and close; what it wrote verifies
expect_status 0 "$IOWL" --eta=never --name=uring --directory="$PWD" $JOB --ioengine=io_uring \
	--registerfiles=1 --iodepth=4 --openfiles=2 --verify=crc32c --output-format=json
[ "$(jget "$SCRATCH/out" jobs.0.read.io_bytes) $(jget "$SCRATCH/out" jobs.0.error)" = "131072 0" ] ||
	fail "io_uring registerfiles openfiles=2 verify: $(jget "$SCRATCH/out" jobs.0.read.io_bytes) bytes verified"

# verify: the writes one file at a time, the read-back opens each file again and keeps them open
# to the end, as fio's (the iologs' open and close lines, in order)
# oc TOOL: the opens, closes and reads per file of its iolog, in order, counted (vfy.TOOL.oc)
oc() {
	awk '$NF == "open" || $NF == "close" { f = $(NF-1); sub(/.*\.0\./, "", f); print $NF, f }
	     $(NF-2) == "read" { f = $(NF-3); sub(/.*\.0\./, "", f); print "r", f }' vfy.$1.iolog |
		uniq -c > vfy.$1.oc
}
run iowl vfy $JOB --openfiles=1 --verify=crc32c
oc iowl
if ! fio_kept verify "iowl's opens and closes $(md5sum < vfy.iowl.oc)"; then
	run fio vfy $JOB --openfiles=1 --verify=crc32c
	oc fio
	cmp -s vfy.iowl.oc vfy.fio.oc || fail "verify openfiles=1: iowl's opens and closes differ from fio's: $(diff vfy.fio.oc vfy.iowl.oc | head -n 8)"
	fio_keep verify "iowl's opens and closes $(md5sum < vfy.iowl.oc)"
fi
echo "verify openfiles=1: the same opens, closes and reads per file as fio: $(awk '{ printf "%s%s %s, ", ($1 > 1 ? $1 "x " : ""), $2, $3 }' vfy.iowl.oc)"
# mmap: each file mapped when opened; what it wrote verifies
expect_status 0 "$IOWL" --eta=never --name=mm --directory="$PWD" $JOB --ioengine=mmap \
	--openfiles=1 --verify=crc32c --output-format=json
[ "$(jget "$SCRATCH/out" jobs.0.read.io_bytes)" = 131072 ] ||
	fail "mmap openfiles=1 verify: $(jget "$SCRATCH/out" jobs.0.read.io_bytes) bytes verified, expected 131072"

# unlink_each_loop: every file is removed after each loop but the last, open or not (8 unlinks
# for loops=3, as fio's)
for t in iowl fio; do
	[ $t = fio ] && fio_kept unlink_each_loop 8 && continue
	rm -rf ul.$t && mkdir ul.$t || fail "mkdir"
	if [ $t = fio ]; then set -- fio --output=/dev/null; else set -- "$IOWL" --eta=never --output=/dev/null; fi
	strace -f -qq -e trace=unlink,unlinkat -o ul.$t.st "$@" --name=ul --directory="$PWD/ul.$t" \
		$JOB --openfiles=2 --unlink_each_loop=1 --loops=3 > /dev/null 2>&1 || fail "$t: unlink_each_loop run"
	n=$(grep -c 'unlink.*ul\.0\.[0-3]") = 0' ul.$t.st)
	[ "$n" = 8 ] || fail "$t unlink_each_loop=1 loops=3 openfiles=2: $n files removed, expected 8"
	[ $t = fio ] && fio_keep unlink_each_loop 8
done
echo "unlink_each_loop loops=3 openfiles=2: 8 files removed in both"

# openfiles=nrfiles: the files are opened before the IO, nothing else between the writes
rm -f whole.*
strace -ff -qq -o whole.st "$IOWL" --eta=never --output=/dev/null --name=whole \
	--directory="$PWD" $JOB --openfiles=4 || fail "openfiles=4: the run failed"
st=$(grep -l pwrite64 whole.st.* | head -n 1)
calls=$(awk '/^pwrite64/ { seen = 1; n++ } seen && !/^pwrite64/ { k++; last = $0 } /^pwrite64/ { between = k }
	END { print n, between + 0 }' "$st")
[ "$calls" = "32 0" ] || fail "openfiles=4: writes and other calls between them: $calls"
echo "openfiles=4: 32 writes, no other call among them"
exit 0
