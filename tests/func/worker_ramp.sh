#!/bin/sh
# worker_ramp: clones join one at a time and each step of the ramp is reported with its own figures.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# (throttled to 2000 IOPS a clone: the steps and their counts do not need spinning null clones,
# which took a CPU each for the 2 s)
"$IOWL" --name=r --ioengine=null --size=1g --rw=randread --numjobs=3 --group_reporting \
	--worker_ramp=500ms --runtime=2 --time_based --rate_iops=2000 --eta=never --output-format=json \
	> r.json 2> r.err ||
	{ cat r.err; fail "ramp run"; }
[ "$(jget r.json jobs.0.iowl.worker_ramp)" = 3 ] || fail "three steps"
for i in 0 1 2; do
	[ "$(jget r.json jobs.0.iowl.worker_ramp.$i.workers)" = $((i + 1)) ] || fail "step $i workers"
done
s0=$(jget r.json jobs.0.iowl.worker_ramp.0.seconds)
s1=$(jget r.json jobs.0.iowl.worker_ramp.1.seconds)
s2=$(jget r.json jobs.0.iowl.worker_ramp.2.seconds)
rt=$(jget r.json jobs.0.job_runtime)
# A clone never starts early, and the steps cover the 2 s once; job_runtime is, as fio's, the
# sum of the clones' own run times: 2 + 1.5 + 1 s at most, since the later clones start later
# (it was 3 x 2 s, which also understated usr_cpu and sys_cpu). These hold on any machine.
awk -v a="$s0" -v b="$s1" -v c="$s2" -v rt="$rt" 'BEGIN {
	t = a + b + c; exit !(a > 0.45 && a + b > 0.95 && t > 1.9 && t < 2.2 && rt >= 2000 && rt <= 4650) }' ||
	fail "steps $s0 $s1 $s2 s, job_runtime $rt ms (expected clones at 0.5 and 1 s, 2 s in all, 4.5 s of clone time)"
# Whether a clone starts on time is up to the scheduler: on a busy machine the thread that starts
# the next one can wait; judged only when the load allows.
if awk -v n="$(nproc)" '{ exit !($1 <= 2 * n) }' /proc/loadavg; then
	awk -v a="$s0" -v b="$s1" 'BEGIN { exit !(a < 0.7 && a + b < 1.2) }' ||
		fail "step lengths $s0 and $s1 (clones asked at 0.5 s and 1 s)"
else
	echo "note: load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs: clone start times not judged"
fi
# every IO is counted in exactly one step
sum=0
for i in 0 1 2; do
	sum=$((sum + $(jget r.json jobs.0.iowl.worker_ramp.$i.ios)))
done
[ "$sum" = "$(jget r.json jobs.0.read.total_ios)" ] || fail "steps add up to $sum IOs, the job did $(jget r.json jobs.0.read.total_ios)"
"$IOWL" --parse-only --name=r --ioengine=null --size=1g --numjobs=1 --worker_ramp=1 2> e1 && fail "numjobs=1 accepted"
grep -q "numjobs=2 or more" e1 || fail "numjobs message"
"$IOWL" --parse-only --name=r --ioengine=null --size=1g --numjobs=4 --worker_ramp=10 --runtime=20 \
	--time_based 2> e2 && fail "a runtime ending before the last clone starts was accepted"
grep -q "runtime ends before the last of 4 clones starts" e2 || { cat e2; fail "runtime message"; }
echo "worker ramp ok"
