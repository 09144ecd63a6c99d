#!/bin/sh
# SPDX-License-Identifier: MIT
# io_uring's and libaio's fio options judged by what the kernel saw (issue 13): the priority of
# every request a loop device issued (cmdprio_percentage, cmdprio_class, cmdprio,
# cmdprio_bssplit: tracepoint block_rq_issue), the opcode and flags of every io_uring request
# (nonvectored, force_async: io_uring_submit_req), the logs' priority column (log_prio), and
# the ring's setup in the JSON.  The tracing runs in a private tracefs instance, filtered on a
# command name only this test uses.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
loop_device 16m
tr=/sys/kernel/tracing
[ -w $tr/instances ] || skip "no writable tracefs at $tr (mount -t tracefs none $tr)"
inst=$tr/instances/iowl-uring.$$
mkdir "$inst" || skip "cannot create a tracefs instance"
on_exit "rmdir $inst"
comm=iowlu$$
ln -s "$IOWL" "$SCRATCH/$comm"
# The loop device's dev_t as the tracepoints hold it (major << 20 | minor).
mm=$(stat -Lc '%t %T' "$dev")
devt=$(( (0x${mm% *} << 20) | 0x${mm#* } ))
echo "dev == $devt" > $inst/events/block/block_rq_issue/filter
echo "comm == \"$comm\"" > $inst/events/io_uring/io_uring_submit_req/filter || skip "no io_uring tracepoint"

# traced ARGS...: runs iowl (as $comm) with ARGS on the loop device; the requests it issued are in
# rq (the loop device's) and sq (io_uring's).
traced() {
	echo > $inst/trace
	echo 1 > $inst/events/block/block_rq_issue/enable
	echo 1 > $inst/events/io_uring/io_uring_submit_req/enable
	"$SCRATCH/$comm" --name=p --filename="$dev" --direct=1 --size=4m --output-format=json \
		--output=out.json "$@" 2> err || { cat err; fail "iowl $*"; }
	echo 0 > $inst/events/block/block_rq_issue/enable
	echo 0 > $inst/events/io_uring/io_uring_submit_req/enable
	grep 'block_rq_issue' $inst/trace > rq
	grep 'io_uring_submit_req' $inst/trace > sq
}
# count PATTERN FILE
count() { grep -c -- "$1" ${2:+"$2"}; }

# Every IO with the priority: best effort level 5 on every request, for both engines.
for e in io_uring libaio; do
	traced --ioengine=$e --iodepth=4 --rw=randread --cmdprio_percentage=100 --cmdprio_class=2 --cmdprio=5
	n=$(wc -l < rq)
	[ "$n" -ge 1000 ] || fail "$e: $n requests traced, expected 1024"
	[ "$(count ' be,0,5 ' rq)" = "$n" ] || fail "$e: $(count ' be,0,5 ' rq) of $n requests have be/5: $(head -2 rq)"
done
# Per direction: reads 100% idle, writes none (cmdprio_percentage=100,0).
traced --ioengine=libaio --iodepth=4 --rw=randrw --cmdprio_percentage=100,0 --cmdprio_class=3
r=$(grep -c ' R 4096 ' rq); w=$(grep -c ' WS\? 4096 ' rq)
[ "$r" -gt 300 ] && [ "$w" -gt 300 ] || fail "randrw: $r reads, $w writes traced"
[ "$(grep ' R 4096 ' rq | count ' idle,0,0 ')" = "$r" ] || fail "reads without the idle class: $(grep " R 4096 " rq | head -3)"
# (an IO without its own priority has the thread's: none, or best effort 4 from its nice value)
[ "$(grep ' WS\? 4096 ' rq | count ' idle,')" = 0 ] || fail "writes got the idle class"

# A share: 25% real time, and the log's priority column says which (iodepth 1: no merging).
traced --ioengine=io_uring --rw=randread --cmdprio_percentage=25 --write_lat_log=pl
rt=$(count ' rt,0,0 ' rq)
[ "$rt" -gt 180 ] && [ "$rt" -lt 340 ] || fail "25%: $rt of 1024 requests real time"
logged=$(awk -F', ' '$5 == 1' pl_clat.1.log | wc -l)
[ "$logged" = "$rt" ] || fail "the clat log marks $logged IOs high priority, the device saw $rt"
# log_prio: the raw ioprio value in hex, 0x2000 for real time level 0.
traced --ioengine=io_uring --rw=randread --cmdprio_percentage=25 --write_lat_log=pp --log_prio=1
[ "$(awk -F', ' '$5 == "0x2000"' pp_clat.1.log | wc -l)" = "$(count ' rt,0,0 ' rq)" ] ||
	fail "log_prio=1: the log's 0x2000 entries are not the device's real-time requests"
[ "$(awk -F', ' '$5 != "0x2000" && $5 != "0x0000"' pp_clat.1.log | wc -l)" = 0 ] ||
	fail "log_prio=1: other values in the log: $(head -3 pp_clat.1.log)"

# cmdprio_bssplit with its own class and level per size: 4k best effort 3, 8k none.
traced --ioengine=io_uring --iodepth=2 --rw=randread --bssplit=4k/50:8k/50 \
	--cmdprio_bssplit=4k/100/2/3:8k/0
n4=$(count ' R 4096 ' rq); n8=$(count ' R 8192 ' rq)
[ "$n4" -gt 100 ] && [ "$n8" -gt 100 ] || fail "bssplit: $n4 4k and $n8 8k requests"
[ "$(grep ' R 4096 ' rq | count ' be,0,3 ')" = "$n4" ] || fail "bssplit: 4k requests without be/3"
[ "$(grep ' R 8192 ' rq | count ' be,0,3 ')" = 0 ] || fail "bssplit: 8k requests with be/3"

# nonvectored=0 is READV; the default READ; force_async=4 sets IOSQE_ASYNC (0x10) on every 4th.
traced --ioengine=io_uring --rw=randread --size=1m --nonvectored=0
[ "$(count 'opcode READV' sq)" = 256 ] || fail "nonvectored=0: $(count 'opcode READV' sq) READV of 256: $(head -1 sq)"
[ "$(jget out.json jobs.0.iowl.io_uring.rw_opcodes)" = READV/WRITEV ] || fail "JSON: not READV/WRITEV"
traced --ioengine=io_uring --rw=randread --size=1m --force_async=4
[ "$(count 'opcode READ,' sq)" = 256 ] || fail "default: $(count 'opcode READ,' sq) READ of 256: $(head -1 sq)"
async=0
for f in $(awk '{ for (i = 1; i < NF; i++) if ($i == "flags") { sub(",", "", $(i + 1)); print $(i + 1) } }' sq); do
	[ $((f & 16)) = 0 ] || async=$((async + 1))
done
[ "$async" = 64 ] || fail "force_async=4: $async of 256 requests with IOSQE_ASYNC"

# The ring's setup is the cheapest the kernel offers, and the JSON says what it was.
# (IORING_SETUP_DEFER_TASKRUN 1 << 13 with SINGLE_ISSUER 1 << 12, or COOP_TASKRUN 1 << 8)
flags=$(jget out.json jobs.0.iowl.io_uring.setup_flags)
[ $((flags & 12288)) = 12288 ] || [ $((flags & 256)) = 256 ] ||
	fail "setup flags $flags without DEFER_TASKRUN or COOP_TASKRUN"
[ "$(jget out.json jobs.0.iowl.io_uring.setup.0)" = CLAMP ] || fail "no setup flag names in the JSON"
[ "$(jget out.json jobs.0.iowl.io_uring.registered_ring_fd)" = true ] || fail "the ring fd is not registered"

# Refused by name with the reason, and the mutually exclusive pair.
for o in readfua=1:sg writefua=1:sg cmd_type=nvme:io_uring_cmd libaio_vectored=1:3.33; do
	"$IOWL" --name=x --filename="$dev" --ioengine=io_uring --${o%:*} --parse-only 2> e1 &&
		fail "${o%:*} accepted"
	grep -q "'${o%%=*}' .*${o#*:}" e1 || fail "${o%:*}: no reason: $(cat e1)"
done
"$IOWL" --name=x --filename="$dev" --ioengine=io_uring --cmdprio_percentage=10 \
	--cmdprio_bssplit=4k/10 --parse-only 2> e2 && fail "cmdprio_percentage with cmdprio_bssplit accepted"
grep -q "command line:.*use one of them" e2 || fail "no FILE:LINE reason: $(cat e2)"
# atomic=1 is fio 3.33's O_DIRECT on Linux.
"$SCRATCH/$comm" --name=a --filename="$SCRATCH/a.dat" --size=1m --rw=write --atomic=1 \
	--output-format=json --output=a.json 2> err || { cat err; fail "atomic=1"; }
[ "$(jget a.json 'jobs.0.job options.atomic')" = 1 ] || fail "atomic=1 not in the job options"
echo "cmdprio on every request as asked (both engines, per direction, per size), log_prio, READV, force_async 64/256, setup $flags"
