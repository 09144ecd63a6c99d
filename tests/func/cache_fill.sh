#!/bin/sh
# --cache-fill: distinct blocks touched, exact on small regions, against the coupon-collector
# maths N (1 - (1 - 1/N)^n) for uniform random IO, the HyperLogLog estimate within its stated
# error, and the interval series climbing to the final count.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
run() { "$IOWL" --eta=never --output-format=json "$@" > out.json 2> err || { cat err; fail "iowl $*"; }; }
f() { jget out.json "jobs.0.iowl.cache_fill.$1"; }

# off by default
run --name=n --ioengine=null --rw=randread --bs=4k --size=4m
[ -z "$(jget out.json jobs.0.iowl.cache_fill 2>/dev/null)" ] || fail "counted without --cache-fill"

# exact: a sequential pass, and a random pass with fio's random map, touch every block once
run --cache-fill --name=n --ioengine=null --rw=read --bs=4k --size=4000k
[ "$(f distinct_blocks)" = 1000 ] && [ "$(f blocks)" = 1000 ] && [ "$(f estimated)" = false ] ||
	fail "sequential pass: $(f distinct_blocks) of $(f blocks)"
run --cache-fill --name=n --ioengine=null --rw=randread --bs=4k --offset=1m --size=1m --loops=3
[ "$(f distinct_blocks)" = 256 ] && [ "$(f ios)" = 768 ] && approx "$(f passes)" 3 0 ||
	fail "random map: $(f distinct_blocks) blocks, $(f ios) IOs"
# blocks of the smallest size: 4k and 16k IOs over 1 MiB count in 256 blocks of 4k
run --cache-fill --name=n --ioengine=null --rw=randread --bssplit=4k/50:16k/50 --size=1m --norandommap=1 --number_ios=5000
[ "$(f block_size)" = 4096 ] && [ "$(f blocks)" = 256 ] || fail "block size $(f block_size), $(f blocks) blocks"
# two clones are counted each on its own region, and add up
run --cache-fill --name=n --ioengine=null --rw=read --bs=4k --size=1m --numjobs=2 --group_reporting
[ "$(f distinct_blocks)" = 512 ] && [ "$(f blocks)" = 512 ] || fail "two clones: $(f distinct_blocks) of $(f blocks)"

# uniform random IO without the random map: the coupon collector
for k in 1 3; do
	run --cache-fill --name=u --ioengine=null --rw=randread --norandommap=1 --bs=4k --size=256m \
		--loops=$k
	want=$(awk -v n=$((65536 * k)) 'BEGIN { N = 65536; printf "%.1f", N * (1 - exp(n * log(1 - 1 / N))) }')
	approx "$(f distinct_blocks)" "$want" 1 || fail "$k passes: $(f distinct_blocks) distinct, expected $want"
	approx "$(f uniform_fraction)" "$(awk -v w="$want" 'BEGIN { print w / 65536 }')" 0.01 || fail "uniform_fraction"
	exact=$(f distinct_blocks)
	# the same stream estimated: within 3 standard errors (3 x 0.81 %)
	run --cache-fill-exact=1000 --name=u --ioengine=null --rw=randread --norandommap=1 --bs=4k \
		--size=256m --loops=$k
	[ "$(f estimated)" = true ] && approx "$(f error_pct)" 0.8125 0 || fail "not estimated"
	approx "$(f distinct_blocks)" "$exact" 2.5 || fail "estimate $(f distinct_blocks), exact $exact"
done

# the series: cumulative, climbing, ending at the final count
run --cache-fill --name=s --ioengine=null --rw=randread --norandommap=1 --bs=4k --size=64m \
	--rate_iops=4000 --runtime=3s --time_based
n=$(jget out.json jobs.0.iowl.intervals.points)
[ "$n" -ge 3 ] || fail "$n points"
prev=0 i=0
while [ $i -lt "$n" ]; do
	d=$(jget out.json jobs.0.iowl.intervals.points.$i.cache_fill.distinct_blocks 2>/dev/null)
	# a point the worker reported nothing in (descheduled on a busy machine: its IOs go to the
	# next point) carries no count; it must then have no IOs either
	if [ -z "$d" ]; then
		r=$(jget out.json jobs.0.iowl.intervals.points.$i.read.total_ios 2>/dev/null)
		[ "${r:-0}" = 0 ] || fail "point $i: $r IOs and no cache_fill"
		i=$((i + 1))
		continue
	fi
	[ "$d" -ge "$prev" ] || fail "point $i: $d after $prev"
	prev=$d i=$((i + 1))
done
[ "$prev" = "$(f distinct_blocks)" ] || fail "last point $prev, final $(f distinct_blocks)"
[ "$(jget out.json jobs.0.iowl.intervals.points.$((n - 1)).cache_fill.ios)" = "$(f ios)" ] || fail "last point's IOs"
echo "cache fill ok"
