#!/bin/sh
# vdbench's own output beside iowl's: --vdbench-output prints its interval lines (one per
# measured interval, warmup left out, then avg_FIRST-LAST) on stdout before the report, and
# --output-format=vdbench-flat writes its flatfile columns as CSV (the file with --output); the
# figures agree with iowl's JSON for the same run.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 64m lun || fail "truncate"
cat > mix.vdb <<'VDB'
sd=sd1,lun=/dev/sdb,threads=4
wd=wd1,sd=sd1,xfersize=8k,rdpct=70
rd=run1,wd=wd1,iorate=max,elapsed=3,warmup=1,interval=1
VDB
map=--vdbench-lun=/dev/sdb=$SCRATCH/lun
# Every run held to 3000 IOs per second per direction, to spare the tests beside it.
cap=--set=rate_iops=3000

# The lines on stdout (intervals 2 and 3, 1 is warmup, and their average), iowl's JSON in a
# file: the average agrees with it.
"$IOWL" --eta=never --vdbench-output --output-format=json --output=run.json "$map" $cap mix.vdb > lines.txt 2> err ||
	{ cat err; fail "run"; }
grep -q '^[0-9:.]* Starting RD=run1; I/O rate: Uncontrolled MAX; elapsed=3 warmup=1; For loops: None$' lines.txt ||
	{ cat lines.txt; fail "no run line"; }
grep -q '^[A-Z][a-z][a-z] [0-9][0-9], [0-9]\{4\}  interval        i/o   MB/sec   bytes   read     resp     read    write     resp     resp queue  cpu%  cpu%$' lines.txt ||
	{ cat lines.txt; fail "no header"; }
awk '$1 ~ /^[0-9:]+[.][0-9]+$/ && $2 ~ /^[0-9]+$/ { print $2 }' lines.txt | tr '\n' ' ' > ivl.txt
[ "$(cat ivl.txt)" = "2 3 " ] || fail "interval lines $(cat ivl.txt), expected 2 3"
grep -q '^[0-9:.]*   avg_2-3 ' lines.txt || { cat lines.txt; fail "no avg_2-3 line"; }
# An interval in which no worker reported IO (a start-up slowed by TSan, or workers a busy machine
# did not run at the interval's end: their IOs go to a later interval) says so with zeros; the
# average did IO.  When no interval had any, the lines cannot be judged: skip.
awk '$1 ~ /^[0-9:]+[.][0-9]+$/ && $2 ~ /^[0-9]+$|^avg/ {
	if ($3 == 0 && $2 !~ /^avg/) { if ($5 != 0 || $6 != 0) bad++; next }
	if ($5 != 8192 || $6 < 60 || $6 > 80 || $13 > 100.5 || $14 > 100.5) bad++; else io++ }
	END { exit bad > 0 || io < 1 }' lines.txt ||
	{ cat lines.txt; fail "a line with bytes/io, read pct or cpu% out of place"; }
awk '$1 ~ /^[0-9:]+[.][0-9]+$/ && $2 ~ /^[0-9]+$/ && $3 > 0 { io++ } END { exit !io }' lines.txt ||
	{ cat lines.txt; skip "no interval line had IO: the machine was too busy for the workers to report in time"; }
iops=$(awk -v r="$(jget run.json jobs.0.read.iops)" -v w="$(jget run.json jobs.0.write.iops)" 'BEGIN { print r + w }')
avg=$(awk '$2 ~ /^avg_/ { print $3 }' lines.txt)
# iowl's totals leave the warmup out as vdbench's average does: both cover intervals 2-3.
approx "$avg" "$iops" 10 || fail "avg_2-3 rate $avg, iowl's IOPS $iops"
rd=$(awk '$2 ~ /^avg_/ { print $6 }' lines.txt)
approx "$rd" "$(awk -v r="$(jget run.json jobs.0.read.iops)" -v t="$iops" 'BEGIN { print 100 * r / t }')" 3 ||
	fail "avg read pct $rd"

# The flatfile: one header, a row per measured interval and the average, into --output.
"$IOWL" --eta=never --output-format=vdbench-flat --output=flat.csv "$map" $cap mix.vdb > out.txt 2> err ||
	{ cat err; fail "flat run"; }
[ ! -s out.txt ] || fail "vdbench-flat with --output printed on stdout: $(head -c 200 out.txt)"
head -n 1 flat.csv | grep -q '^Run,Interval,reqrate,rate,MB/sec,bytes/io,read%,resp,read_resp,write_resp,resp_max,read_max,write_max,resp_std,read_std,write_std,xfersize,threads,rdpct,rhpct,whpct,seekpct,lunsize,version,compratio,dedupratio,queue_depth,cpu_used,cpu_user,cpu_kernel,cpu_wait,cpu_idle$' ||
	fail "flatfile header: $(head -n 1 flat.csv)"
[ "$(cut -d, -f2 flat.csv | tail -n +2 | tr '\n' ' ')" = "2 3 avg_2-3 " ] ||
	fail "flatfile intervals: $(cut -d, -f2 flat.csv | tr '\n' ' ')"
awk -F, 'NR > 1 { if ($4 == 0 && $2 !~ /^avg/) b = 0; else b = 8192	# an interval without IO: 0
	if (NF != 32 || $1 != "run1" || $6 != b || $17 != 8192 || $18 != 4 || $19 != 70 || $22 != 100) bad++ }
	END { exit bad > 0 }' flat.csv ||
	{ cat flat.csv; fail "flatfile rows"; }
# Without warmup vdbench's average starts at the second interval.
sed 's/,warmup=1//; s/elapsed=3/elapsed=2/' mix.vdb > nowarm.vdb
"$IOWL" --eta=never --output-format=vdbench-flat "$map" $cap nowarm.vdb > flat2.csv 2> err || { cat err; fail "run without warmup"; }
[ "$(cut -d, -f2 flat2.csv | tail -n +2 | tr '\n' ' ')" = "1 2 avg_2-2 " ] ||
	fail "flatfile intervals without warmup: $(cut -d, -f2 flat2.csv | tr '\n' ' ')"
echo "vdbench lines and flatfile ok: avg $avg IO/s against iowl's $iops"
