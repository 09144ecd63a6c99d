#!/bin/sh
# trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero (fio 3.33's meaning), on a
# loop device beside fio: a share of the verified writes is trimmed again, the trims are the job's
# trims (JSON and the device's discard counters agree), trimmed blocks read back as zeros (or are
# not read back with trim_verify_zero=0), and the device holds zeros exactly there.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"
cd "$SCRATCH" || fail "cd"
loop_device 16m
# run TOOL OUT ARGS...: prints "trims reads discards discard_sectors" (JSON, and the device's)
run() {
	tool=$1 out=$2
	shift 2
	s0=$(cat /sys/block/$name/stat)
	if [ "$tool" = fio ]; then
		fio --name=t --filename="$dev" --size=16m --bs=4k --verify=crc32c --direct=1 \
			--output-format=json "$@" > "$out" 2> err || { cat err; fail "fio $*"; }
	else
		"$IOWL" --eta=never --name=t --filename="$dev" --size=16m --bs=4k --verify=crc32c \
			--direct=1 --output-format=json "$@" > "$out" 2> err || { cat err; fail "iowl $*"; }
	fi
	s1=$(cat /sys/block/$name/stat)
	echo "$(jget "$out" jobs.0.trim.total_ios) $(jget "$out" jobs.0.read.total_ios)" \
		"$(echo "$s0 $s1" | awk '{ print $(17 + 12) - $12, $(17 + 14) - $14 }')"
}
# zero 4 KiB blocks on the device (python: od | awk over 16 MiB took 0.6 s of CPU a count)
zeros() {
	python3 -c '
import sys
z = bytes(4096)
n = 0
with open(sys.argv[1], "rb") as f:
    for b in iter(lambda: f.read(4096), b""):
        n += b == z
print(n)' "$dev"
}
# trimwrite (each block trimmed, then written) and 50 % of its writes trimmed again after every 16.
set -- $(run iowl i.json --rw=trimwrite --trim_percentage=50 --trim_backlog=16)
extra=$(($1 - 4096))
[ $3 = $1 ] && [ $4 = $(($1 * 8)) ] || fail "iowl: $1 trims in JSON, the device saw $3 ($4 sectors)"
[ $extra -ge 1843 ] && [ $extra -le 2253 ] || fail "trim_percentage=50 trimmed $extra of 4096 writes"
[ $2 = 4096 ] || fail "iowl read back $2 units, expected all 4096 (trimmed ones as zeros)"
[ "$(jget i.json jobs.0.iowl.verify.errors)" = 0 ] || fail "trimmed units did not read as zeros"
z=$(zeros)
[ "$z" = $extra ] || fail "$z zero blocks on the device, $extra trimmed again"
# fio's answers (its trims, reads and the device's discards) are kept once given (tests/lib.sh)
if have_fio && ! fio_kept trimwrite 50 16 "1843 to 2253 trimmed again, all read"; then
	set -- $(run fio f.json --rw=trimwrite --trim_percentage=50 --trim_backlog=16)
	fx=$(($1 - 4096))
	[ $3 = $1 ] && [ $2 = 4096 ] && [ $fx -ge 1843 ] && [ $fx -le 2253 ] ||
		fail "fio: $1 trims (device $3), $2 reads: not the share iowl is checked against"
	echo "trim_percentage=50: fio trimmed $fx again, iowl $extra (of 4096)"
	fio_keep trimwrite 50 16 "1843 to 2253 trimmed again, all read"
fi
# 100 %, 2 trims a round after every 8 writes: every block trimmed twice, the device ends zero.
set -- $(run iowl i.json --rw=trimwrite --trim_percentage=100 --trim_backlog=8 --trim_backlog_batch=2)
[ "$*" = "8192 4096 8192 65536" ] || fail "trim_percentage=100: iowl $*, expected 8192 4096 8192 65536"
z=$(zeros)
[ "$z" = 4096 ] || fail "trim_percentage=100 left $z zero blocks of 4096"
if have_fio && ! fio_kept trimwrite 100 8 2 "8192 4096 8192 65536"; then
	f=$(run fio f.json --rw=trimwrite --trim_percentage=100 --trim_backlog=8 --trim_backlog_batch=2)
	[ "$f" = "8192 4096 8192 65536" ] || fail "fio: $f"
	fio_keep trimwrite 100 8 2 "8192 4096 8192 65536"
fi
# trim_verify_zero=0: the blocks trimmed again are not read back.
set -- $(run iowl i.json --rw=trimwrite --trim_percentage=50 --trim_backlog=16 --trim_verify_zero=0)
[ $2 = $((4096 - ($1 - 4096))) ] || fail "trim_verify_zero=0: $2 reads, $(($1 - 4096)) trimmed again"
# rw=write (fio 3.33 aborts on an assertion there: a trim in a job without trims): iowl trims.
set -- $(run iowl i.json --rw=write --trim_percentage=100 --trim_backlog=4)
[ "$*" = "4096 4096 4096 32768" ] || fail "rw=write trim_percentage=100: $*"
# Without trim_backlog nothing is trimmed (fio: the same), and it is said.
set -- $(run iowl i.json --rw=write --trim_percentage=50)
[ $1 = 0 ] && [ $3 = 0 ] || fail "trim_percentage without trim_backlog trimmed $1"
grep -q "trims nothing without trim_backlog" err || fail "no warning without trim_backlog"
expect_status 1 "$IOWL" --name=x --filename="$dev" --rw=write --verify=crc32c --trim_percentage=101 --trim_backlog=1
exit 0
