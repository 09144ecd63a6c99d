#!/bin/sh
# Where a pass over the files ends, as in fio 3.33: a sequential job at the end of its region (a
# tail shorter than the block is left, rw=read:8k does not wrap), a random job once the random
# map gave every block, each of several files once to its end, round-robin from the first file.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# run NAME OPTIONS...: prints "ios bytes most-repeated-offset" of the iolog
run() {
	n=$1; shift
	"$IOWL" --eta=never --name="$n" --write_iolog="$n.log" "$@" > /dev/null 2> "$n.err" ||
		{ cat "$n.err"; fail "$n: run failed"; }
	awk '$2 == "read" || $2 == "write" { n++; b += $4; c[$1 " " $3]++ } END { m = 0; for (k in c) if (c[k] > m) m = c[k]; print n, b, m }' "$n.log"
}
expect() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3' (IOs bytes most-repeated)"; }
expect "size=1000k bs=64k read" "$(run a --size=1000k --bs=64k --rw=read)" "15 983040 1"
expect "size=1000k bs=64k randread" "$(run b --size=1000k --bs=64k --rw=randread)" "15 983040 1"
expect "size=1000k norandommap" "$(run c --size=1000k --bs=64k --rw=randread --norandommap)" "16 1048576 3"
expect "size=1000k io_size=2m" "$(run d --size=1000k --bs=64k --rw=read --io_size=2m)" "32 2097152 3"
expect "size=1000k loops=2" "$(run e --size=1000k --bs=64k --rw=read --loops=2)" "30 1966080 2"
expect "size=1000k bsrange=4k-64k" "$(run f --size=1000k --bs=64k --rw=read --bsrange=4k-64k | cut -d' ' -f2,3)" "1024000 1"
expect "rw=read:8k size=1m" "$(run g --size=1m --bs=4k --rw=read:8k)" "86 352256 1"
[ "$(awk '$2 == "read" { o = $3 } END { print o }' g.log)" = 1044480 ] || fail "rw=read:8k: the last read is not at 1020 KiB"
echo "one pass: sequential to the end, random map once over"

# Several files of different sizes: each is written once, to its end, starting with file 0.
run h --nrfiles=4 --filesize=64k-512k --rw=write --bs=4k > /dev/null
[ "$(awk '$2 == "write" { print $1; exit }' h.log)" = h.0.0 ] || fail "round-robin started at $(awk '$2 == "write" { print $1; exit }' h.log)"
for f in h.0.0 h.0.1 h.0.2 h.0.3; do
	size=$(stat -c %s $f)
	set -- $(awk -v f=$f '$1 == f && $2 == "write" { n++; c[$3]++; if ($3 + $4 > e) e = $3 + $4 } END { m = 0; for (k in c) if (c[k] > m) m = c[k]; print n, e, m }' h.log)
	[ "$1" = $((size / 4096)) ] && [ "$2" = "$size" ] && [ "$3" = 1 ] ||
		fail "$f ($size bytes): $1 writes up to $2, a block written $3 times (each block once to the end expected)"
done
echo "nrfiles=4 filesize=64k-512k: each file written once to its end"

# The same counts from fio itself, where it is installed.
ios() { jget "$1" jobs.0.read.total_ios; }
same_as_fio ios 15 --name=fa --filename=fa --size=1000k --bs=64k --rw=read
same_as_fio ios 15 --name=fb --filename=fb --size=1000k --bs=64k --rw=randread
same_as_fio ios 16 --name=fc --filename=fc --size=1000k --bs=64k --rw=randread --norandommap
same_as_fio ios 32 --name=fd --filename=fd --size=1000k --bs=64k --rw=read --io_size=2m
same_as_fio ios 86 --name=fg --filename=fg --size=1m --bs=4k --rw=read:8k
