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
# The CPU (user+sys) the tests used, and the ten that used most: the figure that says how long the
# suite needs on a given number of idle CPUs, whatever the load was during this run.
for t in "$@"; do
	read -r rc ms cpu sys < "$dir/$t" 2>/dev/null && echo "${cpu:-0} ${ms:-0} $t"
done | sort -rn | awk '{ cpu += $1; if (NR <= 10) top = top sprintf(" %s %.1f", $3, $1 / 1000) }
	END { if (NR) printf "CPU %.1f s in all; most:%s\n", cpu / 1000, top }'
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
