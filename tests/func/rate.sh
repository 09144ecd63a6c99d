#!/bin/sh
# Rate limits: rate_iops and rate hold their rate; with an injected stall, latency from each IO's
# intended start shows the backlog while latency from submission does not (coordinated omission).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# rate_ok NAME DIR PER_SECOND PCT WHAT: the job's IOs (its per-IO log NAME_clat.1.log) against
# its limit, PER_SECOND IOs, over the span they were issued in (first to last): never above it
# by more than PCT %, and below it only by what the machine kept the job from doing before its
# deadline: the IOs of the schedule's largest lateness (its JSON), which a stall at the end cuts
# off (catching up is what the schedule does otherwise).  Where that lateness is over half the
# run, the machine was too busy for the rate to be seen, and the test skips with the figure.
rate_ok() {
	late=$(jget "$1.json" "jobs.0.iowl.sched_lat_ns_$2.max")
	awk -F', ' -v r="$3" -v p="$4" -v late="$late" -v what="$5" '
		NR == 1 { t0 = $1 } { t1 = $1; n++ }
		END { span = (t1 - t0) / 1000; hi = r * span * (1 + p / 100) + 1
		      lo = (r * span - r * late / 1e9) * (1 - p / 100) - 1
		      printf "%s: %d IOs over %.3f s, limit %s/s, largest lateness %.1f ms\n", what, n, span, r, late / 1e6
		      if (late / 1e9 > span / 2) exit 3
		      exit !(n - 1 <= hi && n - 1 >= lo) }' "$1_clat.1.log"
	case $? in
	0) ;;
	3) skip "$5: the machine kept the job off its schedule for $late ns, too busy to check the rate" ;;
	*) fail "$5: not the limit's number of IOs" ;;
	esac
}
# The three throttled runs (2 s each, a few per cent of a CPU) at once: each keeps its own schedule.
"$IOWL" --name=r --ioengine=null --size=1g --rw=randread --rate_iops=2000 --runtime=2 --time_based \
	--eta=never --output-format=json --write_lat_log=r > r.json 2> r.err & pr=$!
"$IOWL" --name=b --ioengine=null --size=1g --rw=randwrite --bs=64k --rate=,6400k --runtime=2 \
	--time_based --eta=never --output-format=json --write_lat_log=b > b.json 2> b.err & pb=$!
"$IOWL" --name=p --ioengine=null --size=1g --rw=randread --rate_iops=2000 --rate_process=poisson \
	--runtime=2 --time_based --eta=never --output-format=json --write_lat_log=p > p.json 2> p.err & pp=$!
wait $pr || { cat r.err; fail "rate_iops run"; }
wait $pb || { cat b.err; fail "rate run"; }
wait $pp || { cat p.err; fail "poisson run"; }
rate_ok r read 2000 3 "rate_iops=2000"
rate_ok b write 100 3 "rate=,6400k (64 KiB IOs)"
rate_ok p read 2000 10 "poisson rate_iops=2000"
"$IOWL" --parse-only --name=x --ioengine=null --size=1m --rate=1m --rate_iops=10 2> e && fail "rate and rate_iops accepted"
grep -q "mutually exclusive" e || fail "rate/rate_iops message"
shim="$SHIMS/faultshim.so"
[ -f "$shim" ] || fail "fault shim not built"
truncate -s 16m iowl-fault.dat
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$shim" \
	IOWL_FAULT_STALL_AT=500 "$IOWL" --name=s --filename=iowl-fault.dat --ioengine=psync \
	--rw=randread --rate_iops=1000 --runtime=2 --time_based --eta=never --output-format=json \
	> s.json 2> s.err || { cat s.err; fail "stall run"; }
sched=$(jget s.json jobs.0.iowl.sched_lat_ns_read.mean)
clat=$(jget s.json jobs.0.read.clat_ns.mean)
awk -v s="$sched" -v c="$clat" 'BEGIN { exit !(s > 5000000 && s > 20 * c) }' ||
	fail "a 300 ms stall: schedule-based mean $sched ns, submission-based $clat ns"
echo "rate ok (stall: sched mean $sched ns, clat mean $clat ns)"
