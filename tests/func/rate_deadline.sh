#!/bin/sh
# A rate wait is bounded by runtime and by a stop: a slow rate never keeps a job past its
# runtime (--rate=512 with 4 KiB blocks is 8 s an IO; --rate=1 over an hour), and SIGINT
# during a wait ends the run at once.  Bounds are several times what is needed, far below
# what the unbounded waits take.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
elapsed() { # OUT command...: runs it, writes its wall time in ms to OUT (or why it failed)
	out=$1
	shift
	t0=$(date +%s%N)
	"$@" > /dev/null 2> "$out.err" || { echo "FAIL $(cat "$out.err") $*" > "$out"; return; }
	echo $(( ($(date +%s%N) - t0) / 1000000 )) > "$out"
}
# (the four runs and the next one at once: each is a second of waiting)
mkdir -p f.dir
for eng in null libaio; do
	for rate in 512 1; do
		elapsed ms.$eng.$rate timeout 30 "$IOWL" --name=r --ioengine=$eng --iodepth=4 \
			--filename=f.dir/$eng.$rate --size=1m --rw=randread --rate=$rate --runtime=1 \
			--time_based --eta=never &
	done
done
# The job still runs for its runtime: the rate wait ends at the deadline, not before it.
"$IOWL" --name=r --ioengine=null --size=1m --rw=read --rate=512 --runtime=1 --time_based \
	--eta=never --output-format=json > r.json || fail "rate=512 run"
wait
for eng in null libaio; do
	for rate in 512 1; do
		ms=$(cat ms.$eng.$rate)
		case $ms in FAIL*) fail "$eng --rate=$rate: ${ms#FAIL }" ;; esac
		[ "$ms" -lt 6000 ] || fail "$eng --rate=$rate --runtime=1 took $ms ms"
	done
done
rt=$(jget r.json jobs.0.read.runtime)
[ "$rt" -ge 900 ] || fail "rate=512 --runtime=1 ran $rt ms"
[ "$(jget r.json jobs.0.read.total_ios)" = 1 ] || fail "rate=512 for 1 s did $(jget r.json jobs.0.read.total_ios) IOs"
# SIGINT in the middle of a one-hour wait, with and without IOs in flight.
for eng in psync libaio; do
	"$IOWL" --name=r --ioengine=$eng --iodepth=2 --filename=f --size=1m --rw=randread --rate=1 \
		--eta=never > /dev/null 2> err &
	pid=$!
	sleep 1
	catches_sigint $pid || fail "iowl did not set up its signal handlers"
	t0=$(date +%s%N)
	kill -INT $pid
	n=0
	while kill -0 $pid 2> /dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	kill -0 $pid 2> /dev/null && { kill -9 $pid; fail "$eng: --rate=1 still running 10 s after SIGINT"; }
	wait $pid
	st=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$st" = 130 ] || { cat err; fail "$eng: SIGINT during a rate wait: status $st"; }
	[ "$ms" -lt 3000 ] || fail "$eng: --rate=1 took $ms ms to end after SIGINT"
done
echo "rate deadline ok"
