#!/bin/sh
# Bad requests to --metrics neither stall the run nor grow iowl's memory: wrong paths, request
# headers far over the per-connection limit, and slow clients holding more connections than
# the endpoint takes; afterwards the endpoint serves again.
. "$(dirname "$0")/../lib.sh"
command -v curl >/dev/null 2>&1 || skip "curl not found (apt-get install curl)"
cd "$SCRATCH" || fail "cd"
NP=$(dirname "$JGET")/netprobe
port=$($NP freeport) || fail "no free port"
"$IOWL" --eta=never --output-format=json --metrics="$port" --metrics-linger=120 --name=a \
	--ioengine=null --rw=randread --bs=4k --size=64m --rate_iops=2000 --runtime=4s \
	--time_based > out.json 2> err &
pid=$!
on_exit "kill $pid"
i=0
until curl -sf "http://127.0.0.1:$port/metrics" > /dev/null; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "no endpoint"; sleep 0.1
done
rss() { awk '/^VmRSS:/ { print $2 }' /proc/$pid/status; }
sleep 1
rss1=$(rss)
# more slow clients than the endpoint takes (32), each holding half a request line for 4 s
$NP hold "$port" 60 4 > held &
hold=$!
sleep 0.5
for n in 100000 1000000; do
	r=$($NP bigheader "$port" $n)
	case $r in 200) fail "a $n-byte header was served" ;; esac
done
# 100 wrong paths, one curl for them all, each on a connection of its own as before (Connection:
# close); a curl per request was most of the test's CPU
urls=$(i=0; while [ $i -lt 100 ]; do echo "http://127.0.0.1:$port/x$i"; i=$((i + 1)); done)
curl -s -m 2 -H 'Connection: close' -w '%{stderr}%{http_code}\n' $urls > /dev/null 2> codes
[ "$(grep -c . codes)" = 100 ] || fail "$(grep -c . codes) answers to 100 GETs"
c=$(grep -v -x -e 404 -e 000 codes | head -n 1)
[ -z "$c" ] || fail "a GET of a wrong path answered $c"
wait $hold
[ "$(cat held)" -ge 32 ] || fail "only $(cat held) slow connections opened"
# the run ends on time with its full rate: the HTTP side never held it up
i=0
until [ -s out.json ] && jget out.json jobs.0.read.total_ios >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -lt 150 ] || fail "the run did not end"; sleep 0.1
done
total=$(jget out.json jobs.0.read.total_ios)
approx "$total" 8000 3 || fail "$total IOs in 4 s at 2000 IOPS"
# serving again once the slow clients are gone
# (the endpoint notices the closed connections on its own time: a busy machine may take seconds;
# it lingers 120 s after the run, long past the slow clients, and the test ends it)
i=0
until curl -sf -m 5 "http://127.0.0.1:$port/metrics" > after.prom; do
	kill -0 $pid 2>/dev/null || skip "the machine is so busy that the endpoint's 120 s linger was over before the slow clients were"
	i=$((i + 1)); [ $i -lt 10 ] || fail "no scrape after the slow clients"; sleep 1
done
grep -q "^iowl_io_total{job=\"a\",clone=\"0\",direction=\"read\"} $total\$" after.prom || fail "totals after"
rss2=$(rss)
# (ThreadSanitizer's allocator keeps freed memory in quarantine: RSS says nothing there)
tsan_build || [ $((rss2 - rss1)) -lt 4096 ] || fail "RSS grew from $rss1 to $rss2 KiB"
echo "abuse: $total IOs, RSS $rss1 -> $rss2 KiB"
