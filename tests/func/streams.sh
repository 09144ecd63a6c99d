#!/bin/sh
# Per-stream results: each stream's IOs, IOPS, bandwidth and latency, adding up to the job's.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# (1 GiB of IO, not a second of a spinning CPU: tens of thousands of IOs either way)
printf '[s]\nioengine=null\nsize=1g\nruntime=1\nstream=a\nweight=3\nrw=randread\nstream=b\nrw=randwrite\nbs=64k\n' > s.ini
"$IOWL" --eta=never --output-format=json s.ini > s.json || fail "run"
ra=$(jget s.json jobs.0.iowl.streams.0.read.ios)
wb=$(jget s.json jobs.0.iowl.streams.1.write.ios)
[ "$ra" = "$(jget s.json jobs.0.read.total_ios)" ] || fail "stream a's reads are not the job's"
[ "$wb" = "$(jget s.json jobs.0.write.total_ios)" ] || fail "stream b's writes are not the job's"
[ "$(jget s.json jobs.0.iowl.streams.0.read.clat_ns.N)" = "$ra" ] || fail "stream a latency count"
# Each IO picks its stream at random, 3:1: the share of a is within 0.01 of 0.75, or within four
# standard deviations of the binomial share when the run was too short (slow machine, TSan) to
# make that 0.01.
awk -v a="$ra" -v b="$wb" 'BEGIN { r = a / (a + b); t = 4 * sqrt(0.1875 / (a + b))
	if (t < 0.01) t = 0.01; exit !(r > 0.75 - t && r < 0.75 + t) }' || fail "weights 3:1: $ra and $wb"
awk -v i="$(jget s.json jobs.0.iowl.streams.1.write.iops)" -v j="$(jget s.json jobs.0.write.iops)" \
	'BEGIN { exit !(i > 0.99 * j && i < 1.01 * j) }' || fail "stream IOPS"
[ "$(jget s.json jobs.0.iowl.streams.1.write.bw_bytes | cut -d. -f1)" -gt 0 ] || fail "stream bandwidth"
"$IOWL" --eta=never s.ini | grep -q "^ *read  IOPS=.*clat avg=.*p99=" || fail "text per-stream line"
echo "streams ok"
