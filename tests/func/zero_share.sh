#!/bin/sh
# The share of reads that came back all zeros (jobs[].iowl.zero_reads) is an unbiased estimate
# whenever the share changes during a run: on a loop device with a known share of all-zero 8 KiB
# blocks, a full pass reports it within 1.5 pp (randread, whatever the seed) or 2 pp (a sequential
# pass over zeros in its first 1024 blocks (12.5 %), or in every 64th block (1.6 %), where counting
# the first 1024 reads and then every 64th with equal weight said 90 % and 11 %).
. "$(dirname "$0")/../lib.sh"
ZB=$(cd "$HELPERS" && pwd)/zeroblocks
cd "$SCRATCH" || fail "cd"
loop_device 64m
# share FILE: the share of zero reads the run reported
share() { jget "$1" jobs.0.iowl.zero_reads.share_pct || fail "no jobs[].iowl.zero_reads in $1"; }
near() { awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; exit !(d <= t && d >= -t) }'; }
run() { "$IOWL" --name=z --filename="$dev" --ioengine=libaio --iodepth=8 --direct=1 --bs=8k \
	--eta=never --output-format=json "$@" > z.json 2> err || { cat err; fail "run $*"; }; }
# 8192 blocks; zeros in every 64th, then in the first 1024 (8 MiB), read in order; each on a new
# device, since the helper writes only the data.
want=$("$ZB" "$dev" 8192 every:64) || fail "writing every 64th block"
run --rw=read
near "$(share z.json)" "$want" 2 || fail "every 64th block zero: $(share z.json) % reported, $want % true"
loop_device 64m
want=$("$ZB" "$dev" 8192 head:1024) || fail "writing the first 8 MiB"
run --rw=read
near "$(share z.json)" "$want" 2 || fail "the first 8 MiB zero: $(share z.json) % reported, $want % true"
# A known 48 % of zero blocks spread over the whole device, read in random order.
loop_device 64m
want=$("$ZB" "$dev" 8192 hash:48) || fail "writing the known blocks"
for seed in default 1 7; do
	case $seed in default) s= ;; *) s=--randseed=$seed ;; esac
	run --rw=randread $s
	got=$(share z.json)
	near "$got" "$want" 1.5 ||
		fail "seed $seed: $got % of the reads reported all zeros, the device holds $want %"
	grep -q "job 'z'.* $(basename "$dev")" z.json || fail "the zero_reads diagnostic names no job and device"
done
echo "zero share ok ($want % true, $got % reported)"
