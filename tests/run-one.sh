#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one test and records its outcome for tests/summary.sh: run-one.sh unit|func TEST RESULT.
# A unit test passes with status 0; a functional test exits 0 to pass, 1 to fail and 77 to skip
# (with the reason on its last line of output).  A test that hangs fails after 300 s (900 s under
# ThreadSanitizer, IOWL_TSAN=1 from make tsan, which also skips the unit tests: none starts a
# thread, so TSan has nothing to look at that make test, asan and ubsan do not run; a TSan report
# of any program the test ran fails it, with the report in its output).  A test still there 10 s
# after the TERM (a child deaf to it, such as a hung fio) is killed.
kind=$1 t=$2 res=$3
name=$(basename "$t" .sh)
mkdir -p "$(dirname "$res")"
start=$(date +%s%N)
# Under TSan every report goes to a file of its own (log_path), so that a race in a run whose
# stderr the test keeps to itself, or whose status it does not look at, still fails the test.
if [ -n "$IOWL_TSAN" ]; then
	tlog=$(cd "$(dirname "$res")" && pwd)/$(basename "$res").tsan
	rm -f "$tlog".*
	export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS }log_path=$tlog"
fi
limit=300
[ -n "$IOWL_TSAN" ] && limit=900
if [ "$kind" = unit ] && [ -n "$IOWL_TSAN" ]; then
	echo "skip: single-threaded, nothing for ThreadSanitizer to check (make test, asan, ubsan run it)" > "$res.out"
	rc=77
elif [ "$kind" = unit ]; then
	timeout -k 10 $limit "$t" > "$res.out" 2>&1
	rc=$?
else
	timeout -k 10 $limit sh "$t" > "$res.out" 2>&1
	rc=$?
fi
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ -n "$IOWL_TSAN" ] && ls "$tlog".* > /dev/null 2>&1; then
	{ echo "ThreadSanitizer reported (exit 66 of a program the test ran):"; cat "$tlog".*; } >> "$res.out"
	rc=66
fi
# CPU (user+sys, and sys alone, ms) of every process the test waited for: the second line of
# times (not in a subshell, whose children are not the test's).
times > "$res.times"
set -- $(sed -n 2p "$res.times" | awk '{ t = 0; for (i = 1; i <= NF; i++) { split($i, a, "m");
	sub("s", "", a[2]); s[i] = a[1] * 60 + a[2]; t += s[i] } printf "%d %d", t * 1000, s[2] * 1000 }')
cpu=$1 sys=$2
rm -f "$res.times"
case $rc in
0) echo "PASS $kind/$name (${ms} ms, CPU ${cpu} ms, of it sys ${sys} ms)" ;;
77) echo "SKIP $kind/$name: $(tail -n 1 "$res.out")" ;;
*) echo "FAIL $kind/$name (status $rc)" ;;
esac
echo "$rc $ms $cpu $sys" > "$res"
