#!/bin/sh
# SPDX-License-Identifier: MIT
# cpus_allowed, cpumask, cpus_allowed_policy, numa_cpu_nodes, nice, prio and prioclass: read back
# from the running worker threads (/proc/PID/task/TID: Cpus_allowed_list, the nice field of stat,
# ionice -p) and compared with what fio 3.33's threads get for the same options.
# numa_mem_policy: the set_mempolicy(2) call each worker makes, seen with strace.  fio's answers
# are kept once given (tests/lib.sh's fio_kept): make test starts no fio here.
. "$(dirname "$0")/../lib.sh"
strace_traced
cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
[ "$cpus" = 0-1 ] || [ "$(nproc)" -ge 2 ] || skip "needs two CPUs (this process may use $cpus)"
command -v ionice > /dev/null || skip "ionice (util-linux) is not installed"
self_nice=$(awk '{ sub(/^.*\) /, ""); print $17 }' /proc/self/stat)
self_prio=$(ionice -p $$)
f=$SCRATCH/f
truncate -s 1m "$f"
job="--name=p --ioengine=psync --rw=randread --bs=4k --size=1m --filename=$f --thread --time_based --runtime=60 --rate_iops=50"

# What a thread of PID shows for KIND (cpus, nice, ioprio), one line per thread but the main one.
view() { # pid kind
	for t in /proc/"$1"/task/*; do
		tid=${t##*/}
		[ "$tid" = "$1" ] && continue
		case $2 in
		cpus) awk '/^Cpus_allowed_list/ { print $2 }' "$t/status" ;;
		nice) awk '{ sub(/^.*\) /, ""); print $17 }' "$t/stat" ;;
		ioprio) ionice -p "$tid" ;;
		esac
	done 2> /dev/null
}

# Runs TOOL with the job and OPTS; prints the sorted values of KIND of the threads that differ
# from this shell's, once N threads differ alike twice in a row (skips when the run ends first).
# The run is then stopped with SIGINT (it has up to its 60 s to show them on a busy machine):
# iowl ends with 130 and fio with 128 (its sig_int()); a run that ends by itself must succeed.
sample() { # tool n kind opts...
	tool=$1 n=$2 kind=$3; shift 3
	case $kind in cpus) def=$cpus ;; nice) def=$self_nice ;; ioprio) def=$self_prio ;; esac
	if [ "$tool" = fio ]; then
		fio --output=/dev/null $job "$@" > "$SCRATCH/tool.out" 2>&1 &
	else
		"$IOWL" --output=/dev/null $job "$@" > "$SCRATCH/tool.out" 2>&1 &
	fi
	pid=$!
	# the same view twice in a row: not a thread caught while it is set up
	got="" last=""
	while kill -0 $pid 2> /dev/null; do
		got=$(view $pid "$kind" | grep -vxF "$def" | sort)
		[ "$(printf '%s' "$got" | grep -c .)" -ge "$n" ] && [ "$got" = "$last" ] && break
		last=$got
		sleep 0.2
	done
	if [ "$(printf '%s' "$got" | grep -c .)" -ge "$n" ]; then
		want_rc=128
		[ "$tool" = fio ] || { catches_sigint $pid; want_rc=130; }
		kill -INT $pid 2> /dev/null
	else
		want_rc=0
	fi
	wait $pid
	rc=$?
	[ $rc = $want_rc ] || { cat "$SCRATCH/tool.out"; fail "$tool $*: the run failed (status $rc, expected $want_rc)"; }
	[ "$(printf '%s' "$got" | grep -c .)" -ge "$n" ] || { echo unseen; return; }
	echo "$got" | tr '\n' ' '
}

# check N KIND EXPECTED OPTS...: iowl's N workers show EXPECTED; so do fio's threads, where installed.
check() {
	n=$1 kind=$2 want=$3; shift 3
	got=$(sample iowl "$n" "$kind" "$@")
	[ "$got" = unseen ] && skip "iowl $*: the run ended before its threads were seen twice alike (a busy machine)"
	[ "$got" = "$want" ] || fail "iowl $*: the workers' $kind is '$got', expected '$want'"
	if have_fio && ! fio_kept check "$kind" "$got" "$@"; then
		fgot=$(sample fio "$n" "$kind" "$@")
		[ "$fgot" = unseen ] && skip "fio $*: the run ended before its threads were seen twice alike (a busy machine)"
		[ "$fgot" = "$got" ] || fail "$*: fio's threads' $kind is '$fgot', iowl's '$got'"
		fio_keep check "$kind" "$got" "$@"
	fi
	echo "ok: $* -> $got"
}

check 2 cpus "1 1 " --numjobs=2 --cpus_allowed=1
check 2 cpus "0 1 " --numjobs=2 --cpus_allowed=0-1 --cpus_allowed_policy=split
check 3 cpus "0 0 1 " --numjobs=3 --cpus_allowed=0,1 --cpus_allowed_policy=split
check 1 cpus "1 " --cpumask=2
# nice= is an increment to the nice the run starts with (nice(2)), as fio's: under `nice -n 5`
# the workers run at 10
want=$((self_nice + 5)); [ "$want" -gt 19 ] && want=19
check 2 nice "$want $want " --numjobs=2 --nice=5
check 1 ioprio "best-effort: prio 3 " --prio=3
check 1 ioprio "idle " --prioclass=3
check 1 ioprio "best-effort: prio 6 " --prioclass=2 --prio=6
if [ "$(id -u)" = 0 ]; then
	check 1 ioprio "realtime: prio 1 " --prioclass=1 --prio=1
fi

# numa_cpu_nodes=0: node 0's CPUs (all of them on a one-node machine, so look at the call)
if command -v strace > /dev/null && [ -d /sys/devices/system/node/node0 ]; then
	strace -f -qq -e trace=sched_setaffinity,set_mempolicy -o "$SCRATCH/st" \
		"$IOWL" --output=/dev/null --name=n --ioengine=null --size=1m --numjobs=2 \
		--numa_cpu_nodes=0 --numa_mem_policy=bind:0 > /dev/null 2>&1 ||
		fail "numa_cpu_nodes/numa_mem_policy run failed"
	[ "$(grep -c 'set_mempolicy(MPOL_BIND, \[0x0*1,' "$SCRATCH/st")" = 2 ] ||
		{ cat "$SCRATCH/st"; fail "numa_mem_policy=bind:0: not one set_mempolicy(MPOL_BIND, [1]) per worker"; }
	[ "$(grep -c 'sched_setaffinity(0, ' "$SCRATCH/st")" = 2 ] ||
		{ cat "$SCRATCH/st"; fail "numa_cpu_nodes=0: not one sched_setaffinity per worker"; }
	strace -f -qq -e trace=set_mempolicy -o "$SCRATCH/st2" "$IOWL" --output=/dev/null \
		--name=n --ioengine=null --size=1m --numa_mem_policy=interleave:all > /dev/null 2>&1 ||
		fail "numa_mem_policy=interleave:all run failed"
	grep -q 'set_mempolicy(MPOL_INTERLEAVE, \[0x0*1,' "$SCRATCH/st2" ||
		{ cat "$SCRATCH/st2"; fail "numa_mem_policy=interleave:all"; }
	echo "ok: numa_cpu_nodes, numa_mem_policy"
fi

# bad values stop at their line
printf '[a]\nioengine=null\nsize=1m\ncpus_allowed=0,4096\n' > "$SCRATCH/b1.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/b1.fio"
grep -q "b1.fio:4: cpus_allowed=0,4096: CPU 4096 is too large" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "cpus_allowed past the machine"; }
printf '[a]\nioengine=null\nsize=1m\nnice=20\n' > "$SCRATCH/b2.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/b2.fio"
grep -q "b2.fio:4: nice=20: must be -20 to 19" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "nice range"; }
printf '[a]\nioengine=null\nsize=1m\nnuma_mem_policy=prefer:0-1\n' > "$SCRATCH/b3.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/b3.fio"
grep -q "b3.fio:4: numa_mem_policy=prefer:0-1: " "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "numa_mem_policy prefer with two nodes"; }
exit 0
