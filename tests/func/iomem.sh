#!/bin/sh
# SPDX-License-Identifier: MIT
# mem=/iomem= (malloc, shm, shmhuge, mmap[:FILE], mmaphuge, mmapshared), mem_align and lockmem, as
# fio 3.33: the buffers' addresses (strace of the reads: page aligned plus mem_align, the same as
# fio's), the system calls of each kind, the mmap file made and removed, lockmem's VmLck while
# the job runs, and huge pages where they can be set aside for the test (then given back).
# fio's answers are kept once given (tests/lib.sh's fio_kept): make test starts no fio here.
. "$(dirname "$0")/../lib.sh"
strace_traced
command -v strace > /dev/null || skip "strace is not installed"
cd "$SCRATCH" || fail "cd"
truncate -s 1m f
job="--name=x --ioengine=psync --filename=f --size=64k --bs=8k --output=/dev/null"

# the reads' buffer address modulo the page size
addr() { # tool args...
	tool=$1; shift
	if [ "$tool" = fio ]; then
		strace -f -qq -e trace=pread64 -e raw=pread64 -o st fio $job "$@" > /dev/null 2>&1
	else
		strace -f -qq -e trace=pread64 -e raw=pread64 -o st "$IOWL" $job "$@" > /dev/null 2>&1
	fi || fail "$tool $*: the run failed"
	a=$(grep -o 'pread64(0x[0-9a-f]*, 0x[0-9a-f]*, 0x2000' st | head -n 1 | sed 's/.*, \(0x[0-9a-f]*\), .*/\1/')
	[ -n "$a" ] && echo $((a % 4096))
}
for kind in malloc shm mmap mmapshared; do
	for align in 0 512; do
		got=$(addr iowl --mem=$kind --mem_align=$align)
		[ "$got" = "$align" ] || fail "mem=$kind mem_align=$align: the buffer is $got bytes past a page"
		# fio page-aligns only with mem_align (or direct): a plain malloc'd buffer is anywhere
		if have_fio && [ "$align" != 0 ] && ! fio_kept addr "$kind" "$align" "$got"; then
			f=$(addr fio --mem=$kind --mem_align=$align)
			[ "$f" = "$got" ] || fail "mem=$kind mem_align=$align: fio's buffer is $f past a page, iowl's $got"
			fio_keep addr "$kind" "$align" "$got"
		fi
	done
done
echo "ok: mem=malloc/shm/mmap/mmapshared with mem_align 0 and 512, as fio"

strace -f -qq -e trace=shmget,mmap -o st "$IOWL" $job --mem=shm > /dev/null 2>&1 || fail "mem=shm run"
grep -q 'shmget(IPC_PRIVATE, [0-9]*, IPC_CREAT|0600)' st || fail "mem=shm: no shmget"
"$IOWL" $job --mem=mmapshared:"$SCRATCH/buf" --exec_postrun="stat -c %s $SCRATCH/buf" || fail "mem=mmapshared:FILE run"
[ -s x.postrun.txt ] && [ "$(cat x.postrun.txt)" -ge 8192 ] || fail "mem=mmapshared:FILE: the file was not there during the run"
[ ! -e buf ] || fail "mem=mmapshared:FILE: the file iowl made was left behind"
expect_status 1 "$IOWL" --parse-only $job --mem=cudamalloc
grep -q "cudamalloc needs a GPU" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "cudamalloc refusal"; }
echo "ok: shm, mmapshared:FILE, cudamalloc refused"

# lockmem: VmLck of the process while two clones run (throttled: spinning two CPUs for 3 s shows
# nothing more); once seen, the run is stopped (SIGINT: status 130) instead of waited out
"$IOWL" --name=l --ioengine=null --size=1g --time_based --runtime=3 --numjobs=2 --lockmem=8m \
	--rate_iops=100 --output=/dev/null &
pid=$!
lck=0
while kill -0 $pid 2> /dev/null && [ "$lck" -lt 16384 ]; do
	lck=$(awk '/^VmLck/ { print $2 }' /proc/$pid/status 2> /dev/null)
	lck=${lck:-0}
	sleep 0.2
done
[ "$lck" -lt 16384 ] || kill -INT $pid 2> /dev/null
wait $pid
st=$?
[ $st = 0 ] || [ $st = 130 ] || fail "lockmem run failed (status $st)"
if asan_build || tsan_build; then
	# the sanitizers' interceptors make mlock(2) a no-op: nothing is locked to see (TSan: VmLck 0)
	echo "note: lockmem's VmLck not checked under a sanitizer (its mlock does nothing)"
else
	[ "$lck" -ge 16384 ] || fail "lockmem=8m with two clones: VmLck $lck kB, 16384 expected"
	echo "ok: lockmem ($lck kB locked)"
fi

# huge pages: set some aside for the test (root), give them back after
[ "$(id -u)" = 0 ] && [ -w /proc/sys/vm/nr_hugepages ] || { echo "huge page part skipped: needs root"; exit 0; }
old=$(cat /proc/sys/vm/nr_hugepages)
on_exit "echo $old > /proc/sys/vm/nr_hugepages"
echo $((old + 4)) > /proc/sys/vm/nr_hugepages
[ "$(cat /proc/sys/vm/nr_hugepages)" -ge $((old + 4)) ] || { echo "huge page part skipped: the kernel gave no huge pages"; exit 0; }
for kind in shmhuge mmaphuge; do
	"$IOWL" $job --mem=$kind --hugepage-size=2m || fail "mem=$kind with huge pages set aside failed"
done
echo $old > /proc/sys/vm/nr_hugepages
if [ "$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)" = 0 ]; then
	expect_status 2 "$IOWL" $job --mem=shmhuge
	grep -q "shmget.*huge pages" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "mem=shmhuge without huge pages: message"; }
fi
echo "ok: shmhuge, mmaphuge"
exit 0
