#!/bin/sh
# --iostat: iostat -x figures of the loop device behind the target, every interval, adding up to
# what the device counted (the maths itself is tested against a fake tree in test_diskstats).
. "$(dirname "$0")/../lib.sh"
loop_device 128m
cd "$SCRATCH" || fail "cd"

"$IOWL" --eta=never --output-format=json --iostat=300ms --name=io --filename="$dev" \
	--ioengine=psync --direct=1 --rw=randread --bs=4k --size=128m --runtime=1500ms \
	--time_based > io.jsonl 2> err || { cat err; fail "run"; }
lines=$(wc -l < io.jsonl)
[ "$lines" -ge 4 ] || fail "iostat lines: $lines"
# Sum r/s x seconds over the intervals: the reads the device completed during the run.
i=1 reads=0
while [ "$i" -lt "$lines" ]; do
	sed -n "${i}p" io.jsonl > l.json
	[ "$(jget l.json iostat.0.name)" = "$name" ] || fail "interval $i names $(jget l.json iostat.0.name)"
	[ "$(jget l.json jobs 2>/dev/null)" = "" ] || fail "--iostat alone printed job figures"
	reads=$(awk -v a="$reads" -v r="$(jget l.json 'iostat.0.r/s')" -v s="$(jget l.json iostat.0.seconds)" \
		'BEGIN { printf "%.0f", a + r * s }')
	awk -v q="$(jget l.json iostat.0.rareq-sz)" -v r="$(jget l.json 'iostat.0.r/s')" \
		'BEGIN { exit !(r == 0 || (q > 3.99 && q < 4.01)) }' || fail "interval $i: rareq-sz"
	i=$((i + 1))
done
sed -n "${lines}p" io.jsonl > final.json
total=$(jget final.json disk_util.0.read_ios)
approx "$reads" "$total" 2 || fail "intervals add up to $reads reads, the run's disk_util $total"
approx "$total" "$(jget final.json jobs.0.read.total_ios)" 2 || fail "device and iowl disagree"

# Text: an iostat -x header and a line for the device per interval.
"$IOWL" --eta=never --iostat --status-interval=400ms --name=io --filename="$dev" \
	--ioengine=psync --direct=1 --rw=randwrite --bs=8k --size=128m --runtime=1s \
	--time_based > io.txt 2> err || { cat err; fail "text run"; }
grep -q '^Device  *r/s  *w/s  *rkB/s  *wkB/s  *rrqm/s  *wrqm/s  *r_await  *w_await  *aqu-sz  *rareq-sz  *wareq-sz  *%util$' io.txt ||
	{ cat io.txt; fail "iostat header"; }
[ "$(grep -c "^$name " io.txt)" -ge 2 ] || { cat io.txt; fail "device lines"; }
awk -v n="$name" '$1 == n && $3 > 0 { ok = 1; if ($12 < 7.99 || $12 > 8.01) bad = 1 } END { exit !(ok && !bad) }' io.txt ||
	{ cat io.txt; fail "w/s or wareq-sz"; }
echo "iostat ok"
