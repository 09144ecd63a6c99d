#!/bin/sh
# A vdbench parameter file on a real block device (a loop device): a lun under /dev is refused
# without openflags=o_direct, as vdbench refuses it on Linux; with it the run does direct IO and
# the device's own counters agree with iowl's within 1 %.
. "$(dirname "$0")/../lib.sh"
loop_device 128m
cd "$SCRATCH" || fail "cd"
cat > dev.vdb <<'VDB'
sd=sd1,lun=/dev/sdb
wd=wd1,sd=sd1,xfersize=(4k,50,64k,50),rdpct=60
rd=run1,wd=wd1,iorate=max,elapsed=2,interval=1
VDB
map=--vdbench-lun=/dev/sdb=$dev
expect_status 1 "$IOWL" --eta=never "$map" dev.vdb
grep -qx "iowl: dev.vdb:1: sd=sd1,lun=$dev: on Linux vdbench requires openflags=o_direct for a device under /dev (without it the page cache is measured)" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "a device without o_direct"; }

sed 's|^sd=sd1,lun=/dev/sdb$|sd=sd1,lun=/dev/sdb,openflags=o_direct|' dev.vdb > direct.vdb
stat_field() { awk -v f="$1" '{ print $f }' "/sys/block/$name/stat"; }
r0=$(stat_field 1); w0=$(stat_field 5)
"$IOWL" --eta=never --output-format=json --output=out.json "$map" direct.vdb 2> err ||
	{ cat err; fail "the run with o_direct"; }
r1=$(stat_field 1); w1=$(stat_field 5)
[ "$(jget out.json 'jobs.0.job options.direct')" = 1 ] || fail "not direct"
reads=$(jget out.json jobs.0.read.total_ios)
writes=$(jget out.json jobs.0.write.total_ios)
[ "$reads" -gt 100 ] || fail "only $reads reads"
# 64k transfers may be split by the device: it counts at least as many, and not 1 % fewer.
awk -v d=$((r1 - r0)) -v i="$reads" 'BEGIN { exit !(d >= 0.99 * i) }' || fail "device reads $((r1 - r0)), iowl $reads"
awk -v d=$((w1 - w0)) -v i="$writes" 'BEGIN { exit !(d >= 0.99 * i) }' || fail "device writes $((w1 - w0)), iowl $writes"
# rdpct=60: within 3 points, or four binomial standard deviations of so few IOs (TSan: 279)
awk -v r="$reads" -v w="$writes" 'BEGIN { n = r + w; t = 400 * sqrt(0.24 / n); if (t < 3) t = 3
	d = 100 * r / n - 60; exit !(d <= t && -d <= t) }' || fail "reads $reads writes $writes"
echo "vdbench on $dev: iowl $reads reads, $writes writes; the device $((r1 - r0)), $((w1 - w0))"
