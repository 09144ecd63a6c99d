#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one test and records its outcome for tests/summary.sh: run-one.sh unit|func TEST RESULT.
# A unit test passes with status 0; a functional test exits 0 to pass, 1 to fail and 77 to skip
# (with the reason on its last line of output).  A test that hangs fails after 300 s (900 s under
# ThreadSanitizer, IOWL_TSAN=1 from make tsan, which also skips the unit tests: none starts a
# thread, so TSan has nothing to look at that make test, asan and ubsan do not run).
kind=$1 t=$2 res=$3
name=$(basename "$t" .sh)
mkdir -p "$(dirname "$res")"
start=$(date +%s%N)
limit=300
[ -n "$IOWL_TSAN" ] && limit=900
if [ "$kind" = unit ] && [ -n "$IOWL_TSAN" ]; then
	echo "skip: single-threaded, nothing for ThreadSanitizer to check (make test, asan, ubsan run it)" > "$res.out"
	rc=77
elif [ "$kind" = unit ]; then
	timeout $limit "$t" > "$res.out" 2>&1
	rc=$?
else
	timeout $limit sh "$t" > "$res.out" 2>&1
	rc=$?
fi
ms=$(( ($(date +%s%N) - start) / 1000000 ))
case $rc in
0) echo "PASS $kind/$name (${ms} ms)" ;;
77) echo "SKIP $kind/$name: $(tail -n 1 "$res.out")" ;;
*) echo "FAIL $kind/$name (status $rc)" ;;
esac
echo "$rc $ms" > "$res"
