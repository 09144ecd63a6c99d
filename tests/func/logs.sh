#!/bin/sh
# fio's logs (write_bw_log, write_iops_log, write_lat_log, write_hist_log) in fio 3.33's formats,
# per IO and averaged (log_avg_msec), and adding up to the results.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
base="--eta=never --output-format=json --ioengine=null --size=64m"

# One line per IO: "time, value, ddir, bs, prio" (log_offset adds the offset before prio).
"$IOWL" $base --name=p --rw=randrw --bs=4k --number_ios=3000 --write_bw_log --write_iops_log \
	--write_lat_log=lat --log_offset=1 > p.json || fail "per-IO run"
for f in p_bw.1.log p_iops.1.log lat_clat.1.log lat_lat.1.log; do
	[ "$(wc -l < $f)" = 3000 ] || fail "$f: $(wc -l < $f) lines"
	awk -F', ' 'NF != 6 || $3 > 1 || $4 != 4096 || $5 % 4096 || $5 >= 67108864 || $6 != 0 { bad = 1 } END { exit bad }' $f ||
		{ head -3 $f; fail "$f: fields"; }
done
awk -F', ' '$2 != 1 { bad = 1 } END { exit bad }' p_iops.1.log || fail "iops log values"
reads=$(jget p.json jobs.0.read.total_ios)
[ "$(awk -F', ' '$3 == 0' lat_clat.1.log | wc -l)" = "$reads" ] || fail "read lines != $reads reads"
# The clat log holds the very latencies behind the reported mean.
mean=$(awk -F', ' '$3 == 0 { s += $2; n++ } END { printf "%.3f", s / n }' lat_clat.1.log)
approx "$mean" "$(jget p.json jobs.0.read.clat_ns.mean)" 0.01 || fail "clat log mean $mean"
# bw per IO is fio's bytes x 10^6 / latency in ns.
awk -F', ' 'NR == FNR { lat[FNR] = $2; next } lat[FNR] && $2 != int($4 * 1000000 / lat[FNR]) { bad = 1 } END { exit bad }' \
	lat_lat.1.log p_bw.1.log || fail "bw log value"

# Averaged over 500 ms windows: rates, with bs and offset written as 0.  What a window shows is
# checked against what was done, not against the rate asked for (a busy machine may not keep it):
# the windows' IOPS times their lengths add up to the IOs done, the bandwidth is IOPS x 4 KiB, and
# a window never closes early.
"$IOWL" $base --name=a --rw=randread --bs=4k --rate_iops=2000 --runtime=1200ms --time_based \
	--write_iops_log --write_bw_log --write_lat_log --log_avg_msec=500 > a.json || fail "averaged run"
n=$(wc -l < a_iops.1.log)
[ "$n" -ge 2 ] && [ "$n" -le 5 ] || fail "averaged lines: $n"
awk -F', ' '$4 != 0 || $3 != 0 || $2 <= 0 { bad = 1 } END { exit bad }' a_iops.1.log ||
	{ cat a_iops.1.log; fail "averaged iops fields"; }
# (the last line is the partial window the job's end closes)
awk -F', ' -v n="$n" '(NR < n && $1 < 495 * NR) || $1 <= prev { bad = 1 } { prev = $1 } END { exit bad }' a_iops.1.log ||
	{ cat a_iops.1.log; fail "window times"; }
done_ios=$(awk -F', ' '{ s += $2 * ($1 - prev) / 1000; prev = $1 } END { printf "%.0f", s }' a_iops.1.log)
total=$(jget a.json jobs.0.read.total_ios)
# (all of them when the last window closes at the end of the 1.2 s; at most all of them otherwise)
last=$(tail -n 1 a_iops.1.log | cut -d, -f1)
awk -v a="$done_ios" -v t="$total" -v l="$last" 'BEGIN { exit !(a <= t * 1.02 + 2 && (l < 1200 || a >= t * 0.98 - 2)) }' ||
	{ cat a_iops.1.log; fail "averaged iops: the windows add up to $done_ios IOs of $total"; }
awk -F', ' 'NR == FNR { iops[FNR] = $2; next } ($2 - 4 * iops[FNR])^2 > 16 { bad = 1 } END { exit bad }' \
	a_iops.1.log a_bw.1.log || { paste a_iops.1.log a_bw.1.log; fail "averaged bw (KiB/s) is not IOPS x 4"; }

# Histogram log: 1856 bins (>> coarseness) per line, the interval's counts adding up to the IOs
# (throttled: the sums hold at any rate, unthrottled the null job spun a CPU for the 1.2 s).
"$IOWL" $base --name=h --rw=randrw --runtime=1200ms --time_based --rate_iops=2000 --write_hist_log \
	--log_hist_msec=400 > h.json || fail "hist run"
awk -F', ' 'NF != 3 + 1856 { bad = 1 } END { exit bad || NR < 4 }' h_clat_hist.1.log || fail "hist fields"
for d in 0 1; do
	key=read; [ $d = 1 ] && key=write
	got=$(awk -F', ' -v d=$d '$2 == d { for (i = 4; i <= NF; i++) s += $i } END { printf "%.0f", s }' h_clat_hist.1.log)
	[ "$got" = "$(jget h.json jobs.0.$key.total_ios)" ] || fail "hist $key bins sum to $got"
done
"$IOWL" $base --name=c --rw=randread --number_ios=1000 --write_hist_log=c --log_hist_msec=100 \
	--log_hist_coarseness=2 > /dev/null || fail "coarse run"
awk -F', ' 'NF != 3 + 464 { bad = 1 } END { exit bad }' c_clat_hist.1.log || fail "coarseness 2"

# Clones: one log each, numbered from 1 in the run; per_job_logs=0 shares one file.
"$IOWL" $base --name=m --rw=randread --number_ios=500 --numjobs=2 --write_iops_log > /dev/null ||
	fail "clones"
[ "$(wc -l < m_iops.1.log)" = 500 ] && [ "$(wc -l < m_iops.2.log)" = 500 ] || fail "per clone logs"
"$IOWL" $base --name=s --rw=randread --number_ios=500 --numjobs=2 --write_iops_log \
	--per_job_logs=0 > /dev/null || fail "shared"
[ "$(wc -l < s_iops.log)" = 1000 ] || fail "shared log: $(wc -l < s_iops.log)"

expect_status 1 "$IOWL" --name=x --ioengine=null --size=1m --write_hist_log=x
grep -q "log_hist_msec" "$SCRATCH/err" || fail "hist without log_hist_msec"
# log_avg_msec without a log: run, with a warning (fio ignores it).
expect_status 0 "$IOWL" --name=x --ioengine=null --size=1m --log_avg_msec=100
grep -q "warning: log_avg_msec=100: .*ignored" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "log_avg_msec alone: no warning"; }
# A log that cannot be created is found before any IO, by --parse-only too.
expect_status 1 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --write_bw_log=/nonexistent/dir/x
expect_status 1 "$IOWL" --name=x --ioengine=null --size=1m --write_bw_log=/nonexistent/dir/x
grep -q "write_bw_log=/nonexistent/dir/x: cannot create '/nonexistent/dir/x_bw.1.log': the directory '/nonexistent/dir' does not exist" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "unwritable log message"; }
echo "logs ok"
