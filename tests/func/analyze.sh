#!/bin/sh
# --analyze generates a job's IOs without doing them: shares per stream and direction, block concentration, iolog.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
"$IOWL" --analyze=100000 --output-format=json --name=z --ioengine=psync --filename=none \
	--size=4g --bs=4k --rw=randread --random_distribution=zipf:1.2 --write_iolog=z.log > z.json 2> err ||
	{ cat err; fail "analyze run"; }
[ ! -e none ] || fail "--analyze created the target"
[ "$(jget z.json analysis.0.ios)" = 100000 ] || fail "IO count"
[ "$(jget z.json analysis.0.read.ios)" = 100000 ] || fail "read count"
[ "$(jget z.json analysis.0.concentration.blocks)" = 1048576 ] || fail "block count"
h1=$(jget z.json analysis.0.concentration.hottest_pct.1)
h50=$(jget z.json analysis.0.concentration.hottest_pct.50)
awk -v a="$h1" -v b="$h50" 'BEGIN { exit !(a > 80 && b >= a && b <= 100) }' || fail "zipf:1.2 concentration $h1 / $h50"
[ "$(grep -c ' read ' z.log)" = 100000 ] || fail "write_iolog lines"
head -1 z.log | grep -q "fio version 2 iolog" || fail "iolog header"
# A uniform job over 1000 blocks touches them all with 100000 IOs, 1 % of the blocks get ~1 % of the IOs.
"$IOWL" --analyze=100000 --output-format=json --name=u --ioengine=null --size=4000k --bs=4k \
	--rw=randrw --norandommap > u.json || fail "uniform"
[ "$(jget u.json analysis.0.concentration.distinct_blocks)" = 1000 ] || fail "uniform coverage"
awk -v v="$(jget u.json analysis.0.concentration.hottest_pct.1)" 'BEGIN { exit !(v > 1 && v < 1.6) }' || fail "uniform hottest 1%"
awk -v r="$(jget u.json analysis.0.read.ios)" 'BEGIN { exit !(r > 49000 && r < 51000) }' || fail "rwmixread 50"
# Text output names every stream.
printf '[s]\nioengine=null\nsize=1g\nstream=a\nweight=3\nrw=randread\nstream=b\nrw=write\n' > s.ini
"$IOWL" --analyze=40000 s.ini > s.txt || fail "streams text"
grep -q "^     a  .* 7[45]\.[0-9]*% IOs" s.txt || { cat s.txt; fail "stream a share"; }
grep -q "^     b  " s.txt || fail "stream b"
echo "analyze ok"
