#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's command-line flags with fio's meaning (--readonly, --max-jobs, --showcmd,
# --warnings-fatal, --eta-newline, --eta-interval, --trigger*, --alloc-size, --enghelp), the
# refused ones each with its reason, and the run's one clock (clocksource, gtod_cpu).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
null="--ioengine=null --size=1m"

# --readonly: a job that writes or trims is refused at its rw line; a read job runs.
printf '[r]\nioengine=null\nsize=1m\n[w]\nioengine=null\nsize=1m\nrw=randrw\n' > ro.fio
expect_status 1 "$IOWL" --readonly ro.fio
grep -q "ro.fio:7: .*--readonly" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "--readonly: not refused at ro.fio:7"; }
expect_status 0 "$IOWL" --readonly --name=r $null
if have_fio; then
	fio --readonly --parse-only ro.fio > /dev/null 2>&1 && fail "fio --readonly accepts the write job"
fi

# --max-jobs: the clones of all jobs.
expect_status 1 "$IOWL" --parse-only --max-jobs=3 --name=a $null --numjobs=2 --name=b $null --numjobs=2
grep -q "4 clones.*--max-jobs=3" "$SCRATCH/err" || fail "--max-jobs=3: $(cat "$SCRATCH/err")"
expect_status 0 "$IOWL" --parse-only --max-jobs=4 --name=a $null --numjobs=2 --name=b $null --numjobs=2
expect_status 1 "$IOWL" --parse-only --max-jobs=0 --name=a $null

# --showcmd: fio's command line of a job file; run as it is, it is the same jobs (throttled: a
# second of two spinning jobs is two CPUs).
printf '[global]\nbs=8k\ntime_based\nruntime=1\nrate_iops=1000\n\n[one]\nrw=read\nsize=1m\nioengine=null\n\n[two]\nrw=write\ndescription=two words\nioengine=null\nsize=2m\n' > sc.fio
"$IOWL" --showcmd sc.fio > sc.out || fail "--showcmd"
want="iowl --bs=8k --time_based --runtime=1 --rate_iops=1000 --name=one --rw=read --size=1m --ioengine=null --name=two --rw=write --description='two words' --ioengine=null --size=2m"
[ "$(cat sc.out)" = "$want" ] || fail "--showcmd printed: $(cat sc.out)"
if have_fio && ! fio_kept showcmd sc.fio "$want"; then
	# (fio puts a value with blanks in double quotes; iowl in single ones, which no shell expands)
	f=$(fio --showcmd sc.fio | sed 's/ *$//; s/^fio //; s/"two words"/'"'"'two words'"'"'/')
	[ "iowl $f" = "$want" ] || fail "fio --showcmd: fio $f"
	fio_keep showcmd sc.fio "$want"
fi
"$IOWL" --output-format=json --eta=never sc.fio > b.json & # (both at once: a second each)
bpid=$!
eval "\"$IOWL\" $(sed "s/^iowl //" sc.out) --output-format=json --eta=never" > a.json || fail "the --showcmd line does not run"
wait $bpid || fail "sc.fio"
[ "$(jget a.json jobs.1.jobname)" = two ] && [ "$(jget a.json jobs)" = "$(jget b.json jobs)" ] ||
	fail "--showcmd's line runs other jobs"

# --warnings-fatal: a warning while reading the jobs is an error, before any IO.
expect_status 0 "$IOWL" --parse-only --name=a $null --log_avg_msec=10
expect_status 1 "$IOWL" --warnings-fatal --name=a $null --log_avg_msec=10 --filename=wf.dat
grep -q "warnings-fatal" "$SCRATCH/err" || fail "--warnings-fatal: $(cat "$SCRATCH/err")"
[ -e wf.dat ] && fail "--warnings-fatal: the job ran"

# --eta-newline keeps a status line every period; --eta-interval refreshes it more often.
"$IOWL" --eta=always --eta-newline=1 --eta-interval=250ms --name=e $null --rate_iops=100 \
	--runtime=3 --time_based --output-format=json > /dev/null 2> eta.err || fail "--eta-newline"
[ "$(grep -c 'Jobs:' eta.err)" -ge 2 ] || { od -c eta.err | head; fail "--eta-newline: no line kept"; }
[ "$(tr '\r' '\n' < eta.err | grep -c 'Jobs:')" -ge 3 ] || fail "--eta-interval=250ms: few refreshes"
expect_status 1 "$IOWL" --eta-interval=100ms --name=e $null

# --trigger-file: the run ends once the file appears, the later phase does not start, and
# --trigger's command runs; --trigger-timeout ends the run after its time, checked meanwhile.
# (The jobs waiting for them are throttled: spinning, each would burn a CPU for nothing.)
"$IOWL" --output-format=json --eta=never --trigger-timeout=1 --name=a $null --rate_iops=1000 \
	--runtime=60 --time_based > tt.json &
ttpid=$!
( sleep 1; touch "$SCRATCH/trig" ) &
"$IOWL" --output-format=json --eta=never --trigger-file="$SCRATCH/trig" \
	--trigger="echo fired > '$SCRATCH/fired'" --name=a $null --rate_iops=1000 --runtime=60 \
	--time_based \
	--name=b $null --stonewall > t.json || fail "--trigger-file run"
wait $ttpid || fail "--trigger-timeout run"
wait
[ "$(cat fired)" = fired ] || fail "--trigger did not run"
[ "$(jget t.json jobs.0.read.runtime)" -lt 30000 ] || fail "--trigger-file: the job ran on"
[ "$(jget t.json jobs.1.error)" != 0 ] || fail "--trigger-file: the next phase ran"
grep -q "trigger-file" t.json || fail "--trigger-file: the job not run does not say why"
[ "$(jget tt.json jobs.0.read.runtime)" -lt 30000 ] || fail "--trigger-timeout: the job ran on"

# --alloc-size: accepted (iowl has no pool to size); --enghelp lists engines and options.
expect_status 0 "$IOWL" --alloc-size=32768 --parse-only --name=a $null
expect_status 1 "$IOWL" --alloc-size=x --parse-only --name=a $null
"$IOWL" --enghelp | grep -q "^	io_uring$" || fail "--enghelp: no io_uring"
"$IOWL" --enghelp=io_uring | grep -q "^fixedbufs " || fail "--enghelp=io_uring: no fixedbufs"
"$IOWL" --enghelp=io_uring,hipri | grep -q "type: bool" || fail "--enghelp=io_uring,hipri"
expect_status 1 "$IOWL" --enghelp=sg

# fio's flags iowl refuses: each by name, with a reason.
for f in --server --client=h --daemonize=p --remote-config=f --trigger-remote=c \
	 --crctest --cpuclock-test --merge-blktrace-only; do
	expect_status 1 "$IOWL" $f --name=a $null
	n=${f%%=*}
	grep -q -- "$n is not supported: ..........." "$SCRATCH/err" || fail "$f: $(cat "$SCRATCH/err")"
done
grep -q "mpirun" "$SCRATCH/err" && fail "$f refused with the MPI pointer"
expect_status 1 "$IOWL" --client=h --name=a $null
grep -q "mpirun -np N iowl" "$SCRATCH/err" || fail "--client: no pointer to the MPI mode"

# The clock: clocksource=clock_gettime is what the JSON says was used; one per run.
"$IOWL" --output-format=json --eta=never --name=c $null --clocksource=clock_gettime > c.json ||
	fail "clocksource=clock_gettime"
[ "$(jget c.json iowl.host.clock)" = clock_gettime ] || fail "clocksource=clock_gettime: $(jget c.json iowl.host.clock)"
[ "$(jget c.json jobs.0.read.clat_ns.N)" = 256 ] || fail "clocksource=clock_gettime: clat not measured"
"$IOWL" --output-format=json --eta=never --name=c $null --clocksource=gettimeofday > g.json ||
	fail "clocksource=gettimeofday"
[ "$(jget g.json iowl.host.clock)" = clock_gettime ] || fail "clocksource=gettimeofday"
expect_status 1 "$IOWL" --parse-only --name=a $null --clocksource=clock_gettime --name=b $null \
	--clocksource=cpu
grep -q "one clock" "$SCRATCH/err" || fail "two clocks: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --parse-only --name=a $null --gtod_cpu=1
grep -q "gtod_cpu=1: is refused: iowl reads" "$SCRATCH/err" || fail "gtod_cpu: $(cat "$SCRATCH/err")"
exit 0
