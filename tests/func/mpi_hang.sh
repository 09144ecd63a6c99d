#!/bin/sh
# iowl's own heartbeat over MPI: a rank that hangs (SIGSTOP: alive to the launcher, but silent)
# is found by rank 0 within --rank-timeout (2 s here) plus a beat; the others stop, and rank 0
# and the other survivor exit 2, rank 0 naming the rank that hangs, long before the 30 s runtime.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../mpi_lib.sh"
need_mpi

# Every rank runs through rank.sh, which starts iowl under record.sh in a session of its own
# (out of reach of the launcher's signals, which could otherwise decide the statuses): record.sh
# keeps iowl's status and when it ended (/proc/uptime).  RANK_STOP=r: rank r's iowl is stopped
# with SIGSTOP 1.5 s into its IO (the time in $SCRATCH/stopped); the test kills it once rank 0
# is done (the launcher would wait for it).
mpi_record
cat > "$SCRATCH/rank.sh" <<'SH'
r=${OMPI_COMM_WORLD_RANK:-$PMI_RANK}
rm -f "$SCRATCH/pid.$r" "$SCRATCH/status.$r"
trap '' TERM INT HUP
setsid sh "$SCRATCH/record.sh" "$r" "$@" &
rec=$!
while [ ! -f "$SCRATCH/pid.$r" ]; do sleep 0.01; done
[ "$r" = "$RANK_STOP" ] && sh "$MPI_SIGNAL" STOP "$SCRATCH/pid.$r" "$SCRATCH/stopped" "$r"
# (wait, not a loop of sleeps: a fork and exec every 10 ms per rank was most of the test's CPU)
while [ ! -f "$SCRATCH/status.$r" ]; do
	wait $rec 2>/dev/null
	[ -f "$SCRATCH/status.$r" ] || sleep 0.05
done
read st _ < "$SCRATCH/status.$r"
exit "$st"
SH
export SCRATCH RANK_STOP=1
# Whatever happens, the stopped rank does not outlive the test.
on_exit 'kill -9 $(cat "$SCRATCH/pid.1") 2>/dev/null'

cat > "$SCRATCH/null.ini" <<JOB
[global]
ioengine=null
rw=randread
bs=4k
size=1g
time_based=1
runtime=30
rate_iops=500
write_iops_log=$SCRATCH/started.\${IOWL_RANK}
log_avg_msec=500
[n]
JOB
OMPI_MCA_orte_abort_on_non_zero_status=0 mpirun_np 3 -x SCRATCH -x RANK_STOP -x MPI_SIGNAL sh "$SCRATCH/rank.sh" \
	"$IOWL_MPI" --eta=never --rank-timeout=2s "$SCRATCH/null.ini" &
mp=$!
n=0
while [ ! -f "$SCRATCH/status.0" ] && [ $n -lt 1200 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -9 "$(cat "$SCRATCH/pid.1")" 2>/dev/null
wait $mp
[ -f "$SCRATCH/stopped" ] || { cat "$SCRATCH/err" "$SCRATCH"/err.*; fail "rank 1 was not stopped"; }
s=$(cat "$SCRATCH/stopped")
for r in 0 2; do
	mpi_await $r
	[ -f "$SCRATCH/status.$r" ] || { cat "$SCRATCH/err" "$SCRATCH"/err.*; fail "rank $r left no status"; }
	set -- $(cat "$SCRATCH/status.$r")
	[ "$1" = 2 ] || { cat "$SCRATCH"/err.*; fail "rank $r exited $1, expected 2"; }
	ms=$(ms_since "$s" "$2")
	# 2 s of silence, a beat, the stop and the report: far below the 28 s left of the runtime.
	[ $ms -lt 12000 ] || fail "rank $r ended $ms ms after rank 1 was stopped, expected about 2 s"
	echo "rank 1 stopped: rank $r exited 2 after $ms ms"
done
grep -q "rank 1 hangs: it sent no heartbeat for 2\.[0-9] s" "$SCRATCH/err.0" ||
	{ cat "$SCRATCH/err.0"; fail "rank 0 does not say that rank 1 hangs"; }
grep -q "rank 1" "$SCRATCH/err.2" || { cat "$SCRATCH/err.2"; fail "rank 2 does not name rank 1"; }
grep -q "IOPS" "$SCRATCH/out.0" || { cat "$SCRATCH/out.0"; fail "rank 0 printed no results"; }

# --rank-timeout's input.
"$IOWL" --rank-timeout=500ms --name=x --ioengine=null --size=1m > "$SCRATCH/out" 2> "$SCRATCH/err"
[ $? = 1 ] && grep -q -- "--rank-timeout=500ms: give 0 (no limit) or a time of at least 1s" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "--rank-timeout=500ms was not refused"; }
