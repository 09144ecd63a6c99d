#!/bin/sh
# Steady state (ss, ss_dur, ss_ramp, ss_interval): the job ends once the criterion holds over the window.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
job="--eta=never --output-format=json --name=s --ioengine=null --rw=randread --size=1g --time_based"
# How soon a criterion holds depends on the machine keeping the rate: the lower bounds below hold
# whatever the load; an upper bound missed is a failure only when the machine kept the rate in
# every steady-state sample (else the test skips: it was too busy to tell).  The runs record
# intervals of their ss_interval (--status-interval: one JSON line each, the results last), and
# a sample is kept when within 2.5 % of the rate: then every sample of a window is within 5 % of
# the window's mean, which is what iops:5% asks.
# held FILE RATE: true when every full interval of job 0 did RATE IOPS within 2.5 %
held() {
	n=$(jget "$1" jobs.0.iowl.intervals.points) i=0
	while [ $((i + 1)) -lt "$n" ]; do
		approx "$(jget "$1" jobs.0.iowl.intervals.points.$i.read.iops)" "$2" 2.5 || return 1
		i=$((i + 1))
	done
}
late() { # FILE RATE WHAT: skip or fail for an upper bound missed
	held "$1" "$2" || skip "the machine did not hold $2 IOPS for a null job: too busy to tell whether $3"
	fail "$3"
}

# The four runs sleep most of their time: they run at once.
bg() { # NAME OUT ARGS...: iowl ARGS > OUT in the background, its status in NAME.rc
	n=$1 out=$2; shift 2
	( "$IOWL" "$@" > "$out.all" 2> "$n.err"; echo $? > "$n.rc"
		grep -v '^{"interval"' "$out.all" > "$out" ) &
}
bg a a.json $job --runtime=20 --rate_iops=4000 --ss=iops:5% --ss_dur=2 --ss_interval=500ms \
	--status-interval=500ms
bg r r.json $job --runtime=20 --rate_iops=4000 --ss=iops:5% --ss_dur=1 --ss_interval=250ms \
	--ss_ramp=1500ms --status-interval=250ms
bg n n.json $job --runtime=2 --rate_iops=2000 --ss=iops_slope:0 --ss_dur=1 --ss_interval=250ms
bg t t.txt --eta=never --name=s --ioengine=null --rw=randread --size=1g --time_based --runtime=20 \
	--rate_iops=2000 --ss=lat:400% --ss_dur=1 --ss_interval=250ms
wait

# A rate-limited job is steady at once: attained after the first full window, well before runtime.
[ "$(cat a.rc)" = 0 ] || { cat a.err; fail "rate run"; }
[ "$(jget a.json jobs.0.steadystate.attained)" = 1 ] || late a.json 4000 "the rate-limited job was steady (not attained)"
[ "$(jget a.json jobs.0.steadystate.ss)" = "iops:5.000000%" ] || fail "ss string $(jget a.json jobs.0.steadystate.ss)"
[ "$(jget a.json jobs.0.steadystate.duration)" = 2 ] || fail "duration"
[ "$(jget a.json jobs.0.steadystate.data.iops)" = 4 ] || fail "window of 4 samples"
# The window that held: its samples within 5 % of their mean, bandwidth = IOPS x 4 KiB.
m=$(for i in 0 1 2 3; do jget a.json jobs.0.steadystate.data.iops.$i; done | awk '{ s += $1 } END { print s / 4 }')
for i in 0 1 2 3; do
	v=$(jget a.json jobs.0.steadystate.data.iops.$i)
	approx "$v" "$m" 5 || fail "sample $i: $v, the window's mean $m"
	approx "$(jget a.json jobs.0.steadystate.data.bw.$i)" "$(awk -v v="$v" 'BEGIN { print v * 4096 }')" 1 ||
		fail "bw sample $i"
done
ms=$(jget a.json jobs.0.iowl.steadystate.attained_ms)
[ "$ms" -ge 2000 ] || fail "attained at $ms ms, before one window of 2 s"
[ "$ms" -le 3600 ] || late a.json 4000 "attained at $ms ms"
rt=$(jget a.json jobs.0.job_runtime)
[ "$rt" -lt $((ms + 1000)) ] || fail "the job ran $rt ms after attaining at $ms"

# ss_ramp delays the first sample: attained no sooner than ramp + window.
[ "$(cat r.rc)" = 0 ] || { cat r.err; fail "ss_ramp run"; }
[ "$(jget r.json jobs.0.steadystate.attained)" = 1 ] || late r.json 4000 "with ss_ramp the job was steady (not attained)"
ms=$(jget r.json jobs.0.iowl.steadystate.attained_ms)
[ "$ms" -ge 2500 ] || fail "with ss_ramp attained at $ms ms, before ramp and window"
[ "$ms" -le 4000 ] || late r.json 4000 "with ss_ramp attained at $ms ms"

# A criterion that cannot hold (|slope| < 0): the job runs its whole runtime and says so.
[ "$(cat n.rc)" = 0 ] || { cat n.err; fail "never run"; }
[ "$(jget n.json jobs.0.steadystate.attained)" = 0 ] || fail "attained an impossible criterion"
# runtime counts from the start of the phase (README: a clone the scheduler runs late ends with
# the others), so the job's own job_runtime is the 2 s less the time its thread took to wake
# (1988 ms under TSan in CI): the end of its last interval, from the phase's start, is the 2 s.
rt=$(jget n.json jobs.0.job_runtime)
np=$(jget n.json jobs.0.iowl.intervals.points)
end=$(jget n.json jobs.0.iowl.intervals.points.$((np - 1)).t_ms)
[ "$end" -ge 2000 ] && [ "$rt" -le "$end" ] && [ "$rt" -le 3000 ] ||
	fail "runtime $rt ms, ended $end ms after the phase's start: not the 2 s asked"

# The latency criterion and the text report.
[ "$(cat t.rc)" = 0 ] || { cat t.err; fail "text run"; }
# (the figures in fio's units, whichever fits: under TSan a window of 4 samples once averaged
# 15.1k IOPS, 58.9MiB/s, a sample counting IOs of a worker that had not answered the one before)
grep -Eq '^  steadystate  : attained=yes, bw=[0-9.]+[KMGT]?i?B/s \([0-9.]+[kMGT]?B/s\), iops=[0-9.]+[kMG]?, lat=[0-9]+[num]?sec, lat mean dev=[0-9.]+%$' t.txt ||
	{ cat t.txt; fail "steadystate line"; }
grep -q '^                 after [0-9.]* s, over the last 4 samples of 0.25 s$' t.txt || { cat t.txt; fail "when"; }

# A sample is taken from figures every worker of the unit answered for: a worker inside a 300 ms
# read at the sample's time (the fault shim stalls read 1500, at ~0.75 s of a 2000 IOPS job)
# cannot answer, and its last answer is the run's start. Such a sample waits for the read to
# end (~1.05 s): samples near 1500, 2700 (the rate catching up), 2000 IOPS; a sample taken from
# the old figures said 0 IOPS, the next one 4000.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$SHIMS/faultshim.so" \
	IOWL_FAULT_STALL_AT=1500 "$IOWL" --output-format=json --name=s \
	--ioengine=psync --filename="$SCRATCH/iowl-fault-ss" --rw=randread --size=1m --time_based \
	--runtime=3 --rate_iops=2000 --ss=iops_slope:0% --ss_dur=3 > stall.json 2> err ||
	{ cat err; fail "stalled run"; }
for i in 0 1 2; do
	v=$(jget stall.json jobs.0.steadystate.data.iops.$i)
	[ "$v" -gt 0 ] || fail "sample $i of a job doing IO: $v IOPS (figures of a worker that did not answer)"
done

expect_status 1 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --ss_dur=1500ms --ss_interval=1s
grep -q "ss_dur must be a whole number of ss_interval" "$SCRATCH/err" || fail "ss_dur message"
expect_status 1 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --ss=iosp:1 --ss_dur=2
grep -q "iosp" "$SCRATCH/err" || fail "criterion message"
echo "steady ok"
