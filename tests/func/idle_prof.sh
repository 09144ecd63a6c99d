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

# percpu: one figure per CPU, each a percentage, system their mean; JSON as fio's.
"$IOWL" $job --idle-prof=percpu --output-format=json > p.json || fail "percpu run"
python3 - "$ncpu" p.json <<'PY' || fail "percpu JSON"
import json, sys
n = int(sys.argv[1]); c = json.load(open(sys.argv[2]))["cpu_idleness"]
keys = ["system"] + ["cpu-%d" % i for i in range(n)] + ["unit_mean", "unit_stddev"]
assert list(c) == keys, list(c)
cpus = [c["cpu-%d" % i] for i in range(n)]
assert all(0 <= v <= 100 for v in cpus), cpus
assert abs(c["system"] - sum(cpus) / n) < 0.01, (c["system"], cpus)
assert c["unit_mean"] > 0 and c["unit_stddev"] >= 0, c
PY
"$IOWL" $job --idle-prof=percpu > p.txt || fail "percpu text run"
grep -q "^CPU idleness:" p.txt && grep -q "^  system: [0-9.]*%$" p.txt &&
	grep -q "^  unit work: mean=" p.txt || { tail -8 p.txt; fail "percpu text"; }
[ "$(grep '^  percpu: ' p.txt | tr ',' '\n' | grep -c '%')" = "$ncpu" ] ||
	{ grep percpu p.txt; fail "percpu: not $ncpu figures"; }

# system: the mean only.
"$IOWL" $job --idle-prof=system --output-format=json > s.json || fail "system run"
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["cpu_idleness"]
sys.exit(list(c) != ["system", "unit_mean", "unit_stddev"])' s.json || fail "system JSON"
"$IOWL" $job --output-format=json > n.json || fail "plain run"
grep -q cpu_idleness n.json && fail "cpu_idleness without --idle-prof"

# The figure follows the load iowl itself puts on the CPUs: a job that keeps every CPU busy
# leaves the idle-priority threads little, a throttled job leaves them most.  Other programs on
# the machine lower both, so the busy run is judged against the throttled one next to it.
idle=$("$IOWL" $job --rate_iops=100 --idle-prof=system --output-format=json |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["cpu_idleness"]["system"])') ||
	fail "throttled run"
busy=$("$IOWL" $job --numjobs="$ncpu" --idle-prof=system --output-format=json |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["cpu_idleness"]["system"])') ||
	fail "busy run"
if awk -v i="$idle" 'BEGIN { exit !(i >= 30) }'; then
	awk -v i="$idle" -v b="$busy" 'BEGIN { exit !(b < i / 2) }' ||
		fail "busy run idleness $busy% not under half the throttled run's $idle%"
else
	echo "note: throttled run saw only $idle% idle (machine busy): busy/idle comparison not judged"
fi

expect_status 1 "$IOWL" --idle-prof=all $job
grep -q "use system, percpu or calibrate" "$SCRATCH/err" || fail "bad mode: $(cat "$SCRATCH/err")"
exit 0
