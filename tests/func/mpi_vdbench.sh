#!/bin/sh
# vdbench parameter files with host definitions under MPI: the ranks are vdbench's hosts, one hd=
# each (by the host name system= gives, else by number: hd i on rank i), as vdbench runs one
# slave per host.  An sd= without host= is on every host, a wd= without host= runs on every host
# (vdbench's defaults), and the run's iorate= is the total over the hosts: a workload on 2 hosts
# gets half of its share on each.  Too few or too many ranks, and an SD whose workloads run on
# different hosts, are refused; the plain build names iowl-mpi for remote hosts.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../mpi_lib.sh"
need_mpi
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"

host=$(hostname)
# sd1 on both hosts (wd1 reads it on both), sd2 on host two only (wd2 writes it there).
for hd in "hd=one,system=$host
hd=two,system=$host" "hd=one
hd=two"; do
	cat > "$SCRATCH/p.vdb" <<VDB
$hd
sd=sd1,lun=$SCRATCH/f1,size=4m
sd=sd2,host=two,lun=$SCRATCH/f2,size=4m
wd=wd1,sd=sd1,rdpct=100,xfersize=4k
wd=wd2,sd=sd2,host=two,rdpct=0,xfersize=4k
rd=rd1,wd=*,iorate=200,elapsed=2,interval=1
VDB
	mpirun_np 2 "$IOWL_MPI" --output-format=json --eta=never --vdbench "$SCRATCH/p.vdb"
	[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "hd= over 2 ranks: exited $rc"; }
	python3 - "$SCRATCH/out" <<'PY' || fail "hd= over 2 ranks: the ranks did not run their hosts' workloads"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = {j["jobname"]: j for j in d["jobs"]}
r0, r1 = d["iowl"]["ranks"]
# iorate=200 over wd1 and wd2 (100 each): wd1 runs on both hosts, 50 on each; wd2 on two only.
assert jobs["rd1.sd1"]["job options"]["rate_iops"] == "50,0", jobs["rd1.sd1"]["job options"]
assert jobs["rd1.sd2"]["job options"]["rate_iops"] == "0,100", jobs["rd1.sd2"]["job options"]
# hd one (rank 0) reads sd1 only; hd two (rank 1) reads sd1 and writes sd2.
assert r0["read"]["total_ios"] > 0 and r0["write"]["total_ios"] == 0, r0
assert r1["read"]["total_ios"] > 0 and r1["write"]["total_ios"] > 0, r1
assert jobs["rd1.sd2"]["write"]["total_ios"] == r1["write"]["total_ios"]
assert jobs["rd1.sd1"]["read"]["total_ios"] == r0["read"]["total_ios"] + r1["read"]["total_ios"]
print("hd=: rank 0 read %d, rank 1 read %d and wrote %d" % (r0["read"]["total_ios"],
      r1["read"]["total_ios"], r1["write"]["total_ios"]))
PY
done

# One rank per hd=: 3 host definitions for 2 ranks are refused on every rank.
printf 'hd=one\nhd=two\nhd=three\nsd=sd1,lun=%s/f1,size=4m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$SCRATCH" > "$SCRATCH/p3.vdb"
mpirun_np 2 "$IOWL_MPI" --eta=never --vdbench "$SCRATCH/p3.vdb"
[ $rc = 1 ] || fail "3 hd= over 2 ranks: exited $rc, expected 1"
grep -q "p3.vdb:1: 3 hd= host definitions, but 2 MPI ranks: start one rank per host definition (mpirun -np 3)" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "3 hd= over 2 ranks: no message"; }
# An SD's workloads of a run run together: wd1 on host one only and wd2 on both share sd1.
printf 'hd=one\nhd=two\nsd=sd1,lun=%s/f1,size=4m\nwd=wd1,sd=sd1,host=one\nwd=wd2,sd=sd1,rdpct=0\nrd=rd1,wd=*,iorate=10,elapsed=2,interval=1\n' "$SCRATCH" > "$SCRATCH/pm.vdb"
mpirun_np 2 "$IOWL_MPI" --eta=never --vdbench "$SCRATCH/pm.vdb"
[ $rc = 1 ] || fail "workloads of one SD on different hosts: exited $rc, expected 1"
grep -q "rd=rd1: on hd=two wd=wd2 runs on sd=sd1 but wd=wd1 does not" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "workloads of one SD on different hosts: no message"; }
# The plain build: a host that is not this machine names the MPI build.
"$IOWL" --eta=never --vdbench "$SCRATCH/pm.vdb" > "$SCRATCH/out" 2> "$SCRATCH/err"
[ $? = 1 ] && grep -q "pm.vdb:1: hd=one: 'one' is not this machine: run the file with iowl-mpi under mpirun" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "the plain build with hd=one: no message"; }
