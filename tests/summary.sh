#!/bin/sh
# SPDX-License-Identifier: MIT
# Sums up the outcomes tests/run-one.sh recorded under DIR; prints each failure's output; fails
# when any test failed or did not record an outcome.
dir=$1; shift
pass=0 fail=0 skip=0 failed=""
for t in "$@"; do
	res=$dir/$t
	rc=$(cut -d' ' -f1 "$res" 2>/dev/null)
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed="$failed $t"
	   echo "--- $t (status ${rc:-none})"
	   sed 's/^/    /' "$res.out" 2>/dev/null | tail -n 40 ;;
	esac
done
[ -n "$failed" ] && echo "failed:$failed"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
