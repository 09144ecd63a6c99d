#!/bin/sh
# Every job appears in the results, text and JSON: a job that fails to set up with its own error,
# and the jobs the run then does not start (its phase, later phases) as "not run" with the reason.
. "$(dirname "$0")/../lib.sh"
shim="$SHIMS/faultshim.so"
[ -f "$shim" ] || fail "fault shim not built ($shim)"
cd "$SCRATCH" || fail "cd"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# Job a's file cannot be laid out (EIO at offset 0); b shares its phase, c is stonewalled after.
cat > three.fio <<EOF
[global]
ioengine=psync
rw=read
size=64k

[a]
filename=iowl-fault.a

[b]
filename=b.dat

[c]
stonewall
filename=c.dat
EOF
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=0 "$IOWL" --output-format=json,normal --eta=never \
	three.fio > out 2> err
rc=$?
[ "$rc" = 2 ] || { cat err; fail "status $rc, expected 2"; }
sed -n '/^{/,/^}/p' out > o.json
sed '/^{/,/^}/d' out > o.txt
[ "$(jget o.json jobs)" = 3 ] || { cat o.json; fail "$(jget o.json jobs) jobs in the JSON, expected 3"; }
for i in 0 1 2; do
	echo "job $(jget o.json jobs.$i.jobname): error $(jget o.json jobs.$i.error)" \
		"$(jget o.json jobs.$i.iowl.setup_error 2>/dev/null)$(jget o.json jobs.$i.iowl.not_run 2>/dev/null)"
done
[ "$(jget o.json jobs.0.jobname)" = a ] && [ "$(jget o.json jobs.1.jobname)" = b ] &&
	[ "$(jget o.json jobs.2.jobname)" = c ] || fail "jobs out of order"
[ "$(jget o.json jobs.0.error)" = 5 ] || fail "job a: error $(jget o.json jobs.0.error), expected EIO (5)"
jget o.json jobs.0.iowl.setup_error | grep -q "^laying out 'iowl-fault.a' at offset 0: Input/output error" ||
	fail "job a: no setup_error"
for i in 1 2; do
	[ "$(jget o.json jobs.$i.error)" = 125 ] || fail "job $i: error $(jget o.json jobs.$i.error), expected ECANCELED (125)"
	jget o.json jobs.$i.iowl.not_run | grep -q "^the run stopped before this job started: job 'a' failed to set up: laying out" ||
		fail "job $i: no not_run reason"
done
[ "$(jget o.json jobs.2.groupid)" = 1 ] || fail "job c: group $(jget o.json jobs.2.groupid)"
grep -q "^a: (groupid=0, jobs=1): err= 5 (error=Input/output error)" o.txt || { cat o.txt; fail "text: job a"; }
grep -q "^  setup failed: laying out 'iowl-fault.a'" o.txt || { cat o.txt; fail "text: a's reason"; }
grep -q "^b: (groupid=0, jobs=1): not run" o.txt || { cat o.txt; fail "text: job b"; }
grep -q "^c: (groupid=1, jobs=1): not run" o.txt || { cat o.txt; fail "text: job c"; }
[ "$(grep -c "Input/output error" err)" = 1 ] || { cat err; fail "the error is not printed once on stderr"; }
grep -q "^iowl: job 'a': laying out 'iowl-fault.a' at offset 0: Input/output error" err ||
	{ cat err; fail "stderr does not name the job"; }

# A clone whose engine cannot be set up (io_setup beyond fs.aio-max-nr): every clone is listed.
truncate -s 64k d.dat
"$IOWL" --name=d --filename=d.dat --ioengine=libaio --iodepth=65535 --bs=512 --size=64k \
	--numjobs=3 --output-format=json --eta=never > d.json 2> d.err
rc=$?
grep -q "io_setup" d.err || skip "io_setup(65535) worked here (fs.aio-max-nr is $(cat /proc/sys/fs/aio-max-nr))"
[ "$rc" = 2 ] || { cat d.err; fail "engine failure: status $rc"; }
[ "$(jget d.json jobs)" = 3 ] || fail "engine failure: $(jget d.json jobs) of 3 clones in the JSON"
[ "$(grep -c "io_setup" d.err)" -le 3 ] || { cat d.err; fail "engine failure printed more than once per clone"; }
echo "every job reported ok"
