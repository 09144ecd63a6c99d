#!/bin/sh
# A region whose end runs past 2^64 (offset, or offset_increment per clone) is refused before any
# IO, with the line that set it: it must never wrap round and write the device's first blocks.
. "$(dirname "$0")/../lib.sh"
loop_device 64m
writes() { awk '{ print $7 }' "/sys/block/$name/stat"; }
cd "$SCRATCH" || fail "cd"
printf '[over]\nfilename=%s\nrw=write\nbs=64k\ndirect=1\noffset=0xfffffffffff00000\nsize=2m\n' "$dev" > over.ini
printf '[inc]\nfilename=%s\nrw=write\nbs=64k\ndirect=1\nsize=1m\nnumjobs=3\noffset_increment=0x8000000000000000\n' "$dev" > inc.ini
for job in over inc; do
	for mode in --parse-only run; do
		w0=$(writes)
		set -- "$job.ini"
		[ $mode = run ] || set -- $mode "$@"
		"$IOWL" --eta=never "$@" > out 2> err
		rc=$?
		[ $rc = 1 ] || { cat err; fail "$job $mode: exited $rc, expected 1"; }
		grep -q "^iowl: $job.ini:[0-9]*: offset.*past" err || { cat err; fail "$job $mode: no FILE:LINE error naming the region"; }
		[ "$(writes)" = "$w0" ] || fail "$job $mode: the device was written ($w0 -> $(writes) sectors)"
	done
	echo "$job: $(cat err)"
done
# The same on the command line, where the error names the command line.
"$IOWL" --name=cl --filename="$dev" --rw=write --offset=0xfffffffffff00000 --size=2m --parse-only 2> err &&
	fail "command-line job accepted"
grep -q "^iowl: command line:.*offset" err || { cat err; fail "command-line job: no position"; }
echo "region overflow refused"
