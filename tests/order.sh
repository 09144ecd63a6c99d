#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the test names given, slowest first, so that a parallel run does not end waiting on one
# long test started last: by the times the previous run recorded under DIR (tests/run-one.sh
# writes "STATUS MS CPU_MS" per test), else by the list below (measured on 2 CPUs); tests without a
# time go first.  order.sh DIR NAME...
dir=$1; shift
slow="func/report_browser func/fio_diff_5 func/stop func/report func/buffers func/fio_diff_3
func/fio_diff_1 func/bad_jobs func/fio_diff_2 func/fio_diff_4 func/fio_diff_7 func/fio_diff_6
func/loopdev func/vdbench_bad func/engines func/fio_diff_8 func/terse unit/test_engines
func/cmdline_jobfile func/loops func/vdbench_snia func/diagnostics func/layout func/verify"
for t in "$@"; do
	ms=$(cut -d' ' -f2 "$dir/$t" 2>/dev/null)
	if [ -z "$ms" ]; then
		i=0 ms=
		for s in $slow; do
			i=$((i + 1))
			[ "$s" = "$t" ] && ms=$((1000000 - i))
		done
	fi
	echo "${ms:-9999999} $t"
done | sort -s -k1,1 -rn | cut -d' ' -f2
