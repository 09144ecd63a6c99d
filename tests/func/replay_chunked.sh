#!/bin/sh
# SPDX-License-Identifier: MIT
# read_iolog_chunked: the log is read a chunk of IOs at a time as the replay goes.  The IOs are
# the same as fio 3.33's chunked replay of the same log (its --debug=io queue lines: a v2 log of
# 12000 IOs and 4 syncs over two files, the second added half way, chunk boundaries included) and
# as iowl's whole-log replay; memory is bounded: the peak RSS of a chunked replay does not grow
# with the log (50000 and 250000 IOs, null engine), where reading the log whole does.
. "$(dirname "$0")/../lib.sh"
MAXRSS=$(cd "$HELPERS" && pwd)/maxrss
cd "$SCRATCH" || fail "cd"

truncate -s 16m a.dat b.dat || fail "truncate"
awk -v d="$PWD" 'BEGIN { srand(7); print "fio version 2 iolog"; print d "/a.dat add"; print d "/a.dat open"
	for (i = 0; i < 12000; i++) {
		if (i == 6000) { print d "/b.dat add"; print d "/b.dat open" }
		f = i >= 6000 && i % 3 == 0 ? "b" : "a"
		printf "%s/%s.dat %s %d %d\n", d, f, rand() < 0.5 ? "read" : "write",
			int(rand() * 4095) * 4096, 4096 * (1 + int(rand() * 4))
		if (i % 3000 == 2999) print d "/a.dat sync 0 0"
	}
	print d "/a.dat close"; print d "/b.dat close" }' > mixed.log

# chunked and whole: the same IOs in the same order (the iowl write_iologs)
for c in 0 1; do
	expect_status 0 "$IOWL" --eta=never --output=/dev/null --name=r --read_iolog=mixed.log \
		--read_iolog_chunked=$c --replay_no_stall=1 --ioengine=psync --write_iolog=mixed.$c.iolog
done
cmp -s mixed.0.iolog mixed.1.iolog || fail "the chunked replay's IOs differ from the whole log's"
[ "$(grep -c ' \(read\|write\|sync\) ' mixed.1.iolog)" = 12004 ] ||
	fail "the chunked replay made $(grep -c ' \(read\|write\|sync\) ' mixed.1.iolog) IOs, expected 12004"

# beside fio's chunked replay: its queue lines under --debug=io (fio's answer is kept once given,
# tests/lib.sh's fio_kept: the question holds the MD5 of iowl's IOs, so other IOs ask fio again)
ios=$(sed "s|$SCRATCH|SCRATCH|g" mixed.1.iolog | md5sum)
if have_fio && fio_kept chunked replay "iowl's IOs $ios"; then
	:
elif have_fio; then
	fio --name=r --read_iolog=mixed.log --read_iolog_chunked=1 --replay_no_stall=1 \
		--ioengine=psync --debug=io > fio.dbg 2>&1 || { tail -n 5 fio.dbg; fail "fio's replay failed"; }
	python3 - fio.dbg mixed.1.iolog <<'PY' || fail "iowl's chunked replay differs from fio's"
import sys
def fio(path):
    out = []
    for l in open(path):
        if " queue: " not in l:
            continue
        kv = dict(p.split("=", 1) for p in l.split(": ", 2)[2].strip().split(","))
        d, off, ln = int(kv["ddir"]), int(kv["off"], 16), int(kv["len"], 16)
        out.append((kv["file"], d, 0 if d >= 3 else off, 0 if d >= 3 else ln))
    return out
ops = {"read": 0, "write": 1, "trim": 2, "sync": 3, "datasync": 4}
def iowl(path):
    return [(w[0], ops[w[1]], int(w[2]), int(w[3])) for w in map(str.split, open(path))
            if len(w) == 4 and w[1] in ops]
a, b = fio(sys.argv[1]), iowl(sys.argv[2])
print("fio chunked: %d IOs, iowl chunked: %d, the same: %d" %
      (len(a), len(b), sum(x == y for x, y in zip(a, b))))
sys.exit(a != b)
PY
	fio_keep chunked replay "iowl's IOs $ios"
else
	echo "fio 3 is not installed: the comparison with its replay is skipped"
fi

# memory: peak RSS (KiB) of a replay of N IOs, whole or chunked
big() {
	awk -v d="$PWD" -v n="$1" 'BEGIN { print "fio version 2 iolog"; print d "/a.dat add"
		for (i = 0; i < n; i++) printf "%s/a.dat %s %d 4096\n", d, i % 3 ? "read" : "write", (i * 7919 % 4096) * 4096 }' > big.$1.log
}
# (tests/helpers/maxrss: a small parent, whose own peak does not hide the replay's as python's did)
rss() {
	"$MAXRSS" "$IOWL" --eta=never --output=/dev/null --name=r --ioengine=null --read_iolog=big.$1.log \
		--read_iolog_chunked=$2 --replay_no_stall=1 || fail "the replay of $1 IOs (chunked=$2) failed"
}
big 50000
big 250000
w1=$(rss 50000 0) w4=$(rss 250000 0) c1=$(rss 50000 1) c4=$(rss 250000 1)
echo "peak RSS (KiB), 50000 and 250000 IOs: whole $w1, $w4; chunked $c1, $c4"
# 200000 more IOs of 24 bytes are 4.6 MiB kept whole; a chunk is 4096 of them whatever the log
[ $((w4 - w1)) -gt 3000 ] || fail "reading the log whole grew only $((w4 - w1)) KiB: the test measures nothing"
[ $((c4 - c1)) -lt 1024 ] || fail "the chunked replay grew by $((c4 - c1)) KiB with the log"
[ "$c4" -lt $((w4 - 3000)) ] || fail "the chunked replay's peak ($c4 KiB) is not below the whole log's ($w4 KiB)"

# a bad line is refused before the run, at its line, chunked too
printf 'fio version 2 iolog\n%s/a.dat add\n%s/a.dat read 0 4096\n%s/a.dat jump 0 4096\n' "$PWD" "$PWD" "$PWD" > bad.log
expect_status 1 "$IOWL" --eta=never --name=r --read_iolog=bad.log --read_iolog_chunked=1 --ioengine=null
grep -q "bad.log:4: unknown action 'jump'" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "no bad.log:4 error"; }
exit 0
