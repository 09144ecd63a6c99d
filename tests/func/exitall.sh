#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's exitall, exit_what and exitall_on_error: a finished clone ends the others of its reporting
# group, of its phase, or of the run; what ran is read from the JSON (IOs done, jobs not run),
# never from how long it took.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"
ios() { jget "$1" "jobs.$2.read.total_ios"; }
# A fast job and a slow one (100 IOs/s for up to 60 s) in one group; a later phase after them.
cat > ex.fio <<EOT
[global]
ioengine=null
size=64m
bs=4k
rw=randread
[fast]
exitall=1
exit_what=\${WHAT}
number_ios=200
[slow]
rate_iops=100
runtime=60
time_based
[later]
stonewall
number_ios=50
EOT
for what in group stonewall all; do
	WHAT=$what "$IOWL" --output-format=json ex.fio > $what.json 2> err || { cat err; fail "exit_what=$what"; }
	[ "$(ios $what.json 0)" = 200 ] || fail "$what: fast did $(ios $what.json 0) IOs"
	# The slow job was ended with fast: at 100 IOs/s it did far fewer than its 6000.
	s=$(ios $what.json 1)
	[ "$s" -lt 3000 ] || fail "exit_what=$what: the slow job ran on ($s IOs)"
	l=$(ios $what.json 2)
	if [ $what = all ]; then
		[ "$l" = 0 ] || fail "exit_what=all: the later phase ran ($l IOs)"
		jget $what.json jobs.2.iowl.not_run | grep -q "exitall=1 exit_what=all" ||
			fail "exit_what=all: the later job does not say why it did not run: $(jget $what.json jobs.2.iowl.not_run)"
	else
		[ "$l" = 50 ] || fail "exit_what=$what: the later phase did $l IOs, expected 50"
	fi
done
# Without exitall the slow job runs its course: checked on a short runtime.
sed -e 's/^exitall=1/exitall=0/' -e 's/runtime=60/runtime=2/' ex.fio > noexit.fio
WHAT=group "$IOWL" --output-format=json noexit.fio > no.json 2> err || { cat err; fail "without exitall"; }
[ "$(ios no.json 1)" -ge 150 ] || fail "without exitall the slow job did $(ios no.json 1) IOs in 2 s"

# exitall_on_error: a job that fails ends the run, and later phases do not start.
[ -f "$shim" ] || skip "fault shim not built ($shim)"
truncate -s 1m iowl-fault.dat
cat > err.fio <<EOT
[bad]
filename=iowl-fault.dat
rw=read
bs=64k
exitall_on_error=1
[slow]
ioengine=null
size=64m
rate_iops=100
runtime=60
time_based
[later]
stonewall
ioengine=null
size=1m
EOT
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=262144 "$IOWL" --output-format=json err.fio > e.json 2> err
[ $? = 2 ] || { cat err; fail "exitall_on_error: status, expected 2 (an IO error)"; }
[ "$(ios e.json 1)" -lt 3000 ] || fail "exitall_on_error: the slow job ran on ($(ios e.json 1) IOs)"
jget e.json jobs.2.iowl.not_run | grep -q "exitall_on_error" ||
	fail "exitall_on_error: the later job: $(jget e.json jobs.2.iowl.not_run)"
exit 0
