#!/bin/sh
# --idle-prof=system|percpu|calibrate: CPU idleness from calibrated idle-priority threads, one per
# CPU, in fio's text block and JSON object.  What a machine's idleness is depends on its load,
# so the figures are checked against their own maths, not against a value.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
job="--eta=never --name=i --ioengine=null --size=1g --rw=randread --runtime=300ms --time_based"
ncpu=$(getconf _NPROCESSORS_ONLN)

# calibrate: the unit of work alone, no job needed.
"$IOWL" --idle-prof=calibrate > cal.txt || fail "calibrate"
grep -q "^CPU idleness:" cal.txt && grep -q "^  unit work: mean=[0-9.]*us, stddev=[0-9.]*$" cal.txt ||
	{ cat cal.txt; fail "calibrate output"; }
grep -q "system:" cal.txt && fail "calibrate reports a system idleness"
awk -F'[=u]' '/unit work/ { exit !($3 > 0) }' cal.txt || fail "unit of work not timed"

# Without --idle-prof, no figure.
"$IOWL" $job --rate_iops=100 --output-format=json > n.json || fail "plain run"
grep -q cpu_idleness n.json && fail "cpu_idleness without --idle-prof"

# percpu: one figure per CPU, each a percentage, system their mean; JSON as fio's, and the text
# block of the same run (one run: an idle-profiled run is a second of CPU or more, calibration
# and idle threads).  It is throttled: it is also the first throttled run judged below.
throttled() {
	"$IOWL" $job --rate_iops=100 --idle-prof=percpu --output-format=json,normal --output=p.out ||
		fail "percpu run"
}
throttled
python3 - "$ncpu" p.out <<'PY' || fail "percpu JSON"
import json, sys
n = int(sys.argv[1]); c = json.JSONDecoder().raw_decode(open(sys.argv[2]).read())[0]["cpu_idleness"]
keys = ["system"] + ["cpu-%d" % i for i in range(n)] + ["unit_mean", "unit_stddev"]
assert list(c) == keys, list(c)
cpus = [c["cpu-%d" % i] for i in range(n)]
assert all(0 <= v <= 100 for v in cpus), cpus
assert abs(c["system"] - sum(cpus) / n) < 0.01, (c["system"], cpus)
assert c["unit_mean"] > 0 and c["unit_stddev"] >= 0, c
PY
grep -q "^CPU idleness:" p.out && grep -q "^  system: [0-9.]*%$" p.out &&
	grep -q "^  unit work: mean=" p.out || { tail -8 p.out; fail "percpu text"; }
[ "$(grep '^  percpu: ' p.out | tr ',' '\n' | grep -c '%')" = "$ncpu" ] ||
	{ grep percpu p.out; fail "percpu: not $ncpu figures"; }

# The figure follows the load iowl itself puts on the CPUs: a job that keeps every CPU busy
# leaves the idle-priority threads little, a throttled job leaves them most.  Other programs on
# the machine lower both, so the busy run is judged against the throttled one next to it; and
# as a run's figure covers its workers' start and end too, which a loaded machine stretches (a
# busy run has been seen at 50 % next to a throttled one at 34 %), a pair that fails is run
# again, up to three.  The busy run's JSON is system mode's: the mean only.
judged="" seen=""
for i in 1 2 3; do
	[ $i = 1 ] || throttled
	"$IOWL" $job --numjobs="$ncpu" --idle-prof=system --output-format=json > b.json || fail "busy run"
	# the throttled run's system figure, the busy one's; system mode's JSON has only the mean
	set -- $(python3 -c 'import json, sys
s = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]["cpu_idleness"]
b = json.load(open(sys.argv[2]))["cpu_idleness"]
print(s["system"], b["system"], list(b) == ["system", "unit_mean", "unit_stddev"])' p.out b.json)
	[ "$3" = True ] || fail "system JSON: $(cat b.json)"
	idle=$1 busy=$2
	seen="$seen throttled $idle% busy $busy%;"
	# (a pair the load leaves nothing to judge by ends the judgement, failed pairs before it too)
	awk -v i="$idle" 'BEGIN { exit !(i >= 30) }' || { judged=""; break; }
	judged=1
	awk -v i="$idle" -v b="$busy" 'BEGIN { exit !(b < i / 2) }' && break
	judged=2
done
[ "$judged" != 2 ] || fail "busy run idleness not under half the throttled run's in three pairs:$seen"
[ -n "$judged" ] || echo "note: a throttled run saw under 30% idle (machine busy):$seen busy/idle comparison not judged"
echo "idleness:$seen"

expect_status 1 "$IOWL" --idle-prof=all $job
grep -q "use system, percpu or calibrate" "$SCRATCH/err" || fail "bad mode: $(cat "$SCRATCH/err")"
exit 0
