#!/bin/sh
# worker_ramp: clones join one at a time and each step of the ramp is reported with its own figures.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
"$IOWL" --name=r --ioengine=null --size=1g --rw=randread --numjobs=3 --group_reporting \
	--worker_ramp=500ms --runtime=2 --time_based --eta=never --output-format=json > r.json 2> r.err ||
	{ cat r.err; fail "ramp run"; }
[ "$(jget r.json jobs.0.iowl.worker_ramp)" = 3 ] || fail "three steps"
for i in 0 1 2; do
	[ "$(jget r.json jobs.0.iowl.worker_ramp.$i.workers)" = $((i + 1)) ] || fail "step $i workers"
done
s0=$(jget r.json jobs.0.iowl.worker_ramp.0.seconds)
s2=$(jget r.json jobs.0.iowl.worker_ramp.2.seconds)
awk -v a="$s0" -v b="$s2" 'BEGIN { exit !(a > 0.4 && a < 0.7 && b > 0.8 && b < 1.2) }' ||
	fail "step lengths $s0 and $s2 (expected 0.5 s and about 1 s)"
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
