#!/bin/sh
# SPDX-License-Identifier: MIT
# verify_state_save / verify_state_load, fio 3.33's meaning: a job that writes with verify saves
# its write state at its end, also when stopped (SIGINT), to local-NAME-N-verify.state (N: the
# thread's index in the run, '/' in the name as '.'; in --aux-path when given); a verify-only run
# with verify_state_load=1 checks only what the stopped run completed.  Without the state the
# same verify-only run reports the units never written.  The file names are compared with fio's.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
d="$SCRATCH/data"
: > "$d"
# A sequential writer at 200 IOPS, stopped after about 1.5 s of its 10 s.
cat > w.fio <<EOF
[w]
filename=$d
size=8m
bs=4k
rw=write
verify=crc32c
do_verify=0
rate_iops=200
iodepth=4
ioengine=libaio
EOF
# the verify-only runs replay the writes without the rate limit
sed -e 's/^do_verify=0$/verify_only=1\nverify_state_load=1/' -e '/^rate_iops/d' w.fio > v.fio
sed -e 's/^do_verify=0$/verify_only=1/' -e '/^rate_iops/d' w.fio > v0.fio
"$IOWL" --output-format=json w.fio > w.json 2> w.err &
pid=$!
catches_sigint $pid || fail "the writer ended or never took SIGINT: $(cat w.err)"
i=0
while [ ! -s "$d" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.5
kill -INT $pid
wait $pid
[ -s local-w-0-verify.state ] || { cat w.err; fail "no local-w-0-verify.state after SIGINT"; }
n=$(jget w.json jobs.0.write.total_ios)
[ "$n" -gt 0 ] && [ "$n" -lt 2048 ] || fail "the stopped run wrote $n of 2048 blocks: not a partial write"
# with the state: exactly the n blocks written are read back and pass
expect_status 0 "$IOWL" --output-format=json v.fio
got=$(jget "$SCRATCH/out" jobs.0.read.total_ios)
[ "$got" = "$n" ] || fail "verify with the state read $got blocks, the stopped run wrote $n"
[ "$(jget "$SCRATCH/out" jobs.0.iowl.verify.errors)" = 0 ] || fail "verify with the state failed: $(cat "$SCRATCH/err")"
# a verify-only run saves no state of its own: a second one passes the same way (fio's fails)
expect_status 0 "$IOWL" --output-format=json v.fio
[ "$(jget "$SCRATCH/out" jobs.0.read.total_ios)" = "$n" ] || fail "a second verify with the state read $(jget "$SCRATCH/out" jobs.0.read.total_ios) blocks, not $n"
# without it: every block of the dry run is read back, and the first never written fails (as
# fio, the first failure ends the job: error 84, EILSEQ)
expect_status 2 "$IOWL" --output-format=json v0.fio
off=$(jget "$SCRATCH/out" jobs.0.iowl.verify.first_failure.offset)
kind=$(jget "$SCRATCH/out" jobs.0.iowl.verify.first_failure.kind)
[ "$off" -ge $((n * 4096)) ] && [ "$kind" = no_header ] ||
	fail "verify without the state: first failure '$kind' at $off, expected no header past the $n blocks written"
[ "$(jget "$SCRATCH/out" jobs.0.error)" = 84 ] || fail "verify without the state: error $(jget "$SCRATCH/out" jobs.0.error), expected 84"
# a job that only reads checks, of all it reads, the blocks the state says were written
sed -e 's/^rw=write$/rw=read/' -e 's/^do_verify=0$/verify_state_load=1/' -e '/^rate_iops/d' w.fio > r.fio
expect_status 0 "$IOWL" --output-format=json r.fio
[ "$(jget "$SCRATCH/out" jobs.0.read.total_ios)" = 2048 ] && [ "$(jget "$SCRATCH/out" jobs.0.iowl.verify.units)" = "$n" ] ||
	fail "a reader with the state: $(jget "$SCRATCH/out" jobs.0.read.total_ios) reads, $(jget "$SCRATCH/out" jobs.0.iowl.verify.units) units checked, expected 2048 and $n"
# a written block damaged after the stop is still found with the state; an unwritten one is not read
printf 'X' | dd of="$d" bs=1 seek=100 conv=notrunc status=none
printf 'X' | dd of="$d" bs=1 seek=$((8 * 1048576 - 100)) conv=notrunc status=none
expect_status 2 "$IOWL" --output-format=json v.fio
[ "$(jget "$SCRATCH/out" jobs.0.iowl.verify.errors)" = 1 ] || fail "one damaged written block: $(jget "$SCRATCH/out" jobs.0.iowl.verify.errors) failures"
grep -q "offset=0, length=4096" "$SCRATCH/err" || fail "the damaged block: $(head -n 2 "$SCRATCH/err")"
# a missing or damaged state fails the job, naming the file
mv local-w-0-verify.state keep.state
expect_status 2 "$IOWL" v.fio
grep -q "verify_state_load: cannot read 'local-w-0-verify.state': No such file" "$SCRATCH/err" || fail "missing state: $(cat "$SCRATCH/err")"
printf 'not iowl' > local-w-0-verify.state
expect_status 2 "$IOWL" v.fio
grep -q "not an iowl verify state" "$SCRATCH/err" || fail "a foreign state: $(cat "$SCRATCH/err")"
head -c 100 keep.state > local-w-0-verify.state
expect_status 2 "$IOWL" v.fio
grep -q "corrupt" "$SCRATCH/err" || fail "a cut state: $(cat "$SCRATCH/err")"
sed 's/^size=8m$/size=4m/' v.fio > v4.fio
cp keep.state local-w-0-verify.state
expect_status 2 "$IOWL" v4.fio
grep -q "saved for 2048 units" "$SCRATCH/err" || fail "a state of other units: $(cat "$SCRATCH/err")"
# --aux-path, and the names: the thread's index in the run, '/' as '.', as fio names them
mkdir aux fioaux
cat > names.fio <<EOF
[global]
size=1m
bs=4k
verify=crc32c
do_verify=0
rw=write
[r]
filename=$SCRATCH/n1
rw=read
verify=0
numjobs=2
[a/b]
filename=$SCRATCH/n2
offset_increment=1m
numjobs=2
[c]
filename=$SCRATCH/n1
stonewall
[s]
filename=$SCRATCH/n3
verify_state_save=0
EOF
expect_status 0 "$IOWL" --aux-path="$SCRATCH/aux" names.fio
got=$(cd aux && ls | tr '\n' ' ')
[ "$got" = "local-a.b-2-verify.state local-a.b-3-verify.state local-c-4-verify.state " ] || fail "state files in --aux-path: '$got'"
if have_fio; then
	fio --output-format=terse --aux-path="$SCRATCH/fioaux" names.fio > /dev/null 2>&1 || fail "fio names.fio failed"
	want=$(cd fioaux && ls | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "iowl's state files '$got', fio's '$want'"
fi
expect_status 1 "$IOWL" --aux-path="$SCRATCH/none" names.fio
grep -q -- "--aux-path=$SCRATCH/none: No such file" "$SCRATCH/err" || fail "a missing --aux-path: $(cat "$SCRATCH/err")"
exit 0
