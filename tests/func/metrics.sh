#!/bin/sh
# --metrics and --metrics-textfile: GET /metrics only (404 elsewhere, 405 for other methods), the
# Prometheus text format by default and OpenMetrics when asked, counters that add up to the
# run's JSON totals, promtool's lint of the scrape and of the textfile, and bad arguments.
. "$(dirname "$0")/../lib.sh"
command -v curl >/dev/null 2>&1 || skip "curl not found (apt-get install curl)"
cd "$SCRATCH" || fail "cd"
NP=$(dirname "$JGET")/netprobe

# Bad arguments: exit 1 before any IO.
for a in --metrics=0 --metrics=70000 --metrics=abc --metrics=1.2.3:9100 --metrics=[zz]:9100 \
	--metrics-textfile=/nonexistent/dir --metrics-linger=5s; do
	expect_status 1 "$IOWL" "$a" --name=x --ioengine=null --size=1m
	grep -q -- "${a%%=*}" err || { cat err; fail "$a: the error does not name the flag"; }
done
expect_status 1 "$IOWL" --metrics=9100 --parse-only --name=x --ioengine=null --size=1m

port=$($NP freeport) || fail "no free port"
mkdir tf
"$IOWL" --eta=never --output-format=json --metrics="$port" --metrics-linger=30 \
	--metrics-textfile=tf --cache-fill --name=m --ioengine=null --rw=randrw --bs=4k --size=64m \
	--rate_iops=1000,500 --runtime=3s --time_based > out.json 2> err &
pid=$!
on_exit "kill $pid"
# up within a second of the start, before the first interval: an empty but valid exposition
i=0
until curl -sf "http://127.0.0.1:$port/metrics" > early.prom; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "no endpoint on port $port"; sleep 0.1
done
grep -q 'iowl_run_phase{phase="setup"} 1\|iowl_run_phase{phase="running"} 1' early.prom ||
	{ cat early.prom; fail "run phase before the first interval"; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")" = 404 ] || fail "/ is not 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics/../etc/passwd")" = 404 ] ||
	fail "a path below /metrics is not 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x=1 "http://127.0.0.1:$port/metrics")" = 405 ] ||
	fail "POST is not 405"
curl -s -D h.txt -o /dev/null "http://127.0.0.1:$port/metrics"
grep -qi '^content-type: text/plain; version=0.0.4' h.txt || { cat h.txt; fail "text content type"; }
curl -s -D om.h -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
	"http://127.0.0.1:$port/metrics" > om.txt
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' om.h || { cat om.h; fail "OpenMetrics content type"; }
[ "$(tail -n 1 om.txt)" = "# EOF" ] || fail "OpenMetrics ends without # EOF"
grep -q '^# TYPE iowl_io counter$' om.txt || fail "OpenMetrics counter family without _total"
grep -q '^# TYPE iowl_job info$' om.txt || fail "OpenMetrics info family"
curl -s -D q0.h -o /dev/null -H 'Accept: application/openmetrics-text;q=0,text/plain' "http://127.0.0.1:$port/metrics"
grep -qi '^content-type: text/plain' q0.h || fail "q=0 for OpenMetrics still got it"

# wait for the run to end (the JSON), then the endpoint serves the totals while it lingers
i=0
until [ -s out.json ] && jget out.json jobs.0.read.total_ios >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -lt 200 ] || fail "the run did not end"; sleep 0.1
done
curl -sf "http://127.0.0.1:$port/metrics" > final.prom || fail "no endpoint while lingering"
kill $pid
wait $pid
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
for d in read write; do
	ios=$(jget out.json jobs.0.$d.total_ios)
	[ "$(val "iowl_io_total{job=\"m\",clone=\"0\",direction=\"$d\"}" final.prom)" = "$ios" ] ||
		fail "$d: scrape $(val "iowl_io_total{job=\"m\",clone=\"0\",direction=\"$d\"}" final.prom), JSON $ios"
	[ "$(val "iowl_io_bytes_total{job=\"m\",clone=\"0\",direction=\"$d\"}" final.prom)" = "$((ios * 4096))" ] ||
		fail "$d bytes"
	[ "$(val "iowl_latency_seconds_count{job=\"m\",clone=\"0\",direction=\"$d\"}" final.prom)" = "$ios" ] ||
		fail "$d latency count"
	[ "$(val "iowl_latency_seconds_bucket{job=\"m\",clone=\"0\",direction=\"$d\",le=\"+Inf\"}" final.prom)" = "$ios" ] ||
		fail "$d +Inf bucket"
	# the buckets never fall as le grows
	grep "^iowl_latency_seconds_bucket{job=\"m\",clone=\"0\",direction=\"$d\"" final.prom |
		awk '{ if ($2 < last) exit 1; last = $2 }' || fail "$d buckets not cumulative"
	# the mean from _sum / _count is the JSON's mean completion latency (ns), within 1 %
	s=$(val "iowl_latency_seconds_sum{job=\"m\",clone=\"0\",direction=\"$d\"}" final.prom)
	approx "$(awk -v s="$s" -v n="$ios" 'BEGIN { print s / n * 1e9 }')" "$(jget out.json jobs.0.$d.clat_ns.mean)" 1 ||
		fail "$d: mean latency $s / $ios against $(jget out.json jobs.0.$d.clat_ns.mean) ns"
done
grep -q '^iowl_run_phase{phase="done"} 1$' final.prom || fail "phase done"
[ "$(val 'iowl_cache_fill_blocks{job="m",clone="0"}' final.prom)" = "$(jget out.json jobs.0.iowl.cache_fill.distinct_blocks)" ] ||
	fail "cache fill: $(val 'iowl_cache_fill_blocks{job="m",clone="0"}' final.prom)"
grep -q '^iowl_job_info{job="m",clone="0",rw="randrw",bs="4096",ioengine="null",iodepth="1"} 1$' final.prom ||
	{ grep job_info final.prom; fail "job info"; }
for f in HELP TYPE; do
	for n in iowl_io_total iowl_io_bytes_total iowl_io_errors_total iowl_latency_seconds iowl_inflight \
		iowl_job_info iowl_run_phase; do
		grep -q "^# $f $n " final.prom || fail "no $f for $n"
	done
done
# the textfile holds the same totals, written whole
[ -f tf/iowl.prom ] || fail "no textfile"
[ "$(ls -A tf | wc -l)" = 1 ] || { ls -la tf; fail "temporary files left in the textfile directory"; }
[ "$(val 'iowl_io_total{job="m",clone="0",direction="read"}' tf/iowl.prom)" = "$(jget out.json jobs.0.read.total_ios)" ] ||
	fail "textfile total"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics < final.prom > lint 2>&1 || { cat lint; fail "promtool: the scrape"; }
	promtool check metrics < tf/iowl.prom > lint 2>&1 || { cat lint; fail "promtool: the textfile"; }
	promtool check metrics < early.prom > lint 2>&1 || { cat lint; fail "promtool: the early scrape"; }
else
	echo "promtool not found (apt-get install prometheus): the lint was not run"
	exit 77
fi
echo "metrics ok"
