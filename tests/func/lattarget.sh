#!/bin/sh
# SPDX-License-Identifier: MIT
# max_latency and latency_target beside fio 3.33: an IO over max_latency (a 300 ms stall from the
# fault shim) ends the job with ETIMEDOUT after the same IOs as fio's, only in the direction it is
# set for; latency_target's search on the null engine reaches iodepth, runs one final window with
# fresh statistics and ends, with fio's JSON fields (tests/unit/test_lattarget.c checks the
# search's bisection).
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"
truncate -s 1m iowl-fault.dat

run() { # tool out args...
	tool=$1 out=$2; shift 2
	if [ "$tool" = fio ]; then
		LD_PRELOAD="$shim" IOWL_FAULT_STALL_AT=5 fio --output-format=json "$@" > "$out.raw" 2> "$out.err"
	else
		LD_PRELOAD="$shim" IOWL_FAULT_STALL_AT=5 "$IOWL" --output-format=json "$@" > "$out.raw" 2> "$out.err"
	fi
	echo $? > "$out.rc"
	sed -n '/^{/,$p' "$out.raw" > "$out"	# fio may print lines before its JSON
}
job="--name=m --filename=iowl-fault.dat --ioengine=psync --rw=read --bs=4k"
run iowl m.json $job --max_latency=100ms
[ "$(jget m.json jobs.0.error)" = 110 ] || { cat m.json.err; fail "max_latency: error $(jget m.json jobs.0.error), not ETIMEDOUT (110)"; }
[ "$(jget m.json jobs.0.read.total_ios)" = 5 ] || fail "max_latency: $(jget m.json jobs.0.read.total_ios) reads, not 5 (the 5th stalled)"
grep -q "latency of [0-9]* us exceeds max_latency (100000 us)" m.json.err || { cat m.json.err; fail "max_latency message"; }
# writes only: the reads' stall is let by
run iowl w.json $job --max_latency=,100ms
[ "$(jget w.json jobs.0.error)" = 0 ] && [ "$(jget w.json jobs.0.read.total_ios)" = 256 ] ||
	fail "max_latency=,100ms ended a read job"
# fio's answers are kept once given (tests/lib.sh's fio_kept)
if have_fio && ! fio_kept max_latency "$job" "110 5" ",100ms 256"; then
	run fio fm.json $job --max_latency=100ms
	[ "$(jget fm.json jobs.0.error)" = 110 ] && [ "$(jget fm.json jobs.0.read.total_ios)" = 5 ] ||
		fail "fio's max_latency: error $(jget fm.json jobs.0.error), $(jget fm.json jobs.0.read.total_ios) reads"
	run fio fw.json $job --max_latency=,100ms
	[ "$(jget fw.json jobs.0.read.total_ios)" = 256 ] || fail "fio's max_latency=,100ms"
	fio_keep max_latency "$job" "110 5" ",100ms 256"
fi
echo "ok: max_latency"

# latency_target at depth 1 out of reach (the stall, 100 % of IOs): ETIMEDOUT, as fio
run iowl t.json $job --latency_target=100ms --latency_window=10s
[ "$(jget t.json jobs.0.error)" = 110 ] || { cat t.json.err; fail "latency_target out of reach: error $(jget t.json jobs.0.error)"; }

# the search on the null engine: every window keeps a 200 ms target; 1, 2, 4, 8, 16, then the
# final window at 16 with fresh statistics, then the end (well before the runtime).  At 2000 IOPS
# (400 IOs a window, fio's search the same): unthrottled it spun a CPU for the 1.2 s.
lt="--name=lt --ioengine=null --size=1g --rw=randread --iodepth=16 --latency_target=200ms --latency_window=200ms --latency_percentile=99 --time_based --runtime=30 --rate_iops=2000"
"$IOWL" --output-format=json --output=lt.json $lt || fail "latency_target run failed"
[ "$(jget lt.json jobs.0.latency_depth)" = 16 ] || fail "latency_depth $(jget lt.json jobs.0.latency_depth), not 16"
[ "$(jget lt.json jobs.0.latency_target)" = 200000000 ] && [ "$(jget lt.json jobs.0.latency_window)" = 200000 ] ||
	fail "latency_target/latency_window in the JSON: $(jget lt.json jobs.0.latency_target) $(jget lt.json jobs.0.latency_window) (fio: ns and us)"
rt=$(jget lt.json jobs.0.job_runtime)
[ "$rt" -ge 200 ] && [ "$rt" -lt 10000 ] || fail "job_runtime $rt ms: not the final 200 ms window"
iv="$(jget lt.json jobs.0.latency_target) $(jget lt.json jobs.0.latency_window) $(jget lt.json jobs.0.latency_percentile)"
if have_fio && ! fio_kept latency_target "$lt" "depth 16" "$iv"; then
	fio --output-format=json --output=flt.json $lt > /dev/null 2>&1 || fail "fio's latency_target run failed"
	[ "$(jget flt.json jobs.0.latency_depth)" = 16 ] || fail "fio's latency_depth $(jget flt.json jobs.0.latency_depth)"
	for k in latency_target latency_window latency_percentile; do
		[ "$(jget flt.json jobs.0.$k)" = "$(jget lt.json jobs.0.$k)" ] || fail "$k: fio $(jget flt.json jobs.0.$k), iowl $(jget lt.json jobs.0.$k)"
	done
	fio_keep latency_target "$lt" "depth 16" "$iv"
fi
echo "ok: latency_target (depth 16, final window $rt ms)"
exit 0
