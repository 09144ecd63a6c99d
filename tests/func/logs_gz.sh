#!/bin/sh
# Compressed logs as fio 3.33 stores them (log_store_compressed: NAME_KIND.N.log.fz, zlib streams
# of fio's binary samples, log_compression bytes each) and --inflate-log, both ways with fio.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
base="--eta=never --output-format=json --ioengine=null --size=64m --randseed=7"

# The same job twice, with text logs and with compressed ones: the same samples.  Per IO, the
# direction, size and offset come from the seed, and the iops log's value is 1.
job="--name=j --rw=randrw --bs=4k,8k --number_ios=3000 --log_offset=1"
"$IOWL" $base $job --write_iops_log=t --write_lat_log=t > t.json || fail "text run"
"$IOWL" $base $job --write_iops_log=z --write_lat_log=z --log_store_compressed=1 \
	--log_compression=4k > z.json || fail "compressed run"
[ -s z_iops.1.log.fz ] && [ -s z_clat.1.log.fz ] && [ ! -e z_iops.1.log ] ||
	{ ls; fail "compressed logs not NAME_KIND.N.log.fz"; }
"$IOWL" --inflate-log=z_iops.1.log.fz > z_iops.txt || fail "--inflate-log"
[ "$(wc -l < z_iops.txt)" = 3000 ] || fail "inflated: $(wc -l < z_iops.txt) lines"
cut -d, -f2- t_iops.1.log > a
cut -d, -f2- z_iops.txt > b
cmp -s a b || { diff a b | head; fail "the inflated iops log's samples differ from the text log's"; }
# 3000 samples of 40 bytes in streams of 4 KiB of samples (102 each): 30 zlib streams.
if command -v python3 >/dev/null 2>&1; then
	n=$(python3 -c 'import sys, zlib
d = open(sys.argv[1], "rb").read(); n = 0
while d:
    z = zlib.decompressobj(); z.decompress(d); d = z.unused_data; n += 1
print(n)' z_iops.1.log.fz) || fail "the .fz file is not zlib streams"
	[ "$n" = 30 ] || fail "$n zlib streams, expected 30 of log_compression=4k"
fi
# The clat log holds the latencies behind the reported mean.
"$IOWL" --inflate-log=z_clat.1.log.fz > z_clat.txt || fail "--inflate-log clat"
mean=$(awk -F', ' '$3 == 1 { s += $2; n++ } END { printf "%.3f", s / n }' z_clat.txt)
approx "$mean" "$(jget z.json jobs.0.write.clat_ns.mean)" 0.01 || fail "inflated clat mean $mean"
awk -F', ' 'NF != 6 || ($3 == 0 && $4 != 4096) || ($3 == 1 && $4 != 8192) || $6 != 0 { bad = 1 } END { exit bad }' \
	z_clat.txt || { head -3 z_clat.txt; fail "inflated clat fields"; }

# log_prio's hex priorities and averaged lines (bs and offset 0) survive the round trip.
"$IOWL" $base --name=a --rw=read --rate_iops=4000 --runtime=1 --time_based --write_bw_log=a \
	--log_avg_msec=200 --log_prio=1 --log_store_compressed=1 > /dev/null || fail "averaged run"
"$IOWL" --inflate-log=a_bw.1.log.fz > a.txt || fail "--inflate-log averaged"
[ "$(wc -l < a.txt)" -ge 3 ] || { cat a.txt; fail "averaged lines"; }
awk -F', ' 'NF != 5 || $3 != 0 || $4 != 0 || $5 != "0x0000" || $2 <= 0 { bad = 1 } END { exit bad }' \
	a.txt || { cat a.txt; fail "averaged fields"; }

# log_compression alone: the same text logs (iowl holds 64 KiB of a log in memory anyway).
"$IOWL" $base $job --write_iops_log=c --log_compression=4k > /dev/null || fail "log_compression alone"
cmp -s t_iops.1.log c_iops.1.log 2>/dev/null ||
	{ cut -d, -f2- c_iops.1.log | cmp -s a - || fail "log_compression changed the text log"; }

# Bad input.
printf 'not a log\n' > bad.fz
expect_status 1 "$IOWL" --inflate-log=bad.fz
grep -q "bad.fz: .*not a compressed fio log" "$SCRATCH/err" || fail "garbage: $(cat "$SCRATCH/err")"
head -c 1000 z_iops.1.log.fz > cut.fz
expect_status 1 "$IOWL" --inflate-log=cut.fz
grep -q "cut short" "$SCRATCH/err" || fail "truncated: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --inflate-log=missing.fz
expect_status 1 "$IOWL" $base --name=h --number_ios=10 --write_hist_log --log_hist_msec=10 \
	--log_store_compressed=1
grep -q "log_store_compressed.*pointers" "$SCRATCH/err" || fail "hist log: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" $base --name=s --number_ios=10 --write_bw_log --log_compression=512
expect_status 1 "$IOWL" $base --name=s --number_ios=10 --write_bw_log --log_compression_cpus=0

# fio reads iowl's compressed logs and iowl fio's, line for line.
command -v fio >/dev/null 2>&1 || skip "fio not installed (scripts/test-deps.sh): the round trips with fio"
fio --inflate-log=z_clat.1.log.fz > fio_z.txt 2> fio.err || fail "fio --inflate-log: $(cat fio.err)"
cmp -s fio_z.txt z_clat.txt || { diff fio_z.txt z_clat.txt | head; fail "fio inflates iowl's log differently"; }
fio --inflate-log=a_bw.1.log.fz > fio_a.txt 2> fio.err && cmp -s fio_a.txt a.txt ||
	fail "fio inflates iowl's averaged log differently"
truncate -s 16m data
# fio 3.33's compression thread can hang the run in a futex, deaf to SIGTERM (seen once under
# load: make test waited on it): bounded, and then fio's side is not judged.
timeout -k 5 60 fio --name=f --filename=data --rw=randread --bs=4k --number_ios=2000 --write_lat_log=f \
	--write_iops_log=f --log_offset=1 --log_prio=1 --log_store_compressed=1 --log_compression=8k \
	--output=/dev/null > fio.err 2>&1
st=$?
[ $st = 124 ] || [ $st = 137 ] && skip "fio 3.33's compressed-log run hung (its own bug, killed after 60 s): iowl reading fio's .fz not checked"
[ $st = 0 ] || fail "fio run: $(cat fio.err)"
for k in clat iops; do
	fio --inflate-log=f_$k.1.log.fz > fio_f.txt 2> fio.err || fail "fio --inflate-log f_$k"
	"$IOWL" --inflate-log=f_$k.1.log.fz > iowl_f.txt || fail "iowl --inflate-log of fio's f_$k"
	[ "$(wc -l < iowl_f.txt)" = 2000 ] || fail "fio's $k log: $(wc -l < iowl_f.txt) lines"
	cmp -s fio_f.txt iowl_f.txt || { diff fio_f.txt iowl_f.txt | head; fail "iowl inflates fio's $k log differently"; }
done
exit 0
