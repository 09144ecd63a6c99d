#!/bin/sh
# fio replays iowl's write_iolog (issue 12): every line of it is one fio's read_iolog takes, the
# fsync, fdatasync and end_fsync of the job are in it as sync/datasync lines with an offset and
# length (fio skips lines without them), and fio replays the same IOs.  fio's own write_iolog of
# the same job has the same actions in the same numbers.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
have_fio || skip "fio 3 is not installed (sh scripts/test-deps.sh)"

job="--size=256k --bs=4k --rw=randwrite --fsync=3 --fdatasync=5 --end_fsync=1 --ioengine=psync"
# shellcheck disable=SC2086
"$IOWL" --name=w --filename="$SCRATCH/i.dat" $job --write_iolog=i.log > /dev/null 2> i.err ||
	{ cat i.err; fail "iowl run"; }
# shellcheck disable=SC2086
fio --name=w --filename="$SCRATCH/f.dat" $job --write_iolog=f.log > /dev/null 2> f.err ||
	{ cat f.err; fail "fio run"; }
# Actions and their counts: 64 writes, a sync every 3 writes and the end_fsync, a datasync every 5
# writes where no sync is due (fio issues the fsync alone when both are due): the same in both logs.
actions() { awk 'NR > 1 { a = ($2 ~ /^\//) ? $3 : $2; n[a]++ } END { for (a in n) print a, n[a] }' "$1" | sort | paste -sd, -; }
want="add 1,close 1,datasync 8,open 1,sync 22,write 64"
[ "$(actions i.log)" = "$want" ] || fail "iowl's log: '$(actions i.log)', expected '$want'"
[ "$(actions f.log)" = "$want" ] || fail "fio's own log: '$(actions f.log)', expected '$want'"
# Every IO line has file, action, offset and length, as fio's read_iolog needs them.
awk 'NR > 1 && $2 != "add" && $2 != "open" && $2 != "close" && NF != 4 { print "short line: " $0; bad = 1 } END { exit bad }' i.log ||
	fail "iowl's log has lines fio cannot replay"
[ "$(tail -2 i.log | head -1 | cut -d' ' -f2-)" = "sync 0 0" ] || fail "end_fsync is not the last IO of the log: $(tail -2 i.log | head -1)"

# fio replays it without a complaint: the same 64 writes, and the same syncs as fio's replay of
# its own log (fio's JSON counts the fsyncs there, not the datasyncs).
for l in i f; do
	fio --name=r --read_iolog=$l.log --ioengine=psync --output-format=json --output=r$l.json \
		> /dev/null 2> r$l.err || { cat r$l.err; fail "fio --read_iolog of $l.log"; }
	[ ! -s r$l.err ] || { cat r$l.err; fail "fio complained about $l.log"; }
	[ "$(jget r$l.json jobs.0.write.total_ios)" = 64 ] ||
		fail "fio replayed $(jget r$l.json jobs.0.write.total_ios) writes of $l.log, expected 64"
done
syncs=$(jget ri.json jobs.0.sync.total_ios)
[ "$syncs" = "$(jget rf.json jobs.0.sync.total_ios)" ] && [ "$syncs" -gt 0 ] ||
	fail "fio replayed $syncs syncs of iowl's log, $(jget rf.json jobs.0.sync.total_ios) of its own"

# Trims: fio 3.33 does not replay trims (its own trim log fails with "bad ddir: 2"), so iowl's trim
# log is compared with fio's own write_iolog of the same job on a loop device (fio trims block
# devices only): the same trim lines.
if [ "$(id -u)" != 0 ]; then
	echo "fio replays iowl's iologs: 64 writes, $syncs syncs as of its own log; trims not checked (needs root for a loop device)"
	exit 0
fi
loop_device 1m
"$IOWL" --name=t --filename="$dev" --size=256k --bs=4k --rw=randtrim --write_iolog=t.log \
	> /dev/null 2> t.err || { cat t.err; fail "iowl trim run"; }
fio --name=t --filename="$dev" --size=256k --bs=4k --rw=randtrim --ioengine=psync --write_iolog=ft.log \
	> /dev/null 2> ft.err || { cat ft.err; fail "fio trim run"; }
awk '$2 == "trim"' t.log | sort > t.lines
awk '$3 == "trim" { print $2, $3, $4, $5 }' ft.log | sort > ft.lines
[ "$(wc -l < t.lines)" = 64 ] && cmp -s t.lines ft.lines ||
	fail "iowl's trim lines ($(wc -l < t.lines)) differ from fio's ($(wc -l < ft.lines)): $(diff t.lines ft.lines | head -3)"
echo "fio replays iowl's iologs: 64 writes, $syncs syncs as of its own log; 64 trim lines as fio's"
