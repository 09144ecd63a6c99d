#!/bin/sh
# SPDX-License-Identifier: MIT
# --profile=act, fio 3.33's ACT profile, beside fio on loop devices: per device one job of
# threads-per-queue randread threads of read-req-num-512-blocks*512 bytes at load*2000/threads
# IOPS each and one randwrite job of large-block-op-kbytes bytes at ceil(load*1000 /
# (write/read size)) IOPS, direct, sync, time_based for test-duration, one group; prep: a zero
# fill of each device in 1 MiB writes, then (stonewall) a salting in random 4 KiB writes at depth
# 64.  Its table counts every read and write per hour by the highest of 1, 8 and 64 ms its total
# latency exceeds: checked IO for IO against the jobs' lat logs, and against fio's table under a
# fault shim that slows every 5th IO by 2 ms (FAILED for both).  The rates are checked as
# ceilings (a loaded machine only lowers them).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"
fault_shim
loop_device 256m
d1=$dev n1=$name
loop_device 256m
d2=$dev n2=$name
cd "$SCRATCH" || fail "cd $SCRATCH"
# sectors read and written by device N: "reads writes"
sectors() { awk '{ print $3, $7 }' "/sys/block/$1/stat"; }
# counts LOG...: the IOs in the lat logs and those over 1, 8, 64 ms by the highest (fio's act)
counts() {
	python3 -c '
import sys
c = [0, 0, 0, 0]
for f in sys.argv[1:]:
    for l in open(f):
        us = int(l.split(",")[1]) // 1000
        c[0] += 1
        if us > 64000: c[3] += 1
        elif us > 8000: c[2] += 1
        elif us > 1000: c[1] += 1
print(*c)' "$@"
}

# two devices, two read threads each, 1 s: the jobs, their sizes, their rates, the table
s1=$(sectors "$n1") s2=$(sectors "$n2")
expect_status 0 "$IOWL" --profile=act --device-names="$d1,$d2" --test-duration=1 \
	--threads-per-queue=2 --output-format=json --eta=never --write_lat_log=L --log_avg_msec=0
mv "$SCRATCH/out" i.json
e1=$(sectors "$n1") e2=$(sectors "$n2")
[ "$(jget i.json jobs)" = 1 ] || fail "group_reporting: $(jget i.json jobs) units"
[ "$(jget i.json jobs.0.jobname)" = "act-read-$d1" ] || fail "unit $(jget i.json jobs.0.jobname)"
r=$(jget i.json jobs.0.read.total_ios) w=$(jget i.json jobs.0.write.total_ios)
[ "$(jget i.json jobs.0.read.io_bytes)" = $((r * 1536)) ] || fail "reads are not 1536 bytes"
[ "$(jget i.json jobs.0.write.io_bytes)" = $((w * 131072)) ] || fail "writes are not 128 KiB"
# 1000 IOPS a read thread, 12 a write job (ceil(1000 / (131072 / 1536))), for 1 s
[ "$r" -gt 0 ] && [ "$r" -le $((4 * 1002)) ] || fail "$r reads: over 4 threads at 1000 IOPS for 1 s"
[ "$w" -gt 0 ] && [ "$w" -le $((2 * 14)) ] || fail "$w writes: over 2 jobs at 12 IOPS for 1 s"
# each device got reads of 3 sectors and writes of 256, together the job's (less the write
# guard's own reads before the run, which iowl.own_io counts)
own=0
for i in 0 1; do
	own=$((own + $(jget i.json iowl.own_io.$i.read_bytes 2>/dev/null || echo 0) / 512))
done
set -- $s1 $e1 $s2 $e2
dr=$(($3 - $1 + $7 - $5 - own)) dw=$(($4 - $2 + $8 - $6))
[ "$dr" = $((r * 3)) ] && [ "$dw" = $((w * 256)) ] ||
	fail "devices: $dr sectors read, $dw written; the jobs: $r reads, $w writes"
[ $(($4 - $2)) -gt 0 ] && [ $(($8 - $6)) -gt 0 ] || fail "a device was not written"
# the table: one slice, every IO, counted as the lat logs have them
[ "$(jget i.json iowl.act.slices)" = 1 ] || fail "slices: $(jget i.json iowl.act.slices)"
set -- $(counts L_lat.*.log)
[ "$1" = $((r + w)) ] || fail "lat logs: $1 IOs, the job $((r + w))"
got="$(jget i.json iowl.act.slices.0.ios) $(jget i.json iowl.act.slices.0.over_1ms) $(jget i.json iowl.act.slices.0.over_8ms) $(jget i.json iowl.act.slices.0.over_64ms)"
[ "$got" = "$*" ] || fail "the table counted '$got', the lat logs '$*'"
case $(jget i.json iowl.act.verdict) in PASSED | FAILED) ;; *) fail "no verdict" ;; esac

# fio: the same unit, sizes and ceilings (fio's answers are kept once given, tests/lib.sh's
# fio_kept; the devices' names, which vary, left out of the questions)
if have_fio && ! fio_kept two devices "unit act-read-DEV1, sizes, ceilings"; then
	fio --profile=act --device-names="$d1,$d2" --test-duration=1 --threads-per-queue=2 \
		--output-format=json --output=f.out > /dev/null 2>&1 || fail "fio --profile=act"
	sed -n '/^{/,$p' f.out > f.json
	[ "$(jget f.json jobs)" = 1 ] && [ "$(jget f.json jobs.0.jobname)" = "act-read-$d1" ] ||
		fail "fio's unit: $(jget f.json jobs.0.jobname)"
	fr=$(jget f.json jobs.0.read.total_ios) fw=$(jget f.json jobs.0.write.total_ios)
	[ "$(jget f.json jobs.0.read.io_bytes)" = $((fr * 1536)) ] &&
		[ "$(jget f.json jobs.0.write.io_bytes)" = $((fw * 131072)) ] || fail "fio's sizes"
	[ "$fr" -le $((4 * 1002)) ] && [ "$fw" -le $((2 * 14)) ] || fail "fio: $fr reads, $fw writes"
	echo "2 devices, 1 s: iowl $r reads, $w writes; fio $fr reads, $fw writes"
	fio_keep two devices "unit act-read-DEV1, sizes, ceilings"
fi

# a slow device: every 5th IO 2 ms longer, 20 % over 1 ms: FAILED; the text table as fio's
slow() { LD_PRELOAD="$shim" IOWL_FAULT_MATCH="$d1" IOWL_FAULT_SLOW_EVERY=5:2000 "$@"; }
rm -f L_*
slow "$IOWL" --profile=act --device-names="$d1" --test-duration=1 --threads-per-queue=1 \
	--eta=never --write_lat_log=L --log_avg_msec=0 > t.out 2> t.err || { cat t.err; fail "slow run"; }
sed -n '1,/^act: test complete/p' t.out > t.table
[ "$(wc -l < t.table)" = 7 ] || { cat t.out; fail "the table is not 7 lines"; }
tail -n 1 t.table | grep -qx "act: test complete, device(s): FAILED" || fail "slow device: $(tail -n 1 t.table)"
set -- $(counts L_lat.*.log)
want=$(awk -v n="$1" -v a="$2" -v b="$3" -v c="$4" 'BEGIN { printf "    1\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f", 100*a/n, 100*b/n, 100*c/n, 100*a/n, 100*b/n, 100*c/n }')
[ "$(sed -n 5p t.table)" = "$want" ] || fail "row '$(sed -n 5p t.table)', the lat logs '$want'"
grep -q "^act-read-$d1: (groupid=0, jobs=2)" t.out || fail "no report after the table"
if have_fio && ! fio_kept slow device "$(head -n 4 t.table)"; then
	slow fio --profile=act --device-names="$d1" --test-duration=1 --threads-per-queue=1 > f.out 2>&1
	sed -n '/^        trans/,/^act: test complete/p' f.out > f.table
	[ "$(head -n 4 f.table)" = "$(head -n 4 t.table)" ] || fail "headers differ from fio's:
$(head -n 4 f.table)"
	[ "$(wc -l < f.table)" = 7 ] || fail "fio's table: $(cat f.table)"
	tail -n 1 f.table | grep -qx "act: test complete, device(s): FAILED" || fail "fio: $(tail -n 1 f.table)"
	sed -n 5p f.table | grep -q "^    1	[0-9.]*	[0-9.]*	[0-9.]*	[0-9.]*	[0-9.]*	[0-9.]*$" ||
		fail "fio's row: $(sed -n 5p f.table)"
	echo "slow device: iowl '$(sed -n 5p t.table)', fio '$(sed -n 5p f.table)'"
	fio_keep slow device "$(head -n 4 t.table)"
fi

# prep: zeroes then salt, each the whole device once, as fio's
loop_device 64m
expect_status 0 "$IOWL" --profile=act --device-names="$dev" --prep --output-format=json --eta=never
sum() {
	python3 -c '
import json, sys
t = open(sys.argv[1]).read()
for j in json.loads(t[t.index("{"):])["jobs"]:
    print(j["jobname"], j["groupid"], j["read"]["total_ios"], j["write"]["total_ios"], j["write"]["io_bytes"], j["error"])
print("act" in json.loads(t[t.index("{"):]).get("iowl", {}))' "$1"
}
got=$(sum "$SCRATCH/out")
want="act-prep-zeroes-$dev 0 0 64 67108864 0
act-prep-salt-$dev 1 0 16384 67108864 0
False"
[ "$got" = "$want" ] || fail "prep:
$got
expected:
$want"
if have_fio && ! fio_kept prep "$(echo "$got" | sed -n 1,2p | sed "s|$dev|DEV|g")"; then
	fio --profile=act --device-names="$dev" --prep --test-duration=1 --output-format=json \
		--output=f.out > /dev/null 2>&1 || fail "fio --prep"
	[ "$(sum f.out | sed -n 1,2p)" = "$(echo "$got" | sed -n 1,2p)" ] || fail "fio's prep: $(sum f.out)"
	fio_keep prep "$(echo "$got" | sed -n 1,2p | sed "s|$dev|DEV|g")"
fi

# its options, and what is wrong with them
expect_status 0 "$IOWL" --profile=act --cmdhelp
[ "$(cut -d' ' -f1 "$SCRATCH/out" | tr '\n' ' ')" = "device-names load test-duration threads-per-queue read-req-num-512-blocks large-block-op-kbytes prep " ] ||
	fail "--cmdhelp: $(cat "$SCRATCH/out")"
expect_status 1 "$IOWL" --profile=act
grep -q "needs its devices: --device-names=" "$SCRATCH/err" || fail "no devices: $(cat "$SCRATCH/err")"
for bad in --threads-per-queue=2001 --large-block-op-kbytes=1k --test-duration=1.5 \
	--test-duration=0 --load=x --device-names=a,,b --read-req-num-512-blocks=0 --prep=maybe; do
	expect_status 1 "$IOWL" --profile=act --device-names="$d1" "$bad"
	grep -q -- "${bad%%=*}" "$SCRATCH/err" || fail "$bad: $(cat "$SCRATCH/err")"
done
exit 0
