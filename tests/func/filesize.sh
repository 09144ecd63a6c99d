#!/bin/sh
# filesize= is the size of each file and size= limits the IO, as in fio 3.33: a file is never
# grown beyond filesize, and a filesize range gives sizes that are whole blocks.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# run NAME OPTIONS...: prints "ios lowest end" of the job's iolog (reads and writes)
run() {
	n=$1; shift
	"$IOWL" --eta=never --name="$n" --bs=64k --write_iolog="$n.log" "$@" > /dev/null 2> "$n.err" ||
		{ cat "$n.err"; fail "$n: run failed"; }
	awk '$2 == "read" || $2 == "write" { n++; e = $3 + $4; if (lo == "" || $3 < lo) lo = $3; if (e > hi) hi = e } END { print n, lo, hi }' "$n.log"
}
expect() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3' (IOs lowest end)"; }
size_of() { stat -c %s "$1"; }

expect "filesize=4m size=1m read" "$(run a --filename=a --rw=read --filesize=4m --size=1m)" "16 0 1048576"
[ "$(size_of a)" = 4194304 ] || fail "filesize=4m size=1m made a $(size_of a)-byte file"
set -- $(run b --filename=b --rw=randread --filesize=4m --size=1m)
[ "$1" = 16 ] && [ "$3" -gt 1048576 ] || fail "filesize=4m size=1m randread: $* (16 IOs over the whole 4 MiB expected)"
truncate -s 4m c
expect "filesize=4m offset=1m read" "$(run c --filename=c --rw=read --filesize=4m --offset=1m)" "48 1048576 4194304"
[ "$(size_of c)" = 4194304 ] || fail "filesize=4m offset=1m grew the 4 MiB file to $(size_of c)"
expect "filesize=4m size=8m" "$(run d --filename=d --rw=read --filesize=4m --size=8m)" "64 0 4194304"
run e --rw=read --nrfiles=2 --filesize=2m --size=1m > /dev/null
for f in e.0.0 e.0.1; do
	[ "$(size_of $f)" = 2097152 ] || fail "nrfiles=2 filesize=2m: $f is $(size_of $f) bytes"
	[ "$(awk -v f=$f '$1 == f && $2 == "read"' e.log | wc -l)" = 8 ] || fail "nrfiles=2 filesize=2m size=1m: $f did not get 512 KiB"
done
"$IOWL" --eta=never --name=g --filename=g --rw=read --filesize=1m --offset=2m --parse-only 2> g.err &&
	fail "offset beyond filesize accepted"
grep -q "offset=2m:.*filesize" g.err || { cat g.err; fail "offset beyond filesize: no message naming both"; }
echo "filesize sizes the files, size limits the IO"
# The same from fio itself, where it is installed.
ios() { jget "$1" jobs.0.read.total_ios; }
same_as_fio ios 16 --name=fa --filename=fa --rw=read --bs=64k --filesize=4m --size=1m
same_as_fio ios 48 --name=fc --filename=c --rw=read --bs=64k --filesize=4m --offset=1m
[ "$(size_of c)" = 4194304 ] || fail "filesize=4m offset=1m: the file is $(size_of c) bytes after fio and iowl"

# A range: every file a whole number of blocks inside it; the same sizes on every run.
run r --rw=write --bs=4k --nrfiles=8 --filesize=64k-512k > /dev/null
for f in r.0.*; do
	s=$(size_of $f)
	[ $((s % 4096)) = 0 ] && [ "$s" -ge 65536 ] && [ "$s" -le 524288 ] ||
		fail "filesize=64k-512k bs=4k: $f is $s bytes (not whole 4 KiB blocks in the range)"
done
ls -l r.0.* | awk '{ print $5 }' > sizes1
rm -f r.0.*
run r --rw=write --bs=4k --nrfiles=8 --filesize=64k-512k > /dev/null
ls -l r.0.* | awk '{ print $5 }' | cmp -s - sizes1 || fail "filesize=64k-512k: other sizes on a second run"
[ "$(sort -u sizes1 | wc -l)" -ge 4 ] || fail "filesize=64k-512k: sizes not spread ($(tr '\n' ' ' < sizes1))"
echo "filesize range: $(tr '\n' ' ' < sizes1)"
