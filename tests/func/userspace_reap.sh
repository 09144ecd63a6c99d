#!/bin/sh
# SPDX-License-Identifier: MIT
# userspace_reap (libaio), fio's meaning: a reap waiting for no completion
# (iodepth_batch_complete_min=0) reads the AIO ring in user space and makes no io_getevents(2)
# call; without it every reap is an io_getevents().  Buffered AIO completes inside io_submit(),
# so the completions are always in the ring and the counts are exact: one io_getevents per IO
# without the option (as fio), none with it (as fio).  Counted with strace, for fio too.
. "$(dirname "$0")/../lib.sh"
command -v strace >/dev/null 2>&1 || skip "strace not found (apt-get install strace)"
strace_traced
f="$SCRATCH/ur.dat"
truncate -s 4m "$f" || fail "truncate"
# count TOOL USERSPACE_REAP: prints "io_submit io_getevents" calls of a 1024-read run
count() {
	tool=$1; shift
	strace -f -qq -e trace=io_submit,io_getevents -o "$SCRATCH/st" "$tool" --name=u \
		--filename="$f" --ioengine=libaio --iodepth=8 --iodepth_batch_complete_min=0 \
		--rw=randread --bs=4k --size=4m --userspace_reap="$1" > "$SCRATCH/out" 2>&1 ||
		{ cat "$SCRATCH/out"; fail "$tool userspace_reap=$1 failed"; }
	echo "$(grep -c '^[0-9]* *io_submit(' "$SCRATCH/st") $(grep -c '^[0-9]* *io_getevents(' "$SCRATCH/st")"
}
got=$(count "$IOWL" 0)
[ "$got" = "1024 1024" ] || fail "userspace_reap=0: io_submit/io_getevents calls '$got', expected '1024 1024' (one reap syscall per poll, as fio)"
got=$(count "$IOWL" 1)
[ "$got" = "1024 0" ] || fail "userspace_reap=1: io_submit/io_getevents calls '$got', expected '1024 0' (the ring read in user space)"
if have_fio; then
	got=$(count fio 0)
	[ "$got" = "1024 1024" ] || fail "fio userspace_reap=0 made '$got' calls: the test's premise changed"
	got=$(count fio 1)
	[ "$got" = "1024 0" ] || fail "fio userspace_reap=1 made '$got' calls: the test's premise changed"
fi
# the option belongs to libaio
printf '[j]\nioengine=psync\nfilename=%s\nsize=1m\nuserspace_reap=1\n' "$f" > "$SCRATCH/j.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/j.fio"
grep -q "userspace_reap" "$SCRATCH/err" || fail "userspace_reap with psync: $(cat "$SCRATCH/err")"
exit 0
