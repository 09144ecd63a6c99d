#!/bin/sh
# Per-stream results: each stream's IOs, IOPS, bandwidth and latency, adding up to the job's.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
printf '[s]\nioengine=null\nsize=1g\nruntime=1\ntime_based\nstream=a\nweight=3\nrw=randread\nstream=b\nrw=randwrite\nbs=64k\n' > s.ini
"$IOWL" --eta=never --output-format=json s.ini > s.json || fail "run"
ra=$(jget s.json jobs.0.iowl.streams.0.read.ios)
wb=$(jget s.json jobs.0.iowl.streams.1.write.ios)
[ "$ra" = "$(jget s.json jobs.0.read.total_ios)" ] || fail "stream a's reads are not the job's"
[ "$wb" = "$(jget s.json jobs.0.write.total_ios)" ] || fail "stream b's writes are not the job's"
[ "$(jget s.json jobs.0.iowl.streams.0.read.clat_ns.N)" = "$ra" ] || fail "stream a latency count"
awk -v a="$ra" -v b="$wb" 'BEGIN { r = a / (a + b); exit !(r > 0.74 && r < 0.76) }' || fail "weights 3:1"
awk -v i="$(jget s.json jobs.0.iowl.streams.1.write.iops)" -v j="$(jget s.json jobs.0.write.iops)" \
	'BEGIN { exit !(i > 0.99 * j && i < 1.01 * j) }' || fail "stream IOPS"
[ "$(jget s.json jobs.0.iowl.streams.1.write.bw_bytes | cut -d. -f1)" -gt 0 ] || fail "stream bandwidth"
"$IOWL" --eta=never s.ini | grep -q "^ *read  IOPS=.*clat avg=.*p99=" || fail "text per-stream line"
echo "streams ok"
