#!/bin/sh
# SPDX-License-Identifier: MIT
# wait_for=NAME (fio's meaning): the job starts once every clone of the earlier job NAME has
# finished, in the same reporting group, and its runtime counts from its own start; a waitee
# that is later, missing, itself or not unique is an error at the option's line, as fio says.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# (throttled: the jobs only need their seconds, not a spinning CPU each)
printf '[global]\nioengine=null\nsize=1m\nrate_iops=1000\n[a]\nnumjobs=2\ntime_based\nruntime=2\n[b]\nwait_for=a\ntime_based\nruntime=1\n[c]\n' > w.fio
"$IOWL" --output-format=json --output=w.json w.fio || fail "the run failed"
b_el=$(jget w.json jobs.2.elapsed) c_el=$(jget w.json jobs.3.elapsed)
b_rt=$(jget w.json jobs.2.job_runtime)
[ "$(jget w.json jobs.2.jobname)" = b ] || fail "job order in the JSON"
# a's clones run 2 s; b starts after both and runs 1 s of its own: it ends 3 s or more in
[ "$b_el" -ge 3 ] || fail "b ended $b_el s into the run: it did not wait for a (2 s)"
[ "$b_rt" -ge 950 ] || fail "b ran $b_rt ms, not its own runtime of 1 s"
[ "$c_el" -lt "$b_el" ] || fail "c (no wait_for) ended as late as b ($c_el s)"
for j in 0 1 2 3; do
	[ "$(jget w.json jobs.$j.groupid)" = 0 ] || fail "job $j is not in group 0: wait_for starts no group"
done
bad() { # expected message, job file text
	printf "$2" > bad.fio
	expect_status 1 "$IOWL" --parse-only bad.fio
	grep -qF "$1" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "expected: $1"; }
}
bad "bad.fio:4: wait_for=b: no job named 'b' before this one" '[a]\nioengine=null\nsize=1m\nwait_for=b\n[b]\nioengine=null\nsize=1m\n'
bad "bad.fio:4: wait_for=a: a job cannot wait for itself" '[a]\nioengine=null\nsize=1m\nwait_for=a\n'
bad "bad.fio:8: wait_for=a: 2 jobs are named 'a'" '[a]\nioengine=null\nsize=1m\n[a]\n[b]\nioengine=null\nsize=1m\nwait_for=a\n'
echo "wait_for ok: b ended ${b_el} s in (a ran 2 s), c ${c_el} s"
