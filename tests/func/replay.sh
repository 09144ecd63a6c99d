#!/bin/sh
# SPDX-License-Identifier: MIT
# read_iolog (issue 13): fio writes an iolog (version 3) of a job on a loop device; fio and iowl
# replay it; the device counts the same requests and sectors for both (/sys/block/NAME/stat,
# iowl's own signature probe taken off), and iowl's write_iolog of its replay has the IOs of the
# log, in order.  The same for a version 2 log, replay_redirect, replay_scale with replay_align,
# replay_skip, and a blktrace binary trace crafted here as blktrace_api.h lays out struct
# blk_io_trace.  The log's delays are kept (a lower bound on the run's time), scaled by
# replay_time_scale, and dropped with replay_no_stall.
. "$(dirname "$0")/../lib.sh"
V3=$(cd "$(dirname "$0")/../data" && pwd)/replay-v3.log
cd "$SCRATCH" || fail "cd"
have_fio || skip "fio 3 is not installed (sh scripts/test-deps.sh)"
command -v python3 > /dev/null || skip "python3 is needed to write the blktrace file"
loop_device 16m

# stat: reads, sectors read, writes, sectors written, flushes of the loop device
dstat() { awk '{ print $1, $3, $5, $7, $15 }' "/sys/block/$name/stat"; }
# delta BEFORE AFTER [OWN_READS OWN_SECTORS]
delta() {
	set -- $1 $2 $3 $4 $5 $6 $7 $8 $9 ${10} "${11:-0}" "${12:-0}"
	echo "$(($6 - $1 - ${11})) $(($7 - $2 - ${12})) $(($8 - $3)) $(($9 - $4)) $((${10} - $5))"
}
# ios LOG: a log's IOs as "action offset length" (syncs without their offset, which fio writes
# and iowl does not), whatever its version
ios() {
	awk 'NR > 1 { if ($1 ~ /^[0-9]+$/ && NF == 5) { a = $3; o = $4; l = $5 } else if (NF == 4) { a = $2; o = $3; l = $4 } else next
		if (a == "sync" || a == "datasync") o = 0; print a, o, l }' "$1"
}
# replay_both NAME OPTIONS...: iowl and fio replay with OPTIONS; the device deltas must agree.
# fio's answer is kept once given (tests/lib.sh's fio_kept): the question holds the options, the
# MD5 of the log replayed (the device's name left out) and iowl's deltas.
replay_both() {
	what=$1
	shift
	s1=$(dstat)
	"$IOWL" --name=r --ioengine=psync "$@" --write_iolog=mine.log --output-format=json \
		--output=i.json 2> i.err || { cat i.err; fail "$what: iowl replay"; }
	s2=$(dstat)
	own_r=$(jget i.json iowl.own_io.0.reads 2> /dev/null || echo 0)
	own_s=$(( $(jget i.json iowl.own_io.0.read_bytes 2> /dev/null || echo 0) / 512 ))
	id=$(delta "$s1" "$s2" "$own_r" "$own_s")
	for a in "$@"; do case $a in --read_iolog=*) log=${a#--read_iolog=} ;; esac; done
	# (the binary trace holds the device's number: it is made by this test for the device)
	case $log in *.bin) lsum="made here for DEV" ;; *) lsum=$(sed "s|$dev|DEV|g" "$log" | md5sum) ;; esac
	q="$(printf '%s ' "$@" | sed "s|$dev|DEV|g") log $lsum iowl $id"
	fio_kept replay "$q" && return 0
	s0=$(dstat)
	fio --name=r --ioengine=psync "$@" --output-format=json --output=f.json > /dev/null 2> f.err ||
		{ cat f.err; fail "$what: fio's replay"; }
	s1=$(dstat)
	fd=$(delta "$s0" "$s1")
	[ "$fd" = "$id" ] || fail "$what: the device counted '$id' (reads, sectors, writes, sectors, flushes) for iowl, '$fd' for fio"
	echo "$what: device deltas $id for both"
	fio_keep replay "$q"
}

# 1. fio's version 3 log of a mixed job with fsyncs, replayed as fast as possible.  The log fio
# 3.33 wrote is kept in tests/data/replay-v3.log (the device as @DEV@) with fio's answer (tests/
# lib.sh's fio_kept); another fio writes it again (and make fio-ref keeps that).
if [ -f "$V3" ] && fio_kept v3.log "$(md5sum < "$V3")"; then
	sed "s|@DEV@|$dev|g" "$V3" > v3.log
else
	fio --name=w --filename="$dev" --direct=1 --size=4m --bs=4k --bsrange=4k-16k --rw=randrw \
		--fsync=7 --ioengine=psync --write_iolog=v3.log > /dev/null 2> w.err || { cat w.err; fail "fio write_iolog"; }
	head -1 v3.log | grep -q "fio version 3 iolog" || fail "fio 3.33 wrote no version 3 log: $(head -1 v3.log)"
	if [ -n "$IOWL_FIO_KEEP" ]; then
		sed "s|$dev|@DEV@|g" v3.log > "$V3"
		fio_keep v3.log "$(md5sum < "$V3")"
	fi
fi
replay_both "v3 log" --read_iolog=v3.log --direct=1 --replay_no_stall=1
ios v3.log > want
ios mine.log > got
cmp -s want got || { diff want got | head; fail "iowl's write_iolog of the replay is not the log's IOs"; }
[ "$(jget i.json jobs.0.read.total_ios)" = "$(grep -c '^read' want)" ] || fail "JSON reads are not the log's"

# 2. The same IOs as a version 2 log, with a 'wait'; replay_skip=write leaves the writes out.
{
	echo "fio version 2 iolog"
	echo "$dev add"
	echo "$dev open"
	awk 'NR > 1 && NF == 5 { print $2, $3, $4, $5 }' v3.log
	echo "$dev close"
} > v2.log
replay_both "v2 log" --read_iolog=v2.log --direct=1 --replay_no_stall=1
ios v2.log > want
ios mine.log > got
cmp -s want got || fail "v2: iowl's write_iolog is not the log's IOs"
"$IOWL" --name=r --read_iolog=v2.log --direct=1 --replay_skip=write,sync --write_iolog=skip.log \
	> /dev/null 2>&1 || fail "replay_skip"
[ "$(ios skip.log | grep -vc '^read')" = 0 ] && [ "$(ios skip.log | grep -c '^read')" = "$(grep -c ' read ' v2.log)" ] ||
	fail "replay_skip=write,sync: $(ios skip.log | cut -d' ' -f1 | sort | uniq -c | tr '\n' ' ')"

# 3. replay_redirect: a log of a file that is not here, onto the device; replay_scale and
# replay_align: offsets divided, then rounded down.
sed "s#$dev#/nonexistent/disk#" v3.log > other.log
replay_both "replay_redirect" --read_iolog=other.log --replay_redirect="$dev" --direct=1 --replay_no_stall=1
replay_both "replay_scale=3 replay_align=8192" --read_iolog=v3.log --replay_scale=3 --replay_align=8192 \
	--direct=1 --replay_no_stall=1
want=$(ios v3.log | awk '$1 != "sync" { o = int($2 / 3); o -= o % 8192; print $1, o, $3 }' | md5sum)
[ "$(ios mine.log | grep -v '^sync' | md5sum)" = "$want" ] || fail "replay_scale/replay_align: offsets not scaled and aligned as fio's"

# 4. A blktrace binary trace (blkparse -d): queue events make IOs (reads, writes of 4 and 8 KiB,
# a flush), completions and notes do not.
mm=$(stat -Lc "%t %T" "$dev")
python3 - "$((0x${mm% *}))" "$((0x${mm#* }))" <<'EOF'
import struct, sys
dev = (int(sys.argv[1]) << 20) | int(sys.argv[2])
def ev(seq, t, sector, nbytes, action, pdu=b''):
    # struct blk_io_trace: magic, sequence, time, sector, bytes, action, pid, device, cpu, error, pdu_len
    return struct.pack('=IIQQIIIIIHH', 0x65617407, seq, t, sector, nbytes, action, 4242, dev, 0, 0, len(pdu)) + pdu
tc = lambda c: c << 16
out, t = b'', 1000000
for i in range(60):
    cat = tc(2) if i % 3 == 1 else tc(1)
    sector, nbytes = (i * 37 % 3000) * 8, 4096 * (1 + i % 2)
    out += ev(2 * i, t, sector, nbytes, 1 | cat | tc(1 << 4))              # queue
    out += ev(2 * i + 1, t + 5000000, sector, nbytes, 8 | cat | tc(1 << 7))   # complete, 5 ms later
    t += 20000000
out += ev(200, t, 0, 0, 1 | tc(2) | tc(4))                                # a flush
out += ev(201, t, 0, 0, tc(1 << 10), pdu=b'fio\0')                         # a note
open('trace.bin', 'wb').write(out)
EOF
replay_both "blktrace" --read_iolog=trace.bin --direct=1 --replay_no_stall=1
[ "$(jget i.json jobs.0.read.total_ios)/$(jget i.json jobs.0.write.total_ios)/$(jget i.json jobs.0.sync.total_ios)" = 40/20/1 ] ||
	fail "blktrace: $(jget i.json jobs.0.read.total_ios) reads, $(jget i.json jobs.0.write.total_ios) writes, $(jget i.json jobs.0.sync.total_ios) syncs, expected 40/20/1"
[ "$(ios mine.log | sed -n 2p)" = "write 151552 8192" ] || fail "blktrace: second IO $(ios mine.log | sed -n 2p), expected a write at sector 296 (x 512)"

# 5. Delays: each queue event waits for the time since the event before it (fio's rule), here
# the completion 15 ms before, so 60 IOs take at least 59 x 15 ms; replay_time_scale=200 half;
# a log of 20 s gaps with replay_no_stall finishes at once (under a timeout that would stop it).
"$IOWL" --name=d --read_iolog=trace.bin --output-format=json --output=d.json 2> d.err || { cat d.err; fail "timed replay"; }
t=$(jget d.json jobs.0.read.runtime)
[ "$t" -ge 880 ] || fail "the trace's 15 ms gaps: replayed in $t ms, expected at least 880"
"$IOWL" --name=d --read_iolog=trace.bin --replay_time_scale=200 --output-format=json --output=d2.json 2> /dev/null || fail "time_scale"
t2=$(jget d2.json jobs.0.read.runtime)
[ "$t2" -ge 440 ] || fail "replay_time_scale=200: $t2 ms, expected at least 440"
awk 'NR == 1 || NF != 5 { print; next } { $1 = sprintf("%.0f", (NR - 1) * 20000000); print }' v3.log > slow.log
timeout 60 "$IOWL" --name=s --read_iolog=slow.log --direct=1 --replay_no_stall=1 > /dev/null 2> s.err || { head -3 slow.log; cat s.err;
	fail "replay_no_stall: the replay of a log with 20 s gaps did not finish within 60 s"; }

# Bad logs: FILE:LINE and what was wrong.
printf 'fio version 2 iolog\n/x add\n/x frobnicate 0 4096\n' > bad.log
"$IOWL" --name=b --read_iolog=bad.log --parse-only 2> e && fail "a bad action was accepted"
grep -q "bad.log:3: unknown action 'frobnicate'" e || fail "no LOG:LINE message: $(cat e)"
echo "0, 4096, 1" > v1.log
"$IOWL" --name=b --read_iolog=v1.log --parse-only 2> e && fail "a version 1 log was accepted"
grep -q "v1.log:1: iolog version 1 is no longer supported" e || fail "v1: $(cat e)"
echo "replay: timed $t ms (>= 880), x2 $t2 ms (>= 440)"
