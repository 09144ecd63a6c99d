#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's stats and log options: stats=0 leaves a job out of the results, disk_util=0 its devices,
# bwavgtime/iopsavgtime set the sample windows, log_unix_epoch and log_max_value the logs' times
# and values; compared with fio where it is installed.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
j="--eta=never --output-format=json"

# stats=0: the job runs, and is in no job list and no group figure.
"$IOWL" $j --name=a --ioengine=null --size=16m --stats=0 --name=b --ioengine=null --size=8m \
	--group_reporting > s.json || fail "stats=0 run"
[ "$(jget s.json jobs)" = 1 ] && [ "$(jget s.json jobs.0.jobname)" = b ] ||
	fail "stats=0: the jobs listed are not just b"
[ "$(jget s.json jobs.0.read.io_bytes)" = 8388608 ] || fail "stats=0: a's IO is in b's figures"
"$IOWL" --eta=never --name=a --ioengine=null --size=16m --stats=0 --name=b --ioengine=null \
	--size=8m > s.txt || fail "stats=0 text run"
grep -q "^a: " s.txt && fail "stats=0: job a in the text report"
grep -q "io=8192KiB" s.txt || { cat s.txt; fail "stats=0: the group line is not b's 8 MiB"; }
if have_fio; then
	fio --output-format=json --output=f.json --name=a --ioengine=null --size=16m --stats=0 \
		--name=b --ioengine=null --size=8m --group_reporting > /dev/null || fail "fio stats=0"
	# (fio 3.33 adds an entry of zeros without a jobname for the stats=0 job; iowl leaves it out)
	[ "$(jget f.json jobs.0.jobname)" = b ] && [ "$(jget f.json jobs.0.read.io_bytes)" = 8388608 ] &&
		! jget f.json jobs.1.jobname > /dev/null 2>&1 ||
		fail "fio's stats=0 differs from what this test expects"
fi
# An IO error of a stats=0 job still sets the exit status.
"$IOWL" --eta=never --name=e --filename="$SCRATCH/missing/f" --size=1m --stats=0 > /dev/null 2>&1
[ $? = 0 ] && fail "stats=0: a job that could not open its file exited 0"

# disk_util=0 in every job: no "disk_util" key, as fio; a device-less job keeps iowl's [].
truncate -s 8m d.dat
"$IOWL" $j --name=d --filename=d.dat --size=8m --disk_util=0 > d.json || fail "disk_util=0 run"
jget d.json disk_util > /dev/null 2>&1 && fail "disk_util=0: the JSON has disk_util"
"$IOWL" $j --name=d --filename=d.dat --size=8m > d1.json || fail "disk_util=1 run"
jget d1.json disk_util > /dev/null 2>&1 || fail "disk_util=1: no disk_util key"

# Sample windows: 250 ms for bw and 1 s for iops over 2 s: about 8 and 2 samples (a late
# window only lowers the count; never more than fit, at least one).
"$IOWL" $j --name=w --ioengine=null --rw=randread --rate_iops=2000 --size=16m --runtime=2 \
	--time_based --bwavgtime=250 --iopsavgtime=1000 > w.json || fail "avgtime run"
bw=$(jget w.json jobs.0.read.bw_samples) io=$(jget w.json jobs.0.read.iops_samples)
[ "$bw" -le 8 ] && [ "$io" -le 2 ] && [ "$io" -ge 1 ] && [ "$bw" -gt $((2 * io)) ] ||
	fail "bwavgtime=250 iopsavgtime=1000: $bw bw and $io iops samples"
expect_status 1 "$IOWL" --parse-only --name=z --ioengine=null --size=1m --bwavgtime=0
grep -q "bwavgtime" "$SCRATCH/err" || fail "bwavgtime=0: the error does not name it"

# log_unix_epoch: times in Unix ms, inside the run's wall-clock span.
t0=$(date +%s%3N)
"$IOWL" $j --name=u --ioengine=null --rw=randread --size=16m --number_ios=2000 \
	--write_iops_log=u --log_unix_epoch=1 > /dev/null || fail "log_unix_epoch run"
t1=$(date +%s%3N)
awk -F', ' -v a="$t0" -v b="$t1" '$1 < a || $1 > b { bad = 1 } END { exit bad || NR != 2000 }' u_iops.1.log ||
	{ head -2 u_iops.1.log; fail "log_unix_epoch: times not within $t0..$t1"; }

# log_max_value: each window shows its largest clat, so the largest line is the job's clat max
# (and no line is below the window's mean, which the default logs).
"$IOWL" $j --name=m --ioengine=null --rw=randread --size=16m --runtime=1 --time_based \
	--rate_iops=2000 --write_lat_log=m --log_avg_msec=200 --log_max_value=1 > m.json ||
	fail "log_max_value run"
top=$(awk -F', ' '$2 > m { m = $2 } END { print m + 0 }' m_clat.1.log)
[ "$top" = "$(jget m.json jobs.0.read.clat_ns.max)" ] ||
	fail "log_max_value: largest clat line $top, the job's clat max $(jget m.json jobs.0.read.clat_ns.max)"
mean=$(awk -F', ' '{ s += $2; n++ } END { print s / n }' m_clat.1.log)
awk -v a="$mean" -v b="$(jget m.json jobs.0.read.clat_ns.mean)" 'BEGIN { exit !(a >= b) }' ||
	fail "log_max_value: the windows' values ($mean on average) are below the clat mean"
exit 0
