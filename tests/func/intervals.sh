#!/bin/sh
# Interval series: per interval (not cumulative), adding up to the totals; --status-interval as text and JSON lines.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"

# sum FILE DIR FIELD: the series' FIELD of direction DIR, summed over the points of job 0.
sum() {
	n=$(jget "$1" jobs.0.iowl.intervals.points)
	i=0 t=0
	while [ "$i" -lt "$n" ]; do
		t=$((t + $(jget "$1" "jobs.0.iowl.intervals.points.$i.$2.$3")))
		i=$((i + 1))
	done
	echo "$t"
}
check_sums() { # file label
	for d in read write; do
		for f in total_ios io_bytes; do
			[ "$(sum "$1" $d $f)" = "$(jget "$1" "jobs.0.$d.$f")" ] ||
				fail "$2: $d $f series $(sum "$1" $d $f) != total $(jget "$1" "jobs.0.$d.$f")"
		done
	done
}

# The default series (1 s) of a 1.5 s run: two points (the last a partial one) adding up to the
# totals.  (The runs are throttled: the sums hold at any rate, and an unthrottled null job spins
# a CPU per clone.)
"$IOWL" --eta=never --output-format=json --name=a --ioengine=null --rw=randrw --size=1g \
	--rate_iops=2000 --runtime=1500ms --time_based > a.json || fail "plain run"
[ "$(jget a.json jobs.0.iowl.intervals.interval_ms)" = 1000 ] || fail "default interval"
[ "$(jget a.json jobs.0.iowl.intervals.points)" = 2 ] || fail "two points"
check_sums a.json "plain"

# ramp_time is outside the figures and outside the series; clones merged by group_reporting too.
"$IOWL" --eta=never --output-format=json --name=r --ioengine=null --rw=randrw --size=1g \
	--rate_iops=2000 --ramp_time=350ms --runtime=650ms --time_based --numjobs=2 --group_reporting \
	--status-interval=200ms > r.jsonl || fail "ramp run"
lines=$(wc -l < r.jsonl)
[ "$lines" -ge 5 ] || fail "JSON lines: $lines"
# Every line is one complete JSON document: each interval, then the results.
i=1
while [ "$i" -le "$lines" ]; do
	sed -n "${i}p" r.jsonl > line.json
	if [ "$i" -lt "$lines" ]; then
		[ "$(jget line.json interval)" = "$i" ] || fail "line $i is not interval $i"
		[ "$(jget line.json jobs.0.workers)" = 2 ] || fail "line $i: merged workers"
	else
		cp line.json r.json
	fi
	i=$((i + 1))
done
check_sums r.json "ramp + group_reporting"
# The intervals during ramp_time show nothing done.
sed -n 1p r.jsonl > first.json
[ "$(jget first.json jobs.0.read.total_ios)" = 0 ] || fail "ramp interval counted IOs"

# A rate-limited job: each interval shows what was done in it, not a cumulative mean: its IOPS
# are its own IOs over its own length, and (checked above) the intervals add up to the totals.
# Whether the machine kept the rate is rate.sh's business, not checked here.
"$IOWL" --eta=never --output-format=json --name=q --ioengine=null --rw=randread --size=1g \
	--rate_iops=2000 --runtime=1500ms --time_based --status-interval=500ms > q.jsonl || fail "rate run"
for k in 1 2 3; do
	sed -n "${k}p" q.jsonl > k.json
	[ "$(jget k.json interval)" = $k ] || fail "line $k is not interval $k"
	ios=$(jget k.json jobs.0.read.total_ios) ms=$(jget k.json ms) iops=$(jget k.json jobs.0.read.iops)
	[ "$ms" -gt 0 ] || fail "interval $k lasted $ms ms"
	# (intervals keep to their schedule: one that closed late shortens the next)
	end=$((${end:-0} + ms))
	[ "$end" -ge $((k * 500 - 10)) ] || fail "interval $k closed at $end ms, before $((k * 500)) ms"
	approx "$iops" "$(awk -v n="$ios" -v m="$ms" 'BEGIN { print n * 1000 / m }')" 1 ||
		fail "interval $k: $iops IOPS, but $ios IOs in $ms ms"
	prev=$((${prev:-0} + ios))
done
[ "$prev" -le "$(tail -n 1 q.jsonl > last.json && jget last.json jobs.0.read.total_ios)" ] ||
	fail "the intervals counted $prev IOs, more than the run's total"
# Text: one block per interval, per direction IOPS and latency.
"$IOWL" --eta=never --name=t --ioengine=null --rw=randrw --size=1g --runtime=600ms --time_based \
	--rate_iops=2000 --status-interval=250ms > t.txt || fail "text run"
[ "$(grep -c '^-- interval [0-9]*: ' t.txt)" -ge 2 ] || { cat t.txt; fail "interval blocks"; }
grep -q '^t: (groupid=0, jobs=1): read: IOPS=.*clat avg=.* p50=.* p99=.*; write: IOPS=' t.txt ||
	{ cat t.txt; fail "interval line"; }

expect_status 1 "$IOWL" --status-interval=0 --name=x --ioengine=null --size=1m
expect_status 1 "$IOWL" --status-interval --name=x --ioengine=null --size=1m
echo "intervals ok"
