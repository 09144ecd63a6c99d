#!/bin/sh
# --bandwidth-log: the run's aggregate bandwidth in agg-read_bw.log, agg-write_bw.log and
# agg-trim_bw.log, fio 3.33's names and lines ("time, KiB/s, ddir, 0, 0" every bwavgtime).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
base="--eta=never --output-format=json --ioengine=null --size=1g"

# Two jobs at 400 reads/s and 400 writes/s of 4 KiB each, for 3 s: about 3200 KiB/s per
# direction, all jobs together.  What the lines show is checked against what was done, not
# against the rate asked for (a busy machine may not keep it).
# The three throttled runs (this one, bwavgtime's in c/ and fio's in fio/) go at once.
# bwavgtime sets the window (the shortest of the jobs'); a new run replaces the files (c/ holds
# a write log with writes from before).
mkdir c fio && echo "500, 1234, 1, 0, 0" > c/agg-write_bw.log || fail "mkdir"
(cd c && exec "$IOWL" $base --bandwidth-log --name=c --rw=read --bs=4k --rate_iops=400 --runtime=2 \
	--time_based --bwavgtime=200 > /dev/null) & pc=$!
pf=
if command -v fio >/dev/null 2>&1; then
	(cd fio && exec fio --bandwidth-log --eta=always --name=a --ioengine=null --size=1g --rw=randrw \
		--bs=4k --rate_iops=400 --runtime=2 --time_based --output=/dev/null > /dev/null 2>&1) & pf=$!
fi
"$IOWL" $base --bandwidth-log --name=a --rw=randrw --bs=4k --rate_iops=400 --runtime=3 \
	--time_based --name=b --rw=randrw --bs=4k --rate_iops=400 --runtime=3 --time_based \
	> r.json || fail "run"
wait $pc || fail "bwavgtime run"
for d in 0 1 2; do
	f=agg-$(echo read write trim | cut -d' ' -f$((d + 1)))_bw.log
	[ -f "$f" ] || fail "no $f"
	n=$(wc -l < "$f")
	[ "$n" -ge 3 ] && [ "$n" -le 7 ] || { cat "$f"; fail "$f: $n lines for 3 s at 500 ms"; }
	# fields, and a line never before its window of bwavgtime (500 ms) is over
	awk -F', ' -v d=$d 'NF != 5 || $3 != d || $4 != 0 || $5 != 0 || $1 - prev < 500 { bad = 1 }
		{ prev = $1 } END { exit bad }' "$f" || { cat "$f"; fail "$f: fields or times"; }
done
[ "$(awk -F', ' '$2 != 0' agg-trim_bw.log | wc -l)" = 0 ] || fail "trim bandwidth without trims"
# The windows' KiB add up to at most what both jobs did, and to most of it (the last partial
# window and the set-up before the first IO are not logged: at most about a second of 3).
for d in read write; do
	got=$(awk -F', ' '{ s += $2 * ($1 - prev) / 1000; prev = $1 } END { printf "%.0f", s }' agg-${d}_bw.log)
	did=$(( $(jget r.json jobs.0.$d.io_kbytes) + $(jget r.json jobs.1.$d.io_kbytes) ))
	awk -v g="$got" -v t="$did" 'BEGIN { exit !(g <= t * 1.03 + 8 && g >= t * 0.5) }' ||
		{ cat agg-${d}_bw.log; fail "$d: the lines add up to $got KiB of $did"; }
done

cd c || fail "cd c"
n=$(wc -l < agg-read_bw.log)
[ "$n" -ge 5 ] && [ "$n" -le 10 ] || { cat agg-read_bw.log; fail "bwavgtime=200: $n lines in 2 s"; }
awk -F', ' '$1 - prev < 200 { bad = 1 } { prev = $1 } END { exit bad }' agg-read_bw.log ||
	fail "bwavgtime=200: lines closer than 200 ms"
[ "$(awk -F', ' '$2 != 0' agg-write_bw.log | wc -l)" = 0 ] || fail "writes in a read job's log"
cd .. || fail "cd"

expect_status 1 "$IOWL" --bandwidth-log=x --name=a $base --number_ios=1
mkdir ro && chmod 555 ro && cd ro || fail "cd ro"
if [ "$(id -u)" != 0 ]; then
	expect_status 1 "$IOWL" --bandwidth-log --name=a $base --number_ios=1
	grep -q "agg-read_bw.log" "$SCRATCH/err" || fail "unwritable: $(cat "$SCRATCH/err")"
fi
cd .. || fail "cd"

# fio 3.33 writes the same files and fields (it samples only while its status line runs).
[ -n "$pf" ] || skip "fio not installed (scripts/test-deps.sh): the comparison with fio"
wait $pf || fail "fio run"
cd fio || fail "cd fio"
for f in agg-read_bw.log agg-write_bw.log agg-trim_bw.log; do
	[ -f "$f" ] || fail "fio wrote no $f"
	awk -F', ' 'NF != 5 || $4 != 0 || $5 != 0 { bad = 1 } END { exit bad }' "$f" ||
		fail "fio's $f has other fields: $(head -2 "$f")"
done
exit 0
