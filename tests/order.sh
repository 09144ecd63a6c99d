#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the test names given, slowest first, so that a parallel run does not end waiting on one
# long test started last: by the times the previous run recorded under DIR (tests/run-one.sh
# writes "STATUS MS CPU_MS SYS_MS" per test), else by the list below (the slowest in make test on 2
# loaded CPUs, slowest first), and before them the tests that have no time at all (new ones).
# A clean checkout (CI) has no times: the list comes first (it came last, after every other test,
# so that the slowest started at the end).  order.sh DIR NAME...
dir=$1; shift
slow="func/bad_jobs func/fio_examples func/mpi_null func/buffers func/include_graph func/stop
func/rate_latency func/engines func/metrics_prometheus func/report_browser func/replay_chunked
func/fio_diff_4 func/fio_diff_1 func/placement func/mpi_ranks func/jobctl func/files_fio
func/analyze_lru func/fio_diff_2 func/mpich_null func/replay func/loopdev func/idle_prof
func/vdbench_snia func/report func/stats_switches func/vdbench_bad"
for t in "$@"; do
	ms=$(cut -d' ' -f2 "$dir/$t" 2>/dev/null)
	if [ -z "$ms" ]; then
		i=0 ms=
		for s in $slow; do
			i=$((i + 1))
			[ "$s" = "$t" ] && ms=$((20000000 - i))
		done
	fi
	echo "${ms:-9999999} $t"
done | sort -s -k1,1 -rn | cut -d' ' -f2
