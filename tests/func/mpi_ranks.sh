#!/bin/sh
# --assert, ${IOWL_HOST} and --rank-jobs under mpirun: an assertion is rank 0's, over the totals
# of every rank (a bound only the sum meets holds, one only the sum breaks fails), and a failed
# one ends every rank with status 3; a job file's filename with ${IOWL_HOST} names each rank's
# host, and --rank-jobs gives the ranks different jobs of it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../mpi_lib.sh"
need_mpi

# Each rank does 1024 writes: the total is 2048 over 2 ranks.
cat > "$SCRATCH/a.ini" <<JOB
[w]
ioengine=null
rw=write
bs=4k
size=4m
JOB
# Passing: only the sum of the ranks is over 1500 (each rank alone did 1024).
mpirun_np 2 "$IOWL_MPI" --eta=never --assert='write.ios>1500' --assert='write.ios==2048' \
	--assert='errors==0' "$SCRATCH/a.ini"
[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "--assert over the totals that hold: exited $rc, expected 0"; }
# Failing: only the sum breaks it (each rank's own 1024 IOs would keep it); every rank exits 3.
# Each rank runs through a wrapper that keeps its own status.
cat > "$SCRATCH/rank.sh" <<'SH'
r=${OMPI_COMM_WORLD_RANK:-$PMI_RANK}
"$@" > "$SCRATCH/out.$r" 2> "$SCRATCH/err.$r"
st=$?
echo $st > "$SCRATCH/status.$r"
exit $st
SH
export SCRATCH
rm -f "$SCRATCH"/status.*
OMPI_MCA_orte_abort_on_non_zero_status=0 mpirun_np 2 -x SCRATCH sh "$SCRATCH/rank.sh" \
	"$IOWL_MPI" --eta=never --assert='write.ios<=1500' "$SCRATCH/a.ini"
for r in 0 1; do
	[ "$(cat "$SCRATCH/status.$r" 2>/dev/null)" = 3 ] ||
		{ cat "$SCRATCH"/err.*; fail "--assert over the totals that fails: rank $r exited $(cat "$SCRATCH/status.$r" 2>/dev/null), expected 3"; }
done
grep -q "write.ios<=1500.*2048" "$SCRATCH/err.0" ||
	{ cat "$SCRATCH/err.0"; fail "rank 0 does not say the failed assertion with the total 2048"; }
[ ! -s "$SCRATCH/err.1" ] || { cat "$SCRATCH/err.1"; fail "rank 1 checked the assertion too"; }
echo "--assert: the totals' 2048 IOs hold write.ios>1500 and break write.ios<=1500 (status 3 on both ranks)"

# ${IOWL_HOST} in a filename, and --rank-jobs: rank 0 writes with job w, rank 1 reads with job r;
# each one's file is named after the host it runs on (every rank on this machine: hostname).
host=$(hostname)
cat > "$SCRATCH/h.ini" <<JOB
[global]
ioengine=psync
bs=4k
size=256k
[w]
rw=write
filename=$SCRATCH/h.\${IOWL_HOST}.\${IOWL_RANK}.w
[r]
rw=read
filename=$SCRATCH/h.\${IOWL_HOST}.\${IOWL_RANK}.r
JOB
rm -f "$SCRATCH"/h.*.w "$SCRATCH"/h.*.r
mpirun_np 2 "$IOWL_MPI" --output-format=json --eta=never --rank-jobs=0:w --rank-jobs=1:r "$SCRATCH/h.ini"
[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "\${IOWL_HOST} with --rank-jobs: exited $rc"; }
ls "$SCRATCH" | grep '^h\..*\.[wr]$' | sort > "$SCRATCH/made"
printf 'h.%s.0.w\nh.%s.1.r\n' "$host" "$host" > "$SCRATCH/want"
cmp -s "$SCRATCH/made" "$SCRATCH/want" ||
	{ cat "$SCRATCH/made"; fail "\${IOWL_HOST}/--rank-jobs: the files made are not h.$host.0.w and h.$host.1.r"; }
[ "$(jget "$SCRATCH/out" iowl.ranks.0.write.total_ios)" = 64 ] || fail "rank 0 did not write 64 blocks"
[ "$(jget "$SCRATCH/out" iowl.ranks.0.read.total_ios)" = 0 ] || fail "rank 0 ran job r"
[ "$(jget "$SCRATCH/out" iowl.ranks.1.read.total_ios)" = 64 ] || fail "rank 1 did not read 64 blocks"
[ "$(jget "$SCRATCH/out" iowl.ranks.1.write.total_ios)" = 0 ] || fail "rank 1 ran job w"
[ "$(jget "$SCRATCH/out" iowl.ranks.1.host)" = "$host" ] || fail "iowl.ranks[1].host is not $host"
echo "\${IOWL_HOST}: rank 0 wrote h.$host.0.w, rank 1 read h.$host.1.r"

# --status-interval over the ranks: rank 0 prints each interval's sum over both ranks ("ranks": 2,
# the workers of both), the same sum as the run's series point of that interval
# (jobs[].iowl.intervals, which mpi_null.sh holds to the ranks' totals and logged latencies):
# IOs and percentiles from the merged histograms alike.
cat > "$SCRATCH/live.ini" <<JOB
[l]
ioengine=null
rw=randread
bs=4k
size=64m
time_based=1
runtime=1500ms
rate_iops=1000
JOB
mpirun_np 2 "$IOWL_MPI" --output-format=json --eta=never --status-interval=500ms "$SCRATCH/live.ini"
[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "--status-interval over 2 ranks: exited $rc"; }
python3 - "$SCRATCH/out" <<'PY' || fail "--status-interval over 2 ranks: the lines are not the ranks' sum"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
lines, final = docs[:-1], docs[-1]
pts = final["jobs"][0]["iowl"]["intervals"]["points"]
assert len(lines) >= 2, lines
for l in lines:
    # a last sliver of an interval may be one rank's: the other folded it into its interval
    # before (each rank's clock cuts its own end; src/ranks_live.c prints what came)
    assert l["ranks"] == 2 or (l is lines[-1] and l["ms"] < 450), l
    r = l["jobs"][0]["read"]
    p = pts[l["interval"] - 1]["read"]
    if l["interval"] < len(pts):  # the last point may hold a folded sliver
        assert (r["total_ios"], r["clat_ns"]["p50"], r["clat_ns"]["p99"]) == \
            (p["total_ios"], p["clat_p50_ns"], p["clat_p99_ns"]), (l, p)
    assert l["jobs"][0]["workers"] == l["ranks"], l  # one worker on each rank
print("--status-interval: %d lines of 2 ranks:" % len(lines),
      [(l["interval"], l["jobs"][0]["read"]["total_ios"]) for l in lines])
PY
mpirun_np 2 "$IOWL_MPI" --eta=never --status-interval=500ms "$SCRATCH/live.ini"
[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "--status-interval (text) over 2 ranks: exited $rc"; }
grep -q '^-- interval 2: 0\.[0-9]*-1\.[0-9]* s (2 ranks)$' "$SCRATCH/out" ||
	{ cat "$SCRATCH/out"; fail "--status-interval (text): no interval 2 of 2 ranks"; }

# --status-interval with --iostat over the ranks: the rows are the ranks' sum, the device view is
# rank 0's host's, printed as rank 0's interval closes (when the plain build finds a device
# behind the scratch directory at all).
cat > "$SCRATCH/io.ini" <<JOB
[d]
ioengine=psync
rw=write
bs=4k
size=1m
time_based=1
runtime=1
rate_iops=200
filename=$SCRATCH/io.\${IOWL_RANK}
JOB
"$IOWL" --eta=never --iostat --runtime=300ms "$SCRATCH/io.ini" > "$SCRATCH/plain" 2>&1
mpirun_np 2 "$IOWL_MPI" --eta=never --status-interval=500ms --iostat "$SCRATCH/io.ini"
[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "--status-interval --iostat over 2 ranks: exited $rc"; }
grep -q '^-- interval 1: .* s (2 ranks)$' "$SCRATCH/out" ||
	{ cat "$SCRATCH/out"; fail "--status-interval --iostat over 2 ranks: no interval of 2 ranks"; }
if grep -q '^Device ' "$SCRATCH/plain"; then
	grep -q '^Device ' "$SCRATCH/out" ||
		{ cat "$SCRATCH/out"; fail "--status-interval --iostat over 2 ranks: no device view"; }
	echo "--status-interval --iostat: the ranks' sum and rank 0's devices"
fi
