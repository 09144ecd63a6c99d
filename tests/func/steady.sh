#!/bin/sh
# Steady state (ss, ss_dur, ss_ramp, ss_interval): the job ends once the criterion holds over the window.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
job="--eta=never --output-format=json --name=s --ioengine=null --rw=randread --size=1g --time_based"

# A rate-limited job is steady at once: attained after the first full window, well before runtime.
"$IOWL" $job --runtime=20 --rate_iops=4000 --ss=iops:5% --ss_dur=2 --ss_interval=500ms > a.json ||
	fail "rate run"
[ "$(jget a.json jobs.0.steadystate.attained)" = 1 ] || fail "not attained"
[ "$(jget a.json jobs.0.steadystate.ss)" = "iops:5.000000%" ] || fail "ss string $(jget a.json jobs.0.steadystate.ss)"
[ "$(jget a.json jobs.0.steadystate.duration)" = 2 ] || fail "duration"
[ "$(jget a.json jobs.0.steadystate.data.iops)" = 4 ] || fail "window of 4 samples"
for i in 0 1 2 3; do
	approx "$(jget a.json jobs.0.steadystate.data.iops.$i)" 4000 5 || fail "sample $i: $(jget a.json jobs.0.steadystate.data.iops.$i)"
	approx "$(jget a.json jobs.0.steadystate.data.bw.$i)" $((4000 * 4096)) 5 || fail "bw sample $i"
done
ms=$(jget a.json jobs.0.iowl.steadystate.attained_ms)
[ "$ms" -ge 2000 ] && [ "$ms" -le 3600 ] || fail "attained at $ms ms"
rt=$(jget a.json jobs.0.job_runtime)
[ "$rt" -lt 4500 ] || fail "the job ran $rt ms after attaining at $ms"

# ss_ramp delays the first sample: attained no sooner than ramp + window.
"$IOWL" $job --runtime=20 --rate_iops=4000 --ss=iops:5% --ss_dur=1 --ss_interval=250ms \
	--ss_ramp=1500ms > r.json || fail "ss_ramp run"
ms=$(jget r.json jobs.0.iowl.steadystate.attained_ms)
[ "$ms" -ge 2500 ] && [ "$ms" -le 4000 ] || fail "with ss_ramp attained at $ms ms"

# A criterion that cannot hold (|slope| < 0): the job runs its whole runtime and says so.
"$IOWL" $job --runtime=2 --rate_iops=2000 --ss=iops_slope:0 --ss_dur=1 --ss_interval=250ms > n.json ||
	fail "never run"
[ "$(jget n.json jobs.0.steadystate.attained)" = 0 ] || fail "attained an impossible criterion"
approx "$(jget n.json jobs.0.job_runtime)" 2000 5 || fail "runtime $(jget n.json jobs.0.job_runtime)"

# The latency criterion and the text report.
"$IOWL" --eta=never --name=s --ioengine=null --rw=randread --size=1g --time_based --runtime=20 \
	--rate_iops=2000 --ss=lat:400% --ss_dur=1 --ss_interval=250ms > t.txt || fail "text run"
grep -Eq '^  steadystate  : attained=yes, bw=[0-9]+KiB/s \([0-9]+kB/s\), iops=(19[0-9][0-9]|20[0-9][0-9]), lat=[0-9]+nsec, lat mean dev=[0-9.]+%$' t.txt ||
	{ cat t.txt; fail "steadystate line"; }
grep -q '^                 after [0-9.]* s, over the last 4 samples of 0.25 s$' t.txt || { cat t.txt; fail "when"; }

expect_status 1 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --ss_dur=1500ms --ss_interval=1s
grep -q "ss_dur must be a whole number of ss_interval" "$SCRATCH/err" || fail "ss_dur message"
expect_status 1 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --ss=iosp:1 --ss_dur=2
grep -q "iosp" "$SCRATCH/err" || fail "criterion message"
echo "steady ok"
