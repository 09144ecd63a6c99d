#!/bin/sh
# --sweep: a doubling iodepth sweep gives one row per point as text, CSV and one JSON document,
# Little's law matches the depth on the null engine, and a loop-device sweep fills the device columns.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# Each null point does its 65536 IOs (~50 ms) rather than spin a CPU for a second: Little's law
# and the columns hold for any length.
base="--name=s --ioengine=null --size=256m --rw=randread --runtime=1 --eta=never"
"$IOWL" $base --sweep iodepth=1..8x2 --output-format=json > s.json 2> s.err || { cat s.err; fail "json sweep"; }
[ "$(jget s.json points)" = 4 ] || fail "points"
[ "$(jget s.json points.2.values.iodepth)" = 4 ] || fail "point values"
# Never more in flight than asked; a full queue from iodepth 2 (at iodepth 1 the time between
# one IO's completion and the next submission counts too, and grows on a busy machine).
for i in 0 1 2 3; do
	awk -v c="$(jget s.json points.$i.concurrency)" -v n="$(jget s.json points.$i.n)" \
		'BEGIN { exit !(c < n * 1.1 && (c > n * 0.9 || (n == 1 && c > 0.2))) }' ||
		fail "Little's law at point $i: $(jget s.json points.$i.concurrency) in flight of $(jget s.json points.$i.n)"
done
# Each point has completion (clat) and total (lat, fio's: submission included) latency: lat is
# never below clat; the percentiles of lat need lat_percentiles=1 (null in JSON without).
for i in 0 3; do
	awk -v c="$(jget s.json points.$i.clat_mean_us)" -v l="$(jget s.json points.$i.lat_mean_us)" \
		'BEGIN { exit !(c > 0 && l >= c) }' || fail "point $i: lat mean below clat mean"
done
[ "$(jget s.json points.0.lat_p99_us)" = null ] || fail "lat percentiles without lat_percentiles=1"
"$IOWL" $base --lat_percentiles=1 --sweep iodepth=1,4 --output-format=json > p.json || fail "lat_percentiles sweep"
awk -v c="$(jget p.json points.1.clat_p99_us)" -v l="$(jget p.json points.1.lat_p99_us)" \
	'BEGIN { exit !(c > 0 && l >= c) }' || fail "lat p99 below clat p99"
jget s.json usl.lambda > /dev/null 2>&1 || jget s.json usl.error > /dev/null || fail "usl object"
"$IOWL" $base --sweep iodepth=1,2 --sweep rw=randread,randwrite --output-format=csv > s.csv || fail "csv"
[ "$(wc -l < s.csv)" = 5 ] || fail "csv rows"
head -1 s.csv | grep -q "^iodepth,rw,iops,mb_s,clat_mean_us,clat_p50_us,clat_p99_us,clat_p99_9_us,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us," ||
	{ head -1 s.csv; fail "csv header: each latency column says clat or lat"; }
sed -n 2p s.csv | grep -q "^1,randread," || fail "first key outermost"
sed -n 3p s.csv | grep -q "^1,randwrite," || fail "second key innermost"
"$IOWL" $base --sweep iodepth=1,2,3 > s.txt 2> s.err || fail "text"
grep -q "no scalability fit: need at least 4 points, got 3" s.txt || { cat s.txt; fail "USL with 3 points"; }
grep -q "clat mean(us) .*clat p99(us) .*lat mean(us)" s.txt || { head -3 s.txt; fail "text columns: clat and lat"; }
"$IOWL" $base --sweep iodepth=1,0 > /dev/null 2> s.err && fail "a bad point was accepted"
grep -q "iodepth" s.err || fail "bad point message"
"$IOWL" $base --sweep bs=4k..1m > /dev/null 2> s.err && fail "a range without a step was accepted"
[ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 || skip "the loop-device part needs root and losetup"
truncate -s 256m /dev/shm/iowl-sweep.$$ && on_exit "rm -f /dev/shm/iowl-sweep.$$"
dev=$(losetup -f --show /dev/shm/iowl-sweep.$$) || skip "no loop device"
on_exit "losetup -d $dev"
# (points of 1 s: at 300 ms a point under ThreadSanitizer had no device %util or aqu-sz)
"$IOWL" --name=l --filename="$dev" --ioengine=libaio --direct=1 --rw=randread --bs=4k \
	--runtime=1 --time_based --eta=never --sweep iodepth=1..8x2 --output-format=json > l.json 2> l.err ||
	{ cat l.err; fail "loop sweep"; }
# The device columns are the loop device's own figures: some busy time and queue at every point
# (how much depends on how much CPU the machine gave the loop device's thread).
for i in 0 3; do
	awk -v u="$(jget l.json points.$i.util)" -v q="$(jget l.json points.$i.aqu_sz)" \
		'BEGIN { exit !(u > 0 && u <= 100.5 && q > 0) }' || fail "point $i: device %util or aqu-sz not filled"
done
echo "sweep ok"
