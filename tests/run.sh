#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every unit test binary given as an argument, then every functional test under tests/func;
# a functional test exits 0 to pass, 1 to fail and 77 to skip (with the reason on its output).
pass=0 fail=0 skip=0 failed=""
: "${IOWL:=build/iowl}"
export IOWL HELPERS SHIMS
log=$(mktemp -d)
for t in "$@"; do
	name=$(basename "$t")
	# A unit test that hangs fails after 300 s instead of holding CI up.
	if timeout 300 "$t" > "$log/$name.out" 2>&1; then
		pass=$((pass + 1)); echo "PASS unit/$name"
	else
		fail=$((fail + 1)); failed="$failed unit/$name"; echo "FAIL unit/$name"
		cat "$log/$name.out"
	fi
done
for t in tests/func/*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	timeout 300 sh "$t" > "$log/$name.out" 2>&1
	rc=$?
	case $rc in
	0) pass=$((pass + 1)); echo "PASS func/$name" ;;
	77) skip=$((skip + 1)); echo "SKIP func/$name: $(tail -n 1 "$log/$name.out")" ;;
	*) fail=$((fail + 1)); failed="$failed func/$name"; echo "FAIL func/$name (status $rc)"
	   sed 's/^/    /' "$log/$name.out" | tail -n 40 ;;
	esac
done
rm -rf "$log"
[ -n "$failed" ] && echo "failed:$failed"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
