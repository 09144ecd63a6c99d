#!/bin/sh
# Signals as people send them: a ^C that timeout(1) passes on again is one stop; a second ^C
# later still gets the results; a reader that goes away (| head) ends the run with status 2.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# running_json FILE: the file holds an interval line (the IO has started)
running_json() { grep -q '"interval"' "$1"; }
wait_running() { # FILE PID
	i=0
	until running_json "$1"; do
		kill -0 "$2" 2>/dev/null || return 1
		i=$((i + 1))
		[ $i -lt 400 ] || return 1
		sleep 0.05
	done
}

# timeout(1) in front: ^C reaches the process group (iowl and timeout), and timeout sends it to
# iowl again, and to the group once more.  That is one stop: the results are written.
# (the null runs here are throttled: unthrottled they spun a CPU until the signal)
timeout 30 "$IOWL" --name=t --ioengine=null --rw=randread --size=1g --runtime=20 --time_based \
	--rate_iops=2000 --status-interval=1 --output-format=json --eta=never > t.json 2> t.err &
pid=$!
wait_running t.json $pid || { cat t.err; fail "timeout: the run did not start"; }
/bin/kill -INT -- "-$pid"	# what the terminal does on ^C: the whole process group
sleep 0.05			# timeout's own copy, a moment later
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat t.err; fail "timeout + ^C: status $rc, expected 130"; }
last=$(tail -n 1 t.json)
printf '%s\n' "$last" | grep -q '"fio version"' &&
	[ "$(printf '%s\n' "$last" | jget - jobs.0.read.total_ios)" -gt 0 ] ||
	{ cat t.err; fail "timeout + ^C: no results (the copies of the signal counted as a second ^C)"; }
echo "timeout + ^C: status 130 with the results"

# A second ^C later (a person pressing it again while a worker is stuck in a system call):
# iowl stops waiting and writes what it counted at once, instead of exiting without results.
shim="$SHIMS/faultshim.so"
if [ -f "$shim" ]; then
	truncate -s 64m iowl-fault.dat
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$shim" \
		IOWL_FAULT_HANG_AFTER=1000 IOWL_FAULT_HANG_MARK="$SCRATCH/hung" "$IOWL" --name=h --filename=iowl-fault.dat --rw=randread \
		--ioengine=psync --runtime=30 --time_based --output-format=json --eta=never \
		> hang.json 2> hang.err &
	pid=$!
	# (once the worker is stuck: under TSan 1 s was not always 1000 IOs)
	hung $pid "$SCRATCH/hung" || { cat hang.err; fail "second ^C: the run never hung"; }
	catches_sigint $pid || fail "iowl did not set up its signal handlers"
	kill -INT $pid
	sleep 0.4
	kill -INT $pid
	wait $pid
	rc=$?
	[ "$rc" = 130 ] || { cat hang.err; fail "second ^C: status $rc, expected 130"; }
	[ "$(jget hang.json jobs.0.read.total_ios)" -ge 1000 ] ||
		{ cat hang.err; fail "second ^C: the results were not written"; }
	echo "second ^C: status 130 with the results"
fi

# | head: the reader goes away mid-run.  iowl ends the run (not 30 s later), says why on stderr
# and exits 2; it used to die of SIGPIPE (141) without a word.
t0=$(date +%s)
{ "$IOWL" --name=p --ioengine=null --rw=randread --size=1g --runtime=30 --time_based \
	--rate_iops=2000 --status-interval=1 --eta=never 2> p.err; echo $? > p.rc; } | head -c 50 > /dev/null
s=$(( $(date +%s) - t0 ))
rc=$(cat p.rc)
[ "$rc" = 2 ] || { cat p.err; fail "| head: status $rc, expected 2"; }
grep -q "Broken pipe" p.err || { cat p.err; fail "| head: no message on stderr"; }
[ "$s" -lt 20 ] || fail "| head: the run went on for $s s after its reader left"
echo "| head: status 2 after $s s: $(cat p.err)"
echo "signals ok"
