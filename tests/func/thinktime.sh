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

# 10 IOs, then 1 ms of sleep: about 10 / 1 ms = 10k IOPS (no think: millions; a think after
# every IO: under 1k).
run s.json --thinktime=1ms --thinktime_blocks=10 --runtime=2 --time_based
iops=$(jget s.json jobs.0.read.iops)
within "$iops" 4000 10500 || fail "thinktime=1ms per 10 IOs gave $iops IOPS, expected about 10k"
usr=$(jget s.json jobs.0.usr_cpu)
within "$usr" 0 30 || fail "a sleeping think time used $usr % user CPU"

# The same stall spun: the same rate, but the time is CPU time.
run p.json --thinktime=1ms --thinktime_spin=1ms --thinktime_blocks=10 --runtime=2 --time_based
within "$(jget p.json jobs.0.read.iops)" 4000 10500 ||
	fail "spun think gave $(jget p.json jobs.0.read.iops) IOPS"
# A spun stall is CPU time: far more than the sleeping run's, however busy the machine is.
usr=$(jget p.json jobs.0.usr_cpu)
slept=$(jget s.json jobs.0.usr_cpu)
awk -v p="$usr" -v s="$slept" 'BEGIN { exit !(p >= 2 * s + 15) }' ||
	fail "thinktime_spin=thinktime used $usr % user CPU, the sleeping stall $slept %"

# Counting issued IOs keeps at most thinktime_blocks in flight; counting completed ones lets the
# queue of 8 fill before the first 4 complete.
run i.json --iodepth=8 --thinktime=200us --thinktime_blocks=4 --thinktime_blocks_type=issue \
	--runtime=1 --time_based
d8=$(jget i.json jobs.0.iodepth_level.8)
d4=$(jget i.json jobs.0.iodepth_level.4)
within "$d8" 0 0 || fail "blocks_type=issue, blocks=4: $d8 % of IOs at depth 5-8"
within "$d4" 1 100 || fail "blocks_type=issue, blocks=4: no IO at depth 3-4 ($d4 %)"
run c.json --iodepth=8 --thinktime=200us --thinktime_blocks=4 --runtime=1 --time_based
d8=$(jget c.json jobs.0.iodepth_level.8)
within "$d8" 1 100 || fail "blocks_type=complete, blocks=4, iodepth=8: the queue never passed 4 ($d8 %)"
run c1.json --iodepth=8 --thinktime=200us --thinktime_blocks_type=issue --runtime=1 --time_based
within "$(jget c1.json jobs.0.iodepth_level.1)" 100 100 ||
	fail "the default thinktime_blocks=1 counting issues did not cap the queue at 1"

# thinktime_iotime alone: no stall until that much IO time (the default thinktime_blocks=1
# does not apply), so 1000 IOs end at once instead of after 1000 stalls.
start=$(date +%s%N)
run o.json --thinktime=500ms --thinktime_iotime=10s --number_ios=1000
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$(jget o.json jobs.0.read.total_ios)" = 1000 ] || fail "iotime run did $(jget o.json jobs.0.read.total_ios) IOs"
within "$ms" 0 450 || fail "thinktime_iotime=10s with 1000 fast IOs took $ms ms (a stall happened)"
# 100 ms of IO, 300 ms of think: over 2 s, about 0.5 s of IO, half a 1 s run's IOs.
run r.json --runtime=1 --time_based
run t.json --thinktime=300ms --thinktime_iotime=100ms --runtime=2 --time_based
ref=$(jget r.json jobs.0.read.total_ios)
got=$(jget t.json jobs.0.read.total_ios)
awk -v g="$got" -v r="$ref" 'BEGIN { exit !(g >= 0.15 * r && g <= 1.0 * r) }' ||
	fail "100 ms of IO per 300 ms of think for 2 s did $got IOs; 1 s without think did $ref"

# rate_min far above what a rate-limited job does: it ends after the 2 s settling time and one
# rate_cycle, with exit 2 and the figures.
start=$(date +%s%N)
expect_status 2 "$IOWL" --name=m --ioengine=null --size=1g --rw=randread --rate_iops=100 \
	--rate_min=1m --rate_cycle=500 --runtime=6 --time_based --eta=never --output-format=json
ms=$(( ($(date +%s%N) - start) / 1000000 ))
within "$ms" 2000 5000 || fail "a job under rate_min ended after $ms ms (expected about 2.5 s)"
grep -q "job 'm': read bandwidth [0-9]* bytes/s over the last [0-9]* ms is below rate_min=1048576 bytes/s" \
	"$SCRATCH/err" || { cat "$SCRATCH/err"; fail "rate_min message"; }
got=$(sed -n 's/.*read bandwidth \([0-9]*\) bytes.*/\1/p' "$SCRATCH/err")
within "$got" 200000 600000 || fail "rate_min reported $got bytes/s for 100 IOPS of 4 KiB"
jget "$SCRATCH/out" jobs.0.read.total_ios > /dev/null || fail "no results after a rate_min failure"
# A think time that keeps the job under rate_iops_min ends it the same way.
expect_status 2 "$IOWL" --name=k --ioengine=null --size=1g --rw=randwrite --thinktime=10ms \
	--rate_iops_min=,1000 --runtime=5 --time_based --eta=never
grep -q "job 'k': write rate [0-9]* IOPS over the last [0-9]* ms is below rate_iops_min=1000" \
	"$SCRATCH/err" || { cat "$SCRATCH/err"; fail "rate_iops_min message"; }
# A minimum the job meets does not end it.
expect_status 0 "$IOWL" --name=ok --ioengine=null --size=1g --rw=randread --rate_iops=1000 \
	--rate_iops_min=500 --rate_cycle=500 --runtime=3 --time_based --eta=never
expect_status 0 "$IOWL" --name=ok --ioengine=null --size=1g --rw=randread --rate_iops=1000 \
	--rate_min=1m --runtime=3 --time_based --eta=never
# A minimum above the cap is refused before anything runs.
expect_status 1 "$IOWL" --name=x --ioengine=null --size=1g --rate=1m --rate_min=2m --runtime=1
grep -q "rate_min for reads (2097152 bytes/s) is above rate (1048576 bytes/s)" "$SCRATCH/err" ||
	fail "rate_min above rate message"
echo "thinktime ok (1 ms per 10 IOs: $iops IOPS)"
