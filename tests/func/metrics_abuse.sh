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
	--ioengine=null --rw=randread --bs=4k --size=64m --rate_iops=2000 --runtime=6s \
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
i=0
while [ $i -lt 100 ]; do
	c=$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$port/x$i")
	case $c in 404|000) ;; *) fail "GET /x$i answered $c" ;; esac
	i=$((i + 1))
done
wait $hold
[ "$(cat held)" -ge 32 ] || fail "only $(cat held) slow connections opened"
# the run ends on time with its full rate: the HTTP side never held it up
i=0
until [ -s out.json ] && jget out.json jobs.0.read.total_ios >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -lt 150 ] || fail "the run did not end"; sleep 0.1
done
total=$(jget out.json jobs.0.read.total_ios)
approx "$total" 12000 3 || fail "$total IOs in 6 s at 2000 IOPS"
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
