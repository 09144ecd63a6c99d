#!/bin/sh
# SPDX-License-Identifier: MIT
# lockfile, fio's meaning across jobs sharing a file: two random readers and a random writer on
# one loop device (psync, direct), 300 IOs each.  Each IO's start and end come from strace -f -T:
# without a lock IOs of different threads overlap in time; exclusive: none overlaps any other;
# readwrite: reads overlap reads, and nothing overlaps a write.  fio, run the same way, agrees.
. "$(dirname "$0")/../lib.sh"
command -v strace >/dev/null 2>&1 || skip "strace not found (apt-get install strace)"
strace_traced
cd "$SCRATCH" || fail "cd"
loop_device 32m
# 4 KiB preads and pwrites: "START END THREAD OP" (a call strace split into unfinished and
# resumed is read from its resumed line: end time and duration)
cat > lk.awk <<'AWK'
/(pread64|pwrite64)\(.* = 4096 <[0-9.]+>$/ || /resumed>.* = 4096 <[0-9.]+>$/ {
	d = $NF; gsub(/[<>]/, "", d); d += 0
	if ($0 ~ /resumed>/) { e = $2 + 0; s = e - d; op = ($4 ~ /^pread/) ? "r" : "w" }
	else { s = $2 + 0; e = s + d; op = ($3 ~ /^pread/) ? "r" : "w" }
	printf "%.9f %.9f %s %s\n", s, e, $1, op
}
AWK
# those of different threads overlapping in time, from the IOs in order of their start (each
# compared with those that start before it ends, not with all): "IOS RR OTHER"
cat > ov.awk <<'AWK'
{ n++; S[n] = $1; E[n] = $2; P[n] = $3; O[n] = $4 }
END {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n && S[j] < E[i]; j++)
		if (P[i] != P[j] && S[i] < E[j]) { if (O[i] == "r" && O[j] == "r") rr++; else rw++ }
	printf "%d %d %d\n", n, rr + 0, rw + 0
}
AWK
# run TOOL MODE: "IOS READ-READ-OVERLAPS OTHER-OVERLAPS"
run() {
	printf '[global]\nfilename=%s\ndirect=1\nioengine=psync\nbs=4k\nsize=4m\nnumber_ios=300\nthread=1\nlockfile=%s\n[r1]\nrw=randread\n[r2]\nrw=randread\n[w]\nrw=randwrite\n' "$dev" "$2" > lk.fio
	strace -f -ttt -T -e trace=pread64,pwrite64 -o lk.st "$1" lk.fio > lk.out 2>&1 || { tail -5 lk.out; fail "$1 lockfile=$2 failed"; }
	awk -f lk.awk lk.st | sort -n | awk -f ov.awk
}
# (fio's answers are kept once given: tests/lib.sh's fio_kept)
for tool in "$IOWL" fio; do
	[ "$tool" = fio ] && { ! have_fio || fio_kept "none: overlaps" "exclusive: 900/0/0" "readwrite: 900, reads overlap, nothing else"; } && break
	set -- $(run "$tool" none)
	echo "${tool##*/} lockfile=none: $1 IOs, $2 read-read overlaps, $3 others"
	[ "$1" = 900 ] || fail "${tool##*/}: $1 IOs traced, expected 900"
	[ "$2" -gt 0 ] && [ "$3" -gt 0 ] || skip "without a lock the three threads' IOs never overlapped ($2, $3): the machine runs them one at a time"
	set -- $(run "$tool" exclusive)
	echo "${tool##*/} lockfile=exclusive: $1 IOs, $2 read-read overlaps, $3 others"
	[ "$1/$2/$3" = 900/0/0 ] || fail "${tool##*/} lockfile=exclusive: $1 IOs, $2 reads overlapped reads and $3 other pairs overlapped (expected none)"
	set -- $(run "$tool" readwrite)
	echo "${tool##*/} lockfile=readwrite: $1 IOs, $2 read-read overlaps, $3 others"
	[ "$1" = 900 ] && [ "$3" = 0 ] || fail "${tool##*/} lockfile=readwrite: $1 IOs, $3 overlaps with a write (expected none)"
	[ "$2" -gt 0 ] || fail "${tool##*/} lockfile=readwrite: reads never overlapped each other (they share the lock)"
	[ "$tool" = fio ] && fio_keep "none: overlaps" "exclusive: 900/0/0" "readwrite: 900, reads overlap, nothing else"
done
expect_status 1 "$IOWL" --parse-only --name=x --filename="$dev" --lockfile=shared
grep -q "lockfile" "$SCRATCH/err" || fail "lockfile=shared: $(cat "$SCRATCH/err")"
exit 0
