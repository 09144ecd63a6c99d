#!/bin/sh
# --iostat on a buffered run: every interval point of the series carries the page cache's share
# of the job's reads on its device (1 - device read bytes / iowl read bytes), consistent with the
# bytes it names and with the device's own counters: the first pass over an 8 MiB loop device
# misses, later passes hit.  A direct job gets no figure.
. "$(dirname "$0")/../lib.sh"
loop_device 8m
cd "$SCRATCH" || fail "cd"
"$IOWL" --eta=never --output-format=json --output=out.json --iostat=200ms --name=pc --filename="$dev" \
	--ioengine=psync --rw=randread --bs=4k --size=8m --invalidate=0 --loops=8 \
	--rate_iops=8000 > /dev/null 2> err || { cat err; fail "run"; }
tail -n 1 out.json > r.json
n=$(jget r.json jobs.0.iowl.intervals.points)
[ "$n" -ge 3 ] || fail "$n points"
i=0 dsum=0 with=0 first= last=
while [ $i -lt "$n" ]; do
	p=jobs.0.iowl.intervals.points.$i.page_cache
	if [ "$(jget r.json jobs.0.iowl.intervals.points.$i.read.io_bytes)" = 0 ]; then
		# no reads: no ratio (the device may still have read ahead for the last interval)
		[ -z "$(jget r.json $p 2>/dev/null)" ] || fail "point $i: a ratio without reads"
		i=$((i + 1)); continue
	fi
	with=$((with + 1))
	[ "$(jget r.json $p.device)" = "$name" ] || fail "point $i: device $(jget r.json $p.device)"
	rb=$(jget r.json $p.read_bytes) db=$(jget r.json $p.device_read_bytes) h=$(jget r.json $p.hit_ratio)
	[ "$rb" = "$(jget r.json jobs.0.iowl.intervals.points.$i.read.io_bytes)" ] || fail "point $i read bytes"
	awk -v rb="$rb" -v db="$db" -v h="$h" 'BEGIN { w = rb ? 1 - db / rb : 0; if (w < 0) w = 0
		d = h - w; exit !(d < 1e-5 && d > -1e-5) }' || fail "point $i: hit ratio $h of $db / $rb"
	dsum=$((dsum + db)) i=$((i + 1)) last=$h
	[ -n "$first" ] || first=$h
done
[ "$with" -ge 3 ] || fail "only $with points with reads"
# the points' device bytes are at most what the device counted over the run (which also holds
# the guard's probe and what an interval without reads read ahead)
dev=$(($(jget r.json disk_util.0.read_sectors 2>/dev/null || echo 0) * 512))
[ "$dev" -gt 0 ] && awk -v a="$dsum" -v b="$dev" 'BEGIN { exit !(a <= b && b - a < 16777216) }' ||
	fail "points add up to $dsum device bytes, disk_util $dev"
# first pass cold, last one warm: the cache served nearly all of the 64 MiB read
awk -v f="$first" -v l="$last" 'BEGIN { exit !(l > 0.9 && f < l) }' || fail "hit ratio first $f, last $l"
# direct IO: no page-cache figure
"$IOWL" --eta=never --output-format=json --output=d.json --iostat=500ms --name=d --filename="$dev" \
	--ioengine=psync --direct=1 --rw=randread --bs=4k --size=16m --number_ios=2000 > /dev/null 2> err ||
	{ cat err; fail "direct run"; }
tail -n 1 d.json > d1.json
[ -z "$(jget d1.json jobs.0.iowl.intervals.points.0.page_cache 2>/dev/null)" ] || fail "a direct job has a page-cache figure"
echo "page cache ok: first interval $first, last $last"
