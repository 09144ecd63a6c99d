#!/bin/sh
# thinktime and its companions stall the job as fio's do; rate_min and rate_iops_min end a job
# that falls short of them with an IO error (exit 2) that names the job, direction and rates.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
run() { # out.json options...: a null-engine random-read job
	out=$1; shift
	"$IOWL" --name=t --ioengine=null --size=1g --rw=randread --eta=never --output-format=json \
		"$@" > "$out" 2> "$out.err" || { cat "$out.err"; fail "run $*"; }
}
# between lo and hi: within A LO HI
within() { awk -v a="$1" -v l="$2" -v h="$3" 'BEGIN { exit !(a >= l && a <= h) }'; }

# The rate_min runs last seconds of which they sleep most: they run in the background while the
# think time checks go on, and are checked at the end.
# rate_min far above what a rate-limited job does: it ends after the 2 s settling time and one
# rate_cycle (job_runtime well before the 4 s runtime), with exit 2 and the figures.
bg() { # NAME IOWL-ARGS...: runs iowl in the background; its status goes to NAME.rc
	n=$1; shift
	( "$IOWL" "$@" > "$n.out" 2> "$n.err"; echo $? > "$n.rc" ) &
}
bg m --name=m --ioengine=null --size=1g --rw=randread --rate_iops=100 --rate_min=1m \
	--rate_cycle=500 --runtime=4 --time_based --eta=never --output-format=json
# A think time that keeps the job under rate_iops_min ends it the same way.
bg k --name=k --ioengine=null --size=1g --rw=randwrite --thinktime=10ms --rate_iops_min=,1000 \
	--rate_cycle=500 --runtime=4 --time_based --eta=never
# Minimums the job meets do not end it: 1000 IOPS of 4 KiB against 500 IOPS, and against 1 MiB/s.
bg ok1 --name=ok1 --ioengine=null --size=1g --rw=randread --rate_iops=1000 --rate_iops_min=500 \
	--rate_cycle=500 --runtime=3 --time_based --eta=never
bg ok2 --name=ok2 --ioengine=null --size=1g --rw=randread --rate_iops=1000 --rate_min=1m \
	--rate_cycle=500 --runtime=3 --time_based --eta=never

# stalls FILE, stall_ms FILE, spin_ms FILE: what the job's stalls were (jobs[].iowl.thinktime)
stalls() { jget "$1" jobs.0.iowl.thinktime.stalls; }
stall_ms() { jget "$1" jobs.0.iowl.thinktime.stall_ns | awk '{ print $1 / 1e6 }'; }
spin_ms() { jget "$1" jobs.0.iowl.thinktime.spin_ns | awk '{ print $1 / 1e6 }'; }
# These assert what the stalls were, counted by the worker, and the lower bounds a sleep keeps
# however busy the machine is; never an IOPS or a duration that a loaded machine changes.
# 1000 IOs, a 1 ms stall after every 10: 99 stalls (none after the last IO), each at least 1 ms.
run s.json --thinktime=1ms --thinktime_blocks=10 --number_ios=1000
[ "$(jget s.json jobs.0.read.total_ios)" = 1000 ] || fail "number_ios=1000 did $(jget s.json jobs.0.read.total_ios) IOs"
within "$(stalls s.json)" 99 100 || fail "thinktime_blocks=10 over 1000 IOs: $(stalls s.json) stalls, not 99"
within "$(stall_ms s.json)" 99 100000 || fail "99 stalls of 1 ms lasted $(stall_ms s.json) ms"
within "$(spin_ms s.json)" 0 0 || fail "a sleeping stall spun $(spin_ms s.json) ms"
# The same stall spun: every stall spins its whole 1 ms on the clock.
run p.json --thinktime=1ms --thinktime_spin=1ms --thinktime_blocks=10 --number_ios=1000
within "$(stalls p.json)" 99 100 || fail "spun: $(stalls p.json) stalls"
within "$(spin_ms p.json)" 99 100000 || fail "thinktime_spin=1ms: 99 stalls spun $(spin_ms p.json) ms"
# Half spun, half slept: the spun part is half the stall.
run h.json --thinktime=2ms --thinktime_spin=1ms --thinktime_blocks=100 --number_ios=1000
within "$(stalls h.json)" 9 10 || fail "blocks=100: $(stalls h.json) stalls"
within "$(spin_ms h.json)" 9 "$(stall_ms h.json)" || fail "spin 1 ms of 2: spun $(spin_ms h.json) ms of $(stall_ms h.json)"
within "$(stall_ms h.json)" 18 100000 || fail "9 stalls of 2 ms lasted $(stall_ms h.json) ms"

# Counting issued IOs keeps at most thinktime_blocks in flight; counting completed ones lets the
# queue of 8 fill before the first 4 complete.
run i.json --iodepth=8 --thinktime=200us --thinktime_blocks=4 --thinktime_blocks_type=issue \
	--number_ios=2000
d8=$(jget i.json jobs.0.iodepth_level.8)
d4=$(jget i.json jobs.0.iodepth_level.4)
within "$d8" 0 0 || fail "blocks_type=issue, blocks=4: $d8 % of IOs at depth 5-8"
within "$d4" 1 100 || fail "blocks_type=issue, blocks=4: no IO at depth 3-4 ($d4 %)"
run c.json --iodepth=8 --thinktime=200us --thinktime_blocks=4 --number_ios=2000
d8=$(jget c.json jobs.0.iodepth_level.8)
within "$d8" 1 100 || fail "blocks_type=complete, blocks=4, iodepth=8: the queue never passed 4 ($d8 %)"
run c1.json --iodepth=8 --thinktime=200us --thinktime_blocks_type=issue --number_ios=500
within "$(jget c1.json jobs.0.iodepth_level.1)" 100 100 ||
	fail "the default thinktime_blocks=1 counting issues did not cap the queue at 1"

# thinktime_iotime alone: no stall until that much IO time (the default thinktime_blocks=1
# does not apply), so 1000 IOs end without one instead of after 1000 stalls.
run o.json --thinktime=500ms --thinktime_iotime=10s --number_ios=1000
[ "$(jget o.json jobs.0.read.total_ios)" = 1000 ] || fail "iotime run did $(jget o.json jobs.0.read.total_ios) IOs"
within "$(stalls o.json)" 0 0 || fail "thinktime_iotime=10s with 1000 fast IOs stalled $(stalls o.json) times"
# 50 ms of IO, then 150 ms of think, for 1 s: each cycle lasts at least 200 ms, so at most 5
# stalls (not one per IO), at least one, each of 150 ms but the one the deadline cuts short.
run t.json --thinktime=150ms --thinktime_iotime=50ms --runtime=1 --time_based
n=$(stalls t.json)
within "$n" 1 5 || fail "50 ms of IO per 150 ms of think for 1 s: $n stalls"
within "$(stall_ms t.json)" "$(( (n - 1) * 150 ))" 1000 ||
	fail "$n stalls of 150 ms lasted $(stall_ms t.json) ms"

wait
[ "$(cat m.rc)" = 2 ] || { cat m.err; fail "a job under rate_min exited $(cat m.rc), not 2"; }
ms=$(jget m.out jobs.0.job_runtime)
within "$ms" 2000 3900 || fail "a job under rate_min ran $ms ms (expected about 2.5 s)"
grep -q "job 'm': read bandwidth [0-9]* bytes/s over the last [0-9]* ms is below rate_min=1048576 bytes/s" \
	m.err || { cat m.err; fail "rate_min message"; }
got=$(sed -n 's/.*read bandwidth \([0-9]*\) bytes.*/\1/p' m.err)
within "$got" 200000 600000 || fail "rate_min reported $got bytes/s for 100 IOPS of 4 KiB"
jget m.out jobs.0.read.total_ios > /dev/null || fail "no results after a rate_min failure"
[ "$(cat k.rc)" = 2 ] || { cat k.err; fail "a job under rate_iops_min exited $(cat k.rc), not 2"; }
grep -q "job 'k': write rate [0-9]* IOPS over the last [0-9]* ms is below rate_iops_min=1000" \
	k.err || { cat k.err; fail "rate_iops_min message"; }
# A machine too busy to give a null job 1000 IOPS does not meet the precondition: skip then.
for j in ok1 ok2; do
	[ "$(cat $j.rc)" = 0 ] && continue
	got=$(sed -n 's/.* rate \([0-9]*\) IOPS over.*/\1/p; s/.* bandwidth \([0-9]*\) bytes.s over.*/\1/p' $j.err)
	lim=$([ $j = ok1 ] && echo 500 || echo 1048576)
	[ -n "$got" ] && [ "$got" -lt "$lim" ] &&
		skip "the machine gave a 1000-IOPS null job $got (IOPS or bytes/s) over one rate_cycle: too busy to check a minimum that is met"
	cat $j.err
	fail "a job meeting its minimum ($j) exited $(cat $j.rc)"
done
# A minimum above the cap is refused before anything runs.
expect_status 1 "$IOWL" --name=x --ioengine=null --size=1g --rate=1m --rate_min=2m --runtime=1
grep -q "rate_min for reads (2097152 bytes/s) is above rate (1048576 bytes/s)" "$SCRATCH/err" ||
	fail "rate_min above rate message"
echo "thinktime ok ($(stalls s.json) stalls of 1 ms: $(stall_ms s.json) ms)"
