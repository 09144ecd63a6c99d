#!/bin/sh
# Every job appears in the results, text and JSON: a job that fails to set up with its own error,
# and the jobs the run then does not start (its phase, later phases, after a signal) as "not run"
# with the reason.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"

# Job b's file cannot be laid out (EIO at offset 0): a, set up before it in the same phase, and
# c, stonewalled after, are not run.
printf '[global]\nioengine=psync\nrw=read\nsize=64k\n\n[a]\nfilename=a.dat\n\n[b]\nfilename=iowl-fault.b\n\n[c]\nstonewall\nfilename=c.dat\n' > three.fio
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
[ "$(jget o.json jobs.1.error)" = 5 ] || fail "job b: error $(jget o.json jobs.1.error), expected EIO (5)"
jget o.json jobs.1.iowl.setup_error | grep -q "^laying out 'iowl-fault.b' at offset 0: Input/output error" ||
	fail "job b: no setup_error"
for i in 0 2; do
	[ "$(jget o.json jobs.$i.error)" = 125 ] ||
		fail "job $i: error $(jget o.json jobs.$i.error), expected ECANCELED (125)"
	jget o.json jobs.$i.iowl.not_run |
		grep -q "^the run stopped before this job started: job 'b' failed to set up: laying out" ||
		fail "job $i: no not_run reason"
done
[ "$(jget o.json jobs.2.groupid)" = 1 ] || fail "job c: group $(jget o.json jobs.2.groupid)"
grep -q "^a: (groupid=0, jobs=1): not run: the run stopped before this job started: job 'b'" o.txt ||
	{ cat o.txt; fail "text: job a"; }
grep -q "^b: (groupid=0, jobs=1): err= 5 (error=Input/output error)" o.txt || { cat o.txt; fail "text: job b"; }
grep -q "^  setup failed: laying out 'iowl-fault.b'" o.txt || { cat o.txt; fail "text: b's reason"; }
grep -q "^c: (groupid=1, jobs=1): not run" o.txt || { cat o.txt; fail "text: job c"; }
[ "$(grep -c "Input/output error" err)" = 1 ] || { cat err; fail "the error is not printed once on stderr"; }
grep -q "^iowl: job 'b': laying out 'iowl-fault.b' at offset 0: Input/output error" err ||
	{ cat err; fail "stderr does not name the job"; }

# SIGINT during the first phase: the stonewalled job is not run, and says so.
"$IOWL" --name=t --ioengine=null --size=1g --rw=randread --runtime=30 --time_based \
	--name=u --ioengine=null --size=1m --stonewall --output-format=json --eta=never > i.json 2> i.err &
pid=$!
sleep 1
catches_sigint $pid || fail "iowl did not set up its signal handlers"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || { cat i.err; fail "SIGINT: status $rc"; }
[ "$(jget i.json jobs.1.jobname)" = u ] && [ "$(jget i.json jobs.1.error)" = 125 ] ||
	{ cat i.json; fail "SIGINT: job u is not reported as not run"; }
jget i.json jobs.1.iowl.not_run | grep -q "interrupted by SIGINT" || fail "SIGINT: not_run reason"

# A job whose engine cannot be set up (the libaio shim fails io_setup() with EAGAIN, as the
# system-wide fs.aio-max-nr would; an io_setup of 65535 events took that limit from every test
# running beside this one): the job beside it in its phase is listed as not run.
aioshim="$SHIMS/aioshim.so"
[ -f "$aioshim" ] || fail "aio shim not built ($aioshim)"
truncate -s 64k d.dat
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$aioshim" \
	IOWL_AIO_SETUP=11 "$IOWL" --name=x --filename=d.dat --ioengine=libaio \
	--iodepth=8 --bs=512 --size=64k --name=y --filename=d.dat --ioengine=psync --size=64k \
	--output-format=json --eta=never > d.json 2> d.err
rc=$?
[ "$rc" = 2 ] || { cat d.err; fail "engine failure: status $rc"; }
[ "$(jget d.json jobs)" = 2 ] || fail "engine failure: $(jget d.json jobs) of 2 jobs in the JSON"
[ "$(jget d.json jobs.0.error)" = 11 ] && [ "$(jget d.json jobs.1.error)" = 125 ] ||
	fail "engine failure: errors $(jget d.json jobs.0.error) and $(jget d.json jobs.1.error)"
[ "$(grep -c "io_setup" d.err)" = 1 ] || { cat d.err; fail "engine failure printed more than once"; }
echo "every job reported ok"
