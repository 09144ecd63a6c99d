#!/bin/sh
# A successful run writes nothing to stderr when it is not a terminal: informational lines (the
# layout, one per clone as fio's "Laying out IO files (N files / total S)") go with the results,
# on stdout or into --output, and never into JSON output.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
"$IOWL" --name=many --nrfiles=50 --filesize=16k --rw=read --bs=4k > out 2> err || { cat err; fail "run"; }
[ -s err ] && { cat err; fail "a successful run wrote to stderr"; }
n=$(grep -c "Laying out" out)
[ "$n" = 1 ] || fail "$n layout lines for one clone of 50 files, expected 1"
grep -q "^many: Laying out IO files (50 files / total 800KiB)$" out ||
	fail "layout line: $(grep "Laying out" out)"
grep -q "^many: (groupid=0" out || fail "no results on stdout"
rm -f many.*
"$IOWL" --name=one --size=16k --rw=read --bs=4k --output=res.txt > out 2> err || { cat err; fail "run with --output"; }
[ -s err ] || [ -s out ] && fail "--output: something on stdout or stderr: $(cat out err)"
grep -q "^one: Laying out IO file (1 file / 16.0KiB)$" res.txt || fail "the layout line is not in --output's file"
"$IOWL" --name=js --size=16k --rw=read --bs=4k --output-format=json > js.json 2> err || { cat err; fail "json run"; }
[ -s err ] && { cat err; fail "json run wrote to stderr"; }
[ "$(jget js.json jobs.0.jobname)" = js ] || fail "stdout is not only JSON: $(head -c 100 js.json)"
"$IOWL" --name=sw --size=16k --rw=read --sweep bs=4k,8k > out 2> err || { cat err; fail "sweep"; }
[ -s err ] && { cat err; fail "a sweep wrote progress to stderr, which is not a terminal"; }
echo "quiet stderr, one layout line per clone"
