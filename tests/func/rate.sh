#!/bin/sh
# Rate limits: rate_iops and rate hold their rate; with an injected stall, latency from each IO's
# intended start shows the backlog while latency from submission does not (coordinated omission).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# rate_ok FILE DIR GOT WANT PCT WHAT: GOT is WANT within PCT %.  Above it is always a failure (a
# limit never lets more through); below it only when the job kept its schedule (its IOs' mean
# latency from their intended start under 2 ms): a machine too busy to run the job on time makes
# it fall behind, which the test skips with the figure.
rate_ok() {
	awk -v g="$3" -v w="$4" -v p="$5" 'BEGIN { exit !(g <= w * (1 + p / 100)) }' || fail "$6: above the limit"
	awk -v g="$3" -v w="$4" -v p="$5" 'BEGIN { exit !(g >= w * (1 - p / 100)) }' && return 0
	late=$(jget "$1" "jobs.0.iowl.sched_lat_ns_$2.mean")
	awk -v l="$late" 'BEGIN { exit !(l < 2000000) }' && fail "$6, on schedule (mean $late ns late)"
	skip "$6: the machine ran the job behind its schedule (mean $late ns late), too busy to check the rate"
}
# want FILE DIR PER_SECOND: what the limit lets through over the job's own runtime (runtime counts
# from the phase's start, so a clone a busy machine starts late runs a little less than 2 s)
want() { awk -v ms="$(jget "$1" "jobs.0.$2.runtime")" -v r="$3" 'BEGIN { printf "%.0f", r * ms / 1000 }'; }
"$IOWL" --name=r --ioengine=null --size=1g --rw=randread --rate_iops=2000 --runtime=2 --time_based \
	--eta=never --output-format=json > r.json || fail "rate_iops run"
ios=$(jget r.json jobs.0.read.total_ios)
rate_ok r.json read "$ios" "$(want r.json read 2000)" 3 "rate_iops=2000 for $(jget r.json jobs.0.read.runtime) ms did $ios IOs"
"$IOWL" --name=b --ioengine=null --size=1g --rw=randwrite --bs=64k --rate=,6400k --runtime=2 \
	--time_based --eta=never --output-format=json > b.json || fail "rate run"
rate_ok b.json write "$(jget b.json jobs.0.write.io_bytes)" "$(want b.json write 6553600)" 3 \
	"rate=,6400k wrote $(jget b.json jobs.0.write.io_bytes) bytes in $(jget b.json jobs.0.write.runtime) ms"
"$IOWL" --name=p --ioengine=null --size=1g --rw=randread --rate_iops=2000 --rate_process=poisson \
	--runtime=2 --time_based --eta=never --output-format=json > p.json || fail "poisson run"
rate_ok p.json read "$(jget p.json jobs.0.read.total_ios)" "$(want p.json read 2000)" 10 "poisson rate off: $(jget p.json jobs.0.read.total_ios)"
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
