#!/bin/sh
# --debug=TYPE[,TYPE]: fio's categories; iowl's traces on stderr as "TYPE TID message", the
# fio-internal ones named as having nothing to trace; the results on stdout unchanged.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 1m data
job="--eta=never --name=d --filename=data --size=16k --bs=4k --rw=randread --randseed=5"

"$IOWL" --debug=help > help.txt || fail "--debug=help"
for t in process file io mem blktrace verify random parse diskutil job mutex profile time net \
	rate compress steadystate helperthread zbd; do
	grep -q "^  $t " help.txt || fail "--debug=help does not list $t"
done
for t in mutex profile net helperthread zbd; do
	grep -q "^  $t *nothing to trace: " help.txt || fail "$t: not said to have nothing to trace"
done
"$IOWL" --debug=? | cmp -s - help.txt || fail "--debug=? differs from --debug=help"

# io: each IO as queued and as completed, the offsets those the job did (its write_iolog's).
"$IOWL" --debug=io $job --write_iolog=w.log --output-format=json > r.json 2> io.txt ||
	fail "--debug=io run"
jget r.json jobs.0.read.total_ios > /dev/null || fail "the JSON on stdout is not JSON"
[ "$(grep -c '^io  *[0-9][0-9]*  *queue: job .d. clone 0 read offset=' io.txt)" = 4 ] ||
	{ cat io.txt; fail "4 queue lines expected"; }
[ "$(grep -c '^io  *[0-9]* *complete: .* res=4096 lat=' io.txt)" = 4 ] ||
	{ cat io.txt; fail "4 complete lines expected"; }
sed -n 's/.*queue: .* offset=\([0-9]*\) .*/\1/p' io.txt > traced
awk '$2 == "read" { print $3 }' w.log > logged
cmp -s traced logged || { paste traced logged; fail "traced offsets are not the IOs done"; }

# The set-up categories, each with its own tag.
"$IOWL" --debug=process,file,mem,random,job,parse,time,rate,verify,compress $job --rw=randwrite \
	--verify=crc32c --rate_iops=1000 --write_lat_log=l --log_store_compressed=1 \
	--output=/dev/null 2> set.txt || { cat set.txt; fail "set-up run"; }
for t in process file mem random job parse time rate verify compress; do
	grep -q "^$t  *[0-9][0-9]* " set.txt || { cat set.txt; fail "no $t trace"; }
done
grep -q "^io " set.txt && fail "io traced without being asked for"
grep -q "^parse .* command line:[0-9]*: rate_iops=1000$" set.txt || fail "parse: no rate_iops line"
grep -q "^verify .* verify=crc32c" set.txt || fail "verify: no method"
grep -q "^process .* thread 1 ends, status 0" set.txt || fail "process: no end"
"$IOWL" --debug=all $job --output=/dev/null 2> all.txt || fail "--debug=all"
grep -q "^io " all.txt && grep -q "^process " all.txt || fail "--debug=all traces less"

# Bad names are errors; a category with nothing to trace in iowl says so and runs.
expect_status 1 "$IOWL" --debug=io,nosuch $job
grep -q "'nosuch' is not a debug category" "$SCRATCH/err" || fail "unknown: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --debug= $job
expect_status 0 "$IOWL" --debug=mutex $job --output=/dev/null
grep -q "mutex: nothing to trace in iowl" "$SCRATCH/err" || fail "mutex: $(cat "$SCRATCH/err")"
# Off, nothing is traced.
"$IOWL" $job --output=/dev/null 2> off.txt || fail "plain run"
[ ! -s off.txt ] || { cat off.txt; fail "traces without --debug"; }
exit 0
