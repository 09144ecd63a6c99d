#!/bin/sh
# A real Prometheus server (127.0.0.1, generated config, scratch storage, 250 ms scrapes) scrapes
# a 5 s rate-limited iowl run through --metrics (OpenMetrics, which Prometheus asks for first;
# the figures updated every 250 ms, the status interval): its query API gives
# rate(iowl_io_total[2s]) close to iowl's own IOPS, and after the run (--metrics-linger) the same
# total as iowl's JSON.
. "$(dirname "$0")/../lib.sh"
command -v prometheus >/dev/null 2>&1 || skip "prometheus not found (apt-get install prometheus)"
command -v curl >/dev/null 2>&1 || skip "curl not found (apt-get install curl)"
cd "$SCRATCH" || fail "cd"
NP=$(dirname "$JGET")/netprobe
iport=$($NP freeport) && pport=$($NP freeport) || fail "no free port"
[ "$iport" != "$pport" ] || pport=$($NP freeport)
cat > prom.yml <<EOC
global:
  scrape_interval: 250ms
  scrape_timeout: 200ms
scrape_configs:
  - job_name: iowl
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$iport']
EOC
prometheus --config.file=prom.yml --storage.tsdb.path="$SCRATCH/tsdb" \
	--web.listen-address="127.0.0.1:$pport" > prom.log 2>&1 &
ppid_=$!
on_exit "kill $ppid_; wait $ppid_"
i=0
until curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null 2>&1; do
	kill -0 $ppid_ 2>/dev/null || { tail -n 5 prom.log; skip "prometheus did not start"; }
	i=$((i + 1)); [ $i -lt 300 ] || { tail -n 5 prom.log; skip "prometheus not ready after 30 s"; }
	sleep 0.1
done
q() { # QUERY [TIME [PLUS]]: the first result's value (at TIME + PLUS seconds)
	set -- "$1" "${2:+$(awk -v a="$2" -v b="${3:-0}" 'BEGIN { printf "%.3f", a + b }')}"
	curl -sf "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" \
		${2:+--data-urlencode "time=$2"} > q.json || fail "query $1"
	[ "$(jget q.json status)" = success ] || { cat q.json; fail "query $1"; }
	jget q.json data.result.0.value.1 2>/dev/null
}
# Prometheus applies new targets after a few seconds: wait for its first (failed) scrape of iowl
i=0
until [ -n "$(q 'up{job="iowl"}')" ]; do
	i=$((i + 1)); [ $i -lt 300 ] || skip "prometheus did not scrape within 30 s"; sleep 0.1
done
start=$(date +%s.%N)
"$IOWL" --eta=never --output-format=json --metrics="127.0.0.1:$iport" --metrics-linger=2 --cache-fill \
	--status-interval=250ms --name=p --ioengine=null --rw=randread --bs=4k --size=256m \
	--rate_iops=2000 --runtime=5s --time_based > lines.json 2> err || { cat err; fail "run"; }
end=$(date +%s.%N)	# the endpoint lingered from about end - 2 to end: query at end - 0.3 s (a whole
# second before the end, as $(date +%s) - 1 was, can be the moment the run ended, before any
# scrape of its last figures: 9502 of 10000 IOs)
tail -n 1 lines.json > out.json	# the status lines, then the results
iops=$(jget out.json jobs.0.read.iops)
total=$(jget out.json jobs.0.read.total_ios)
sel='iowl_io_total{job="p",clone="0",direction="read"}'
got=$(q "$sel" "$end" -0.3)
[ "$got" = "$total" ] || { tail -n 20 prom.log; fail "Prometheus has $got IOs, iowl's JSON $total"; }
[ "$(q 'iowl_run_phase{phase="done"}' "$end" -0.3)" = 1 ] || fail "the last scrape did not see the run done"
# every scrape of the last 4 s answered but at most one (a 200 ms scrape timeout a loaded machine
# can miss once: make test failed on one; an endpoint that stops answering fails them all)
nfail=$(q 'count_over_time(up{job="iowl"}[4s]) - sum_over_time(up{job="iowl"}[4s])' "$end" -0.3)
awk -v n="$nfail" 'BEGIN { exit !(n != "" && n <= 1) }' || fail "$nfail scrapes failed while iowl ran"
# the rate over 2 s windows in the middle of the run, one per half second: a window holds about
# eight scrapes of counters updated every 250 ms, so one late update moves it by an eighth, two
# by a quarter (a busy machine); their mean is tighter.  A window is judged only when Prometheus
# scraped on schedule in it (at least 6 samples of the counter in its 2 s): a machine too busy
# for that is measuring itself, not iowl.
sum=0 n=0 late=0
for t in 3 3.5 4 4.5; do
	c=$(q "count_over_time(${sel}[2s])" "$start" "$t")
	[ "${c:-0}" -ge 6 ] || { late=$((late + 1)); continue; }
	r=$(q "rate(${sel}[2s])" "$start" "$t")
	[ -n "$r" ] || continue
	approx "$r" "$iops" 40 || fail "rate at +${t}s: $r, iowl's IOPS $iops"
	sum=$(awk -v a="$sum" -v b="$r" 'BEGIN { print a + b }'); n=$((n + 1))
done
[ "$late" -le 1 ] || skip "Prometheus scraped fewer than 6 times in $late of 4 windows of 2 s: the machine is too busy"
[ "$n" -ge 3 ] || fail "only $n of 4 rate queries had data"
mean=$(awk -v a="$sum" -v n="$n" 'BEGIN { print a / n }')
# The counters move every 250 ms (the main thread's interval): a 2 s window's increase is one
# interval's IOs off in either direction, 12.5 %, whatever the machine, and a late update more;
# the four windows overlap, so their mean is not held closer than 20 % (10 % failed at 12 % on a
# busy machine with 5 s windows of 1 s updates).
approx "$mean" "$iops" 20 || fail "mean rate $mean, iowl's IOPS $iops"
# a latency quantile from the histogram lies within iowl's own latencies
p=$(q "histogram_quantile(0.5, rate(iowl_latency_seconds_bucket{job=\"p\",direction=\"read\"}[2s]))" "$start" 4)
awk -v p="$p" -v max="$(jget out.json jobs.0.read.clat_ns.max)" 'BEGIN { exit !(p > 0 && p * 1e9 <= max * 2.5) }' ||
	fail "median latency $p s against a maximum of $(jget out.json jobs.0.read.clat_ns.max) ns"
echo "prometheus: total $got, mean rate $mean, iowl $iops IOPS"
