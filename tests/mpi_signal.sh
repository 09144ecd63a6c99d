#!/bin/sh
# SPDX-License-Identifier: MIT
# mpi_signal.sh SIG PID OUT R...: for the MPI tests (tests/func/mpi_fail.sh, mpi_hang.sh and their
# ranks' rank.sh): waits until each rank R has started its IO (its iops log
# $SCRATCH/started.R_iops.1.log is there; up to 30 s, however slow the start, e.g. under ASan),
# then 1.5 s more, writes the time (/proc/uptime) to OUT and sends SIG to PID (a number, or the
# file holding it, read then: a rank's $SCRATCH/pid.R).
sig=$1 pid=$2 out=$3
shift 3
for r in "$@"; do
	n=0
	while [ ! -f "$SCRATCH/started.${r}_iops.1.log" ] && [ $n -lt 600 ]; do
		sleep 0.05
		n=$((n + 1))
	done
done
sleep 1.5
read -r up _ < /proc/uptime
echo "$up" > "$out.new" && mv "$out.new" "$out"
[ -f "$pid" ] && pid=$(cat "$pid")
kill -"$sig" "$pid"
