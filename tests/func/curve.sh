#!/bin/sh
# --curve: a maximum-rate run, then runs at fractions of it; each reaches its target and the table has a knee line.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# psync on a small cached file: the maximum is bounded by the system calls, far below the null engine's.
truncate -s 16m f
# (0.5 s a point: the maximum-rate run spins a CPU for its runtime)
"$IOWL" --name=c --filename=f --ioengine=psync --rw=randread --runtime=500ms --time_based --eta=never \
	--curve=10,30 --output-format=json > c.json 2> c.err || { cat c.err; fail "curve run"; }
[ "$(jget c.json curve)" = 3 ] || fail "three points (maximum, 10 %, 30 %)"
max=$(jget c.json curve.0.iops)
for i in 1 2; do
	t=$(jget c.json curve.$i.target_iops)
	a=$(jget c.json curve.$i.iops)
	awk -v t="$t" -v m="$max" -v p="$(jget c.json curve.$i.pct)" 'BEGIN { exit !(t > m * p / 100 * 0.99 && t < m * p / 100 * 1.01) }' ||
		fail "point $i: target $t is not its share of $max"
	# Never above the target; below it only when the machine gave less than at the maximum run.
	awk -v a="$a" -v t="$t" 'BEGIN { exit !(a <= t * 1.1) }' || fail "point $i: reached $a IOPS for a target of $t"
	awk -v a="$a" -v t="$t" 'BEGIN { exit !(a >= t * 0.9) }' || slow="$slow point $i reached $a IOPS of $t;"
done
"$IOWL" --name=c --filename=f --ioengine=psync --rw=randread --runtime=200ms --time_based --eta=never \
	--curve=20 > c.txt 2> c.err || fail "text curve"
grep -q "^knee: " c.txt || fail "no knee line"
"$IOWL" --name=c --ioengine=null --size=1m --curve=0 > /dev/null 2> e && fail "curve=0 accepted"
grep -q "above 0 and up to 100" e || fail "curve message"
[ -z "$slow" ] || skip "the machine slowed after the maximum-rate run ($slow): too busy to tell whether each point reaches its target"
echo "curve ok"
