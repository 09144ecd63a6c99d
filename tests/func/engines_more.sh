#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's other synchronous and POSIX engines (pvsync, pvsync2, vsync, mmap, posixaio), judged by
# what they did: data read back verified, the page cache (fincore), the flags each system call
# carried (strace), and the requests a loop device counted.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
f=$SCRATCH/data

# Data lands where it should: write with a verify header, read it back, for every engine.
for e in pvsync pvsync2 vsync mmap posixaio; do
	rm -f "$f"
	"$IOWL" --name=v --filename="$f" --size=4m --bs=16k --rw=randwrite --ioengine=$e \
		--iodepth=8 --verify=crc32c --output-format=json > v.json 2> err ||
		{ cat err; fail "$e: write and verify"; }
	[ "$(jget v.json jobs.0.error)" = 0 ] || fail "$e: verify error"
done

# nowait: a buffered read of an uncached page is EAGAIN, an IO error as in fio (not retried).
"$IOWL" --name=w --filename="$f" --size=4m --bs=64k --rw=write --end_fsync=1 > /dev/null 2>&1 || fail "layout"
"$IOWL" --name=nw --filename="$f" --size=4m --bs=4k --rw=randread --ioengine=pvsync2 --nowait=1 \
	--output-format=json > nw.json 2> err
rc=$?
[ $rc = 2 ] || { cat err; fail "nowait on a dropped page cache: status $rc, expected 2"; }
[ "$(jget nw.json jobs.0.error)" = 11 ] || fail "nowait: error $(jget nw.json jobs.0.error), expected EAGAIN (11)"
grep -q "Resource temporarily unavailable" err || fail "nowait: the error does not say EAGAIN: $(cat err)"

# uncached: buffered IO that leaves nothing in the page cache (RWF_DONTCACHE), where the kernel
# and filesystem take it.
if command -v fincore >/dev/null 2>&1; then
	uf=/var/tmp/iowl-uncached.$$
	on_exit "rm -f $uf"
	"$IOWL" --name=w --filename="$uf" --size=8m --bs=64k --rw=write --end_fsync=1 > /dev/null 2>&1 || fail "layout"
	if "$IOWL" --name=u --filename="$uf" --size=8m --bs=64k --rw=read --ioengine=pvsync2 \
		--uncached=1 --output-format=json > u.json 2> err; then
		pages=$(fincore -n -o PAGES "$uf" | tr -d ' ')
		[ "$pages" = 0 ] || fail "uncached=1 left $pages pages of $uf cached"
		"$IOWL" --name=c --filename="$uf" --size=8m --bs=64k --rw=read --ioengine=pvsync2 \
			> /dev/null 2>&1 || fail "cached read"
		pages=$(fincore -n -o PAGES "$uf" | tr -d ' ')
		# (memory pressure from other work may take some back: most must stay)
		[ "$pages" -ge 1024 ] || fail "a plain buffered read left $pages pages cached of 2048"
	else
		grep -q "not supported\|Invalid argument" err || { cat err; fail "uncached read"; }
		echo "uncached: this kernel or filesystem refuses RWF_DONTCACHE: $(tail -n 1 err)"
	fi
fi

# hipri_percentage: exactly that share of the calls carries RWF_HIPRI.
if command -v strace >/dev/null 2>&1; then
	# LeakSanitizer cannot run under ptrace: no leak check for this one run (ASan builds)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=preadv2 -o st.log "$IOWL" --name=h --filename="$f" --size=4m --bs=4k \
		--rw=randread --ioengine=pvsync2 --hipri=1 --hipri_percentage=25 > /dev/null 2> err ||
		{ cat err; fail "hipri_percentage run"; }
	all=$(grep -c "preadv2(" st.log)
	hi=$(grep -c "preadv2(.*RWF_HIPRI" st.log)
	[ "$all" = 1024 ] || fail "hipri: $all preadv2 calls, expected 1024"
	[ "$hi" = 256 ] || fail "hipri_percentage=25: $hi of $all calls had RWF_HIPRI, expected 256"
else
	echo "strace not installed: hipri_percentage not checked"
fi

# Engine options belong to their engines, and io_uring_cmd is refused with a reason.
"$IOWL" --name=x --ioengine=psync --nowait=1 --size=1m --parse-only 2> err && fail "nowait with psync accepted"
grep -q "'nowait' is an option of ioengine" err || fail "nowait with psync: $(cat err)"
"$IOWL" --name=x --ioengine=io_uring_cmd --size=1m --parse-only 2> err && fail "io_uring_cmd accepted"
grep -q "'io_uring_cmd' is not supported: .*NVMe" err || fail "io_uring_cmd: $(cat err)"

# vsync coalesces adjacent queued IOs into one readv: on a loop device with O_DIRECT, 16 queued
# 4 KiB reads are one 64 KiB request, and fio's vsync does the same.
loop_device 64m
reads() { awk '{ print $1 }' "/sys/block/$name/stat"; }
for tool in iowl fio; do
	[ $tool = fio ] && ! have_fio && break
	r0=$(reads)
	if [ $tool = iowl ]; then
		"$IOWL" --name=vs --filename="$dev" --size=16m --bs=4k --rw=read --direct=1 \
			--ioengine=vsync --iodepth=16 --iodepth_batch_submit=16 > /dev/null 2> err ||
			{ cat err; fail "vsync on $dev"; }
	else
		fio --name=vs --filename="$dev" --size=16m --bs=4k --rw=read --direct=1 \
			--ioengine=vsync --iodepth=16 --iodepth_batch_submit=16 > /dev/null 2> err ||
			{ cat err; fail "fio vsync on $dev"; }
	fi
	n=$(( $(reads) - r0 ))
	echo "$tool vsync: 4096 reads of 4 KiB were $n device requests"
	[ "$n" -le 400 ] || fail "$tool vsync: $n device requests for 4096 IOs queued 16 at a time"
done
r0=$(reads)
"$IOWL" --name=pv --filename="$dev" --size=16m --bs=4k --rw=read --direct=1 --ioengine=pvsync \
	> /dev/null 2> err || { cat err; fail "pvsync on $dev"; }
n=$(( $(reads) - r0 ))
[ "$n" -ge 4000 ] || fail "pvsync: $n device requests for 4096 reads of 4 KiB"
exit 0
