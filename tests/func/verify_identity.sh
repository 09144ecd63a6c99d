#!/bin/sh
# verify checks every header field that identifies a write (issue 11): a lost write that leaves a
# block of an earlier run with another randseed (the same sequence numbers) is reported stale, a
# misdirected write is reported misplaced where it landed and stale where it was meant to go, and
# a block copied to another offset is reported misplaced by a run that only reads.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"

job="--name=v --filename=iowl-fault.dat --size=256k --bs=4k --rw=write --ioengine=psync --verify=crc32c"
# shellcheck disable=SC2086
"$IOWL" $job --randseed=1 --do_verify=0 > /dev/null 2> a.err || { cat a.err; fail "first run"; }

# The second run's write to 8192 is lost: the block holds the first run's write of the same seq.
# shellcheck disable=SC2086
LD_PRELOAD="$shim" IOWL_FAULT_LOSE_OFFSET=8192 "$IOWL" $job --randseed=2 --output-format=json \
	> b.json 2> b.err
rc=$?
[ "$rc" = 2 ] || { cat b.err; fail "a lost write under a block of another randseed: status $rc, expected 2"; }
[ "$(jget b.json jobs.0.iowl.verify.errors)" = 1 ] || fail "lost write: $(jget b.json jobs.0.iowl.verify.errors) errors, expected 1"
[ "$(jget b.json jobs.0.iowl.verify.first_failure.kind)" = stale ] &&
	[ "$(jget b.json jobs.0.iowl.verify.first_failure.offset)" = 8192 ] ||
	fail "lost write: $(jget b.json jobs.0.iowl.verify.first_failure.kind) at $(jget b.json jobs.0.iowl.verify.first_failure.offset), expected stale at 8192"
grep -q "offset=8192, length=4096: stale block" b.err || { cat b.err; fail "lost write: no 'stale block' line"; }
grep -q "seq 3/3, seed 0x[0-9a-f]*/0x[0-9a-f]*, job 0/0, clone 0/0" b.err || { cat b.err; fail "lost write: the header line does not show seq, seed, job and clone"; }

# The write meant for 32768 lands on 16384: 16384 is misplaced, 32768 stale (the second run's).
# shellcheck disable=SC2086
LD_PRELOAD="$shim" IOWL_FAULT_MISDIRECT=32768:16384 "$IOWL" $job --randseed=3 --verify_fatal=0 \
	--continue_on_error=verify --output-format=json > c.json 2> c.err
rc=$?
[ "$rc" = 2 ] || { cat c.err; fail "misdirected write: status $rc, expected 2"; }
[ "$(jget c.json jobs.0.iowl.verify.errors)" = 2 ] || { cat c.err; fail "misdirected write: $(jget c.json jobs.0.iowl.verify.errors) errors, expected 2"; }
grep -q "offset=16384, length=4096: misplaced block" c.err || { cat c.err; fail "misdirected write: 16384 not misplaced"; }
grep -q "offset=32768, length=4096: stale block" c.err || { cat c.err; fail "misdirected write: 32768 not stale"; }

# A block copied to another offset, read by a job that only reads: misplaced.
# shellcheck disable=SC2086
"$IOWL" $job --randseed=4 > /dev/null 2> d.err || { cat d.err; fail "clean run"; }
dd if=iowl-fault.dat of=iowl-fault.dat bs=4096 skip=2 seek=7 count=1 conv=notrunc 2> /dev/null || fail "dd"
"$IOWL" --name=r --filename=iowl-fault.dat --size=256k --bs=4k --rw=read --verify=crc32c \
	--output-format=json > e.json 2> e.err
[ $? = 2 ] && [ "$(jget e.json jobs.0.iowl.verify.first_failure.kind)" = misplaced ] &&
	[ "$(jget e.json jobs.0.iowl.verify.first_failure.offset)" = 28672 ] ||
	{ cat e.err; fail "a copied block: $(jget e.json jobs.0.iowl.verify.first_failure.kind) at $(jget e.json jobs.0.iowl.verify.first_failure.offset), expected misplaced at 28672"; }
# Clones side by side (offset_increment = size) and jobs one after the other on one region are
# fine; overlapping ones are refused before any IO (tests/bad/407-*, 408-*).
"$IOWL" --output-format=json --name=c --filename=cl.dat --numjobs=2 --offset_increment=1m --size=1m \
	--bs=4k --rw=randwrite --verify=crc32c --group_reporting > cl.json 2> cl.err || { cat cl.err; fail "clones side by side"; }
[ "$(jget cl.json jobs.0.iowl.verify.units)" = 512 ] && [ "$(jget cl.json jobs.0.iowl.verify.errors)" = 0 ] ||
	fail "clones side by side: $(jget cl.json jobs.0.iowl.verify.units) units, $(jget cl.json jobs.0.iowl.verify.errors) errors"
printf '[a]\nfilename=st.dat\nsize=1m\nrw=write\nverify=crc32c\n[b]\nstonewall\nfilename=st.dat\noffset=768k\nsize=1m\nrw=randwrite\nverify=crc32c\n' > st.ini
"$IOWL" st.ini > /dev/null 2> st.err || { cat st.err; fail "jobs one after the other on one region"; }
echo "verify names stale blocks of another randseed, misdirected and copied blocks"
