#!/bin/sh
# SPDX-License-Identifier: MIT
# Every file iowl writes reports a failed write (here /dev/full: ENOSPC) and fails the run (status
# 2) instead of leaving a truncated file behind a status 0: the report, the analysis, the iolog.
. "$(dirname "$0")/../lib.sh"
[ -c /dev/full ] || skip "no /dev/full"
job="--name=a --ioengine=null --size=1m --rw=randread --eta=never"

expect_status 2 "$IOWL" $job --analyze=1000 --output=/dev/full
grep -q "No space left on device" "$SCRATCH/err" || fail "--analyze --output=/dev/full: no ENOSPC in: $(cat "$SCRATCH/err")"
"$IOWL" $job --analyze=1000 > /dev/full 2> "$SCRATCH/err"
[ $? = 2 ] || fail "--analyze to a full stdout did not fail the run"
grep -q "No space left on device" "$SCRATCH/err" || fail "--analyze > /dev/full: no ENOSPC reported"

"$IOWL" $job > /dev/full 2> "$SCRATCH/err"
[ $? = 2 ] || fail "a run's report to a full stdout did not fail the run"
grep -q "No space left on device" "$SCRATCH/err" || fail "report > /dev/full: no ENOSPC reported: $(cat "$SCRATCH/err")"

expect_status 2 "$IOWL" $job --write_iolog=/dev/full
grep -q "write_iolog '/dev/full'.*No space left on device" "$SCRATCH/err" ||
	fail "write_iolog=/dev/full: $(cat "$SCRATCH/err")"
# the logs take a prefix (fio's meaning), so they go to a filesystem that fills: a 16 KiB tmpfs
if [ "$(id -u)" = 0 ] && mkdir "$SCRATCH/small" && mount -t tmpfs -o size=16k iowl-test "$SCRATCH/small" 2>/dev/null; then
	on_exit "umount $SCRATCH/small"
	for log in write_lat_log write_bw_log write_iops_log; do
		rm -f "$SCRATCH"/small/*
		expect_status 2 "$IOWL" $job --size=64m --$log="$SCRATCH/small/l" --log_avg_msec=0
		grep -q "No space left on device" "$SCRATCH/err" || fail "$log on a full filesystem: $(cat "$SCRATCH/err")"
	done
	rm -f "$SCRATCH"/small/*
	expect_status 2 "$IOWL" $job --size=64m --write_iolog="$SCRATCH/small/iolog"
	grep -q "write_iolog.*No space left on device" "$SCRATCH/err" ||
		fail "write_iolog on a full filesystem: $(cat "$SCRATCH/err")"
else
	echo "note: the logs on a full filesystem need root to mount a small tmpfs: not checked"
fi
echo "ok: write errors are reported with their cause and fail the run"
