#!/bin/sh
# Streams' ranges are parts of the job's region: --set size= sizes the job, and the streams keep
# their relative offset= and size= inside it.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
printf '[s]\nioengine=null\nfilename=f\nsize=100m\nnumber_ios=2000\nwrite_iolog=s.log\nstream=hot\nweight=3\nrw=randread\noffset=10%%\nsize=8%%\nstream=all\nrw=randread\n' > s.ini
# range FILE: the lowest and highest byte the log's reads touched, as "lo hi"
range() { awk '$2 == "read" { e = $3 + $4; if (lo == "" || $3 < lo) lo = $3; if (e > hi) hi = e } END { print lo, hi }' "$1"; }
"$IOWL" --eta=never --set size=10m s.ini > /dev/null || fail "run with --set size=10m"
awk '$2 == "read" && $3 < 10485760 && ($3 < 1048576 || $3 + $4 > 1887437)' s.log > outside
n=$(awk '$2 == "read"' s.log | wc -l)
[ "$n" = 2000 ] || fail "expected 2000 reads, found $n"
# the hot stream does 3/4 of the IOs inside [1 MiB, 1.8 MiB); the other stream covers 10 MiB
hot=$(awk '$2 == "read" && $3 >= 1048576 && $3 + $4 <= 1887437' s.log | wc -l)
[ "$hot" -gt 1400 ] || fail "only $hot of 2000 reads in the hot band (10-18 % of 10 MiB): --set size= resized the stream"
set -- $(range s.log)
[ "$2" -le 10485760 ] && [ "$2" -gt 9000000 ] || fail "the job's region is not 10 MiB (reads up to $2)"
echo "--set size=10m: $hot of 2000 reads in the hot band, reads up to $2"
