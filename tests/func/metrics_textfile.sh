#!/bin/sh
# --metrics-textfile: node exporter's textfile collector (Debian's prometheus-node-exporter, on
# 127.0.0.1) serves iowl's metrics while the run goes and its totals after it, without errors.
. "$(dirname "$0")/../lib.sh"
NE=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	skip "node exporter not found (apt-get install prometheus-node-exporter)"
command -v curl >/dev/null 2>&1 || skip "curl not found (apt-get install curl)"
cd "$SCRATCH" || fail "cd"
NP=$(dirname "$JGET")/netprobe
port=$($NP freeport) || fail "no free port"
mkdir tf
"$NE" --collector.disable-defaults --collector.textfile --collector.textfile.directory="$SCRATCH/tf" \
	--web.listen-address="127.0.0.1:$port" > ne.log 2>&1 &
nepid=$!
on_exit "kill $nepid; wait $nepid"
i=0
until curl -sf "http://127.0.0.1:$port/metrics" > /dev/null 2>&1; do
	kill -0 $nepid 2>/dev/null || { tail -n 5 ne.log; skip "node exporter did not start"; }
	i=$((i + 1)); [ $i -lt 200 ] || skip "node exporter not up after 20 s"; sleep 0.1
done
"$IOWL" --eta=never --output-format=json --metrics-textfile=tf --name=t --ioengine=null \
	--rw=randwrite --bs=8k --size=64m --rate_iops=1000 --runtime=4s --time_based > out.json 2> err &
pid=$!
on_exit "kill $pid"
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
sel='iowl_io_total{clone="0",direction="write",job="t"}'
# While the run goes (iowl_run_phase "running": its first interval was published, its end not
# yet): a count between 0 and the end's.  Scraped every 0.1 s from the start, as the start takes
# seconds under a sanitizer on a busy machine (a sleep of 2 s saw no interval yet under TSan);
# the run is 4 s, so from its first interval on there are 3 s to see it.  Only a scraper that
# was itself not run for 2 s may miss them (it skips then).
mid="" gap=0 last=$(date +%s%N)
while kill -0 $pid 2>/dev/null; do
	curl -sf "http://127.0.0.1:$port/metrics" > mid.prom || fail "node exporter scrape"
	if grep -q '^iowl_run_phase{phase="running"} 1$' mid.prom; then
		mid=$(val "$sel" mid.prom)
		[ -n "$mid" ] && [ "$mid" -gt 0 ] && break
	fi
	sleep 0.1
	now=$(date +%s%N)
	[ $((now - last)) -le $gap ] || gap=$((now - last))
	last=$now
done
wait $pid || { cat err; fail "run"; }
curl -sf "http://127.0.0.1:$port/metrics" > end.prom || fail "node exporter scrape"
total=$(jget out.json jobs.0.write.total_ios)
[ -n "$mid" ] || [ $gap -lt 2000000000 ] ||
	skip "the scraper was not run for $((gap / 1000000)) ms: no scrape while the run went"
[ -n "$mid" ] && [ "$mid" -gt 0 ] && [ "$mid" -lt "$total" ] || fail "mid-run count '$mid' (total $total)"
[ "$(val "$sel" end.prom)" = "$total" ] || { grep iowl_io_total end.prom; fail "node exporter has $(val "$sel" end.prom), JSON $total"; }
# node exporter prints large values in exponent form
awk -v v="$(val 'iowl_io_bytes_total{clone="0",direction="write",job="t"}' end.prom)" -v w="$((total * 8192))" \
	'BEGIN { exit !(v + 0 == w + 0) }' || { grep iowl_io_bytes end.prom; fail "bytes"; }
grep -q '^node_textfile_scrape_error 0$' end.prom || { grep textfile end.prom; fail "textfile collector error"; }
grep -q '^iowl_run_phase{phase="done"} 1$' end.prom || fail "run phase"
echo "node exporter: $mid mid-run, $total at the end"
