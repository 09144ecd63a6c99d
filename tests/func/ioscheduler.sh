#!/bin/sh
# SPDX-License-Identifier: MIT
# ioscheduler: the job's device is on that scheduler while the job runs (read from
# /sys/block/loopN/queue/scheduler during the run), and back on the one it had once the run ends;
# a scheduler the device does not offer and a file on tmpfs are errors at the option's line.
. "$(dirname "$0")/../lib.sh"
loop_device 64m
q=/sys/block/$name/queue/scheduler
[ -w "$q" ] || skip "$q cannot be written here"
grep -qw kyber "$q" || grep -qw mq-deadline "$q" || skip "$name offers neither kyber nor mq-deadline: $(cat "$q")"
sched=kyber
grep -qw kyber "$q" || sched=mq-deadline
before=$(sed 's/.*\[\(.*\)\].*/\1/' "$q")
[ "$before" != "$sched" ] || { echo "$sched" > "$q"; before=$sched; sched=none; }
"$IOWL" --name=s --filename="$dev" --ioscheduler="$sched" --rw=read --rate_iops=100 \
	--runtime=3 --time_based --eta=never > "$SCRATCH/out" 2>&1 &
pid=$!
on_exit "kill $pid"
during=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	sleep 0.1
	during=$(sed 's/.*\[\(.*\)\].*/\1/' "$q")
	[ "$during" = "$sched" ] && break
done
wait $pid || { cat "$SCRATCH/out"; fail "the run failed"; }
[ "$during" = "$sched" ] || fail "during the run $name's scheduler was '$during', expected '$sched'"
after=$(sed 's/.*\[\(.*\)\].*/\1/' "$q")
[ "$after" = "$before" ] || fail "after the run $name's scheduler is '$after', expected '$before' back"
printf '[j]\nfilename=%s\nsize=1m\nioscheduler=no-such-sched\n' "$dev" > "$SCRATCH/bad.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/bad.fio"
grep -q "bad.fio:4: ioscheduler=no-such-sched: the device behind '$dev' has no scheduler 'no-such-sched' (it offers: " "$SCRATCH/err" ||
	fail "unknown scheduler: $(cat "$SCRATCH/err")"
printf '[j]\nfilename=/dev/shm/iowl-iosched.%s\nsize=1m\nioscheduler=%s\n' $$ "$sched" > "$SCRATCH/shm.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/shm.fio"
grep -q "shm.fio:4: ioscheduler=$sched: .* is on no block device" "$SCRATCH/err" ||
	fail "tmpfs file: $(cat "$SCRATCH/err")"
echo "ioscheduler ok ($before -> $sched -> $after)"
exit 0
