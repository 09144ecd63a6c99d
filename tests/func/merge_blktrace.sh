#!/bin/sh
# SPDX-License-Identifier: MIT
# merge_blktrace_file, merge_blktrace_scalars, merge_blktrace_iters with fio's meaning: the
# read_iolog blktraces are merged into one file in the order of their events' times (queue
# events of reads, writes and discards, without payload), each trace's times scaled by its
# percentage and the trace run its number of times, one run after the other (shifted by the
# trace's length, the time of its last event); the merged trace is what the job replays.
# Two traces crafted here (10 queued IOs each, completions, payloads and a flush around them) are
# merged with iters 2:1 and scalars 100:50; the file must hold exactly the events computed here.
# fio 3.33's own merge is broken (it reads each event into the wrong place: "iolog short read",
# an empty merge file, and it replays the first trace alone), so fio replays iowl's merged file
# instead: both make the same requests (the device's counters).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
command -v python3 > /dev/null || skip "python3 is needed to write the blktrace files"
loop_device 16m
mm=$(stat -Lc "%t %T" "$dev")
python3 - "$((0x${mm% *}))" "$((0x${mm#* }))" <<'PY' || fail "python3: the traces"
import struct, sys
dev = (int(sys.argv[1]) << 20) | int(sys.argv[2])
fmt = '=IIQQIIIIIHH'   # struct blk_io_trace
def ev(seq, t, sector, nbytes, action, pdu=b''):
    return struct.pack(fmt, 0x65617407, seq, t, sector, nbytes, action, 4242, dev, 0, 0, len(pdu)) + pdu
tc = lambda c: c << 16
traces = []
for name, t0, step, base in (('a.bin', 1000000, 3000000, 0), ('b.bin', 2500000, 5000000, 8192)):
    out, t, q = b'', t0, []
    for i in range(10):
        cat = tc(2) if i % 3 == 1 else tc(1)                  # a write, else a read
        out += ev(2 * i, t, base + i * 16, 4096, cat | 1, b'pdu!' if i % 4 == 0 else b'')
        q.append((2 * i, t, base + i * 16, 4096, cat | 1))
        out += ev(2 * i + 1, t + 1000, base + i * 16, 4096, cat | 8)   # its completion
        t += step
    out += ev(99, t, 0, 0, tc(4) | 1)                            # a queued flush: left out
    open(name, 'wb').write(out)
    traces.append((q, t))                                        # t: the last event's time
# expected: trace a twice (the second run after its length), trace b at 50 %
evs = []
for k, ((q, length), iters, scalar) in enumerate(zip(traces, (2, 1), (100, 50))):
    for it in range(iters):
        for n, (seq, t, sector, nbytes, action) in enumerate(q):
            evs.append(((t + it * length) * scalar // 100, k, it, n, seq, sector, nbytes, action))
evs.sort()
with open('want.bin', 'wb') as f:
    for (t, k, it, n, seq, sector, nbytes, action) in evs:
        f.write(struct.pack(fmt, 0x65617407, seq, t, sector, nbytes, action, 4242, dev, 0, 0, 0))
PY
# the merge, replayed on the device (direct: every IO reaches it)
dstat() { awk '{ print $1, $3, $5, $7 }' "/sys/block/$name/stat"; }
before=$(dstat)
"$IOWL" --name=m --read_iolog=a.bin:b.bin --merge_blktrace_file=m.bin --merge_blktrace_iters=2:1 \
	--merge_blktrace_scalars=100:50 --replay_no_stall=1 --direct=1 --output-format=json > m.json 2> m.err ||
	{ cat m.err; fail "the merged replay failed"; }
after=$(dstat)
cmp -s m.bin want.bin || fail "the merged trace differs from the events expected ($(wc -c < m.bin) bytes, expected $(wc -c < want.bin))"
r=$(jget m.json jobs.0.read.total_ios) w=$(jget m.json jobs.0.write.total_ios)
[ "$r/$w" = 21/9 ] || fail "the merged replay did $r reads and $w writes, expected 21/9 (trace a twice, b once)"
set -- $before $after
# writes only: iowl reads the device itself before a run that writes it (the write guard's probe)
mine="$(($7 - $3)) $(($8 - $4))"
[ "$mine" = "9 72" ] || fail "the device saw writes, sectors '$mine', expected '9 72'"
if have_fio; then
	before=$(dstat)
	timeout 120 fio --name=f --read_iolog=m.bin --replay_no_stall=1 --direct=1 > f.out 2>&1 || { cat f.out; fail "fio replaying the merged trace"; }
	after=$(dstat)
	set -- $before $after
	theirs="$(($5 - $1)) $(($6 - $2)) $(($7 - $3)) $(($8 - $4))"
	[ "$theirs" = "21 168 $mine" ] || fail "fio's replay of the merged trace gave the device reads, sectors, writes, sectors '$theirs', iowl '21 168 $mine'"
fi
# --parse-only merges (the checks need the merged IOs) but writes nothing
rm -f m.bin
"$IOWL" --parse-only --name=m --read_iolog=a.bin:b.bin --merge_blktrace_file=m.bin > /dev/null 2>&1 || fail "--parse-only"
[ ! -e m.bin ] || fail "--parse-only wrote the merge file"
# bad lists: one value per trace
expect_status 1 "$IOWL" --parse-only --name=m --read_iolog=a.bin:b.bin --merge_blktrace_file=m.bin --merge_blktrace_iters=2
grep -q "merge_blktrace_iters.*1 value for the 2 traces" "$SCRATCH/err" || fail "iters=2 for 2 traces: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --parse-only --name=m --read_iolog=a.bin:b.bin --merge_blktrace_file=m.bin --merge_blktrace_scalars=50:x
grep -q "merge_blktrace_scalars" "$SCRATCH/err" || fail "scalars=50:x: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --parse-only --name=m --read_iolog=a.bin --merge_blktrace_iters=2
grep -q "merge_blktrace_file, which is not set" "$SCRATCH/err" || fail "iters without a merge file: $(cat "$SCRATCH/err")"
printf 'fio version 2 iolog\n' > t.log
expect_status 1 "$IOWL" --parse-only --name=m --read_iolog=a.bin:t.log --merge_blktrace_file=m.bin
grep -q "not a blktrace" "$SCRATCH/err" || fail "a text log merged: $(cat "$SCRATCH/err")"
exit 0
