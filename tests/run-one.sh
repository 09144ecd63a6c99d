#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one test and records its outcome for tests/summary.sh: run-one.sh unit|func TEST RESULT.
# A unit test passes with status 0; a functional test exits 0 to pass, 1 to fail and 77 to skip
# (with the reason on its last line of output).  A test that hangs fails after 300 s.
kind=$1 t=$2 res=$3
name=$(basename "$t" .sh)
mkdir -p "$(dirname "$res")"
start=$(date +%s%N)
if [ "$kind" = unit ]; then
	timeout 300 "$t" > "$res.out" 2>&1
else
	timeout 300 sh "$t" > "$res.out" 2>&1
fi
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
case $rc in
0) echo "PASS $kind/$name (${ms} ms)" ;;
77) echo "SKIP $kind/$name: $(tail -n 1 "$res.out")" ;;
*) echo "FAIL $kind/$name (status $rc)" ;;
esac
echo "$rc $ms" > "$res"
