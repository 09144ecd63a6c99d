#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's file options, each run with iowl and fio 3.33 on the same job and compared by the system
# calls both make (strace): sync= open flags, fadvise_hint, write_hint, fsync_on_close,
# create_fsync, pre_read; then create_only, allow_file_create, create_serialize=0 and the fio
# options refused for good, each with its reason.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
have_fio || skip "fio 3 is not installed (apt-get install fio): these options are compared with it"
command -v strace > /dev/null 2>&1 || skip "strace is not installed (apt-get install strace)"
strace_traced

# trace TOOL CALLS NAME ARGS...: TOOL's job NAME on file NAME.TOOL, its CALLS traced to NAME.TOOL.st
trace() {
	tool=$1 calls=$2 n=$3
	shift 3
	if [ "$tool" = fio ]; then set -- fio --output=/dev/null "$@"; else set -- "$IOWL" --eta=never "$@"; fi
	strace -f -qq -e trace="$calls" -o "$n.$tool.st" "$@" --name="$n" --filename="$n.$tool" \
		> "$n.$tool.out" 2>&1 || { cat "$n.$tool.out"; fail "$tool: $n: the run failed"; }
}
# both CALLS NAME ARGS...: the same job traced under iowl, and under fio unless fio's answer is
# kept (tests/data/fio-kept.ref: the checks that follow held for fio 3.33 on this job before; a
# fio start under strace is 0.3 s of CPU).  $tools: the tools traced, which the checks go over;
# asked after the checks keeps fio's answer (make fio-ref).
both() {
	trace iowl "$@"
	tools=iowl asked=""
	fio_kept "$*" && return 0
	trace fio "$@"
	tools="iowl fio" asked="$*"
}
asked() { [ -z "$asked" ] || fio_keep "$asked"; }
# fsyncs NAME N: the job NAME made N fsyncs under each tool traced (N is fio's count)
fsyncs() {
	for t in $tools; do
		[ "$(count $t "$1" 'fsync(')" = "$2" ] ||
			fail "$t: $1: $(count $t "$1" 'fsync(') fsyncs, fio makes $2"
	done
}
# count TOOL NAME PATTERN: the traced calls of NAME.TOOL matching PATTERN
count() { grep -c "$3" "$2.$1.st"; }

# sync=: every open of the target carries O_SYNC (sync, 1) or O_DSYNC (dsync), none by default
for v in sync 1 dsync none; do
	both openat "sync$v" --size=64k --rw=write --sync=$v
	for t in $tools; do
		fl=$(grep "sync$v.$t\"" "sync$v.$t.st" | grep -v O_RDONLY | tail -n 1)
		case $v in
		sync|1) echo "$fl" | grep -q "O_SYNC" || fail "$t sync=$v: the file was opened without O_SYNC: $fl" ;;
		dsync) echo "$fl" | grep -q "O_DSYNC" && ! echo "$fl" | grep -q O_SYNC ||
			fail "$t sync=$v: the file was not opened with O_DSYNC alone: $fl" ;;
		none) echo "$fl" | grep -q "O_D\?SYNC" && fail "$t sync=none: $fl" ;;
		esac
	done
	asked
done

# fadvise_hint: the advice over the region by rw= (1, the default), none (0), or as named
for c in "1 randread RANDOM" "1 read SEQUENTIAL" "0 randread -" "random read RANDOM" \
	 "sequential randread SEQUENTIAL"; do
	set -- $c
	n=fadv$1$2
	both fadvise64 "$n" --size=64k --offset=8k --rw=$2 --fadvise_hint=$1
	for t in $tools; do
		got=$(grep -o "fadvise64([0-9]*, [0-9]*, [0-9]*, POSIX_FADV_\(RANDOM\|SEQUENTIAL\))" "$n.$t.st" |
			sed 's/^fadvise64([0-9]*, //')
		want="8192, 65536, POSIX_FADV_$3)"
		[ "$3" = - ] && want=""
		[ "$got" = "$want" ] || fail "$t fadvise_hint=$1 rw=$2: '$got', expected '$want'"
	done
	asked
done

# write_hint: fcntl(F_SET_RW_HINT) with the life time (short is 2); fio and iowl alike (buffered)
both fcntl hint --size=64k --rw=write --write_hint=short
for t in $tools; do
	grep -q "fcntl([0-9]*, 0x40c /\* F_??? \*/, \[2\])\|fcntl([0-9]*, F_SET_RW_HINT, \[RWH_WRITE_LIFE_SHORT\])" hint.$t.st ||
		grep -q "0x40c" hint.$t.st || fail "$t write_hint=short: no F_SET_RW_HINT call: $(grep -v F_GETFD hint.$t.st | head -n 3)"
done
asked
# with direct=1 fio 3.33 uses F_SET_FILE_RW_HINT, gone since Linux 5.17; iowl's inode hint works
"$IOWL" --eta=never --name=hd --filename=hd --size=64k --rw=write --direct=1 --write_hint=long > hd.out 2>&1 ||
	{ cat hd.out; fail "write_hint=long with direct=1 failed"; }

# fsync_on_close: one fsync per file of a writing job at its end, as fio's close (none for reads)
both fsync fsc --size=64k --rw=write --fsync_on_close=1 --nrfiles=1
fsyncs fsc 1
asked
both fsync fsn --size=64k --rw=write
fsyncs fsn 0
asked
[ "$(count iowl fsc 'fsync(')" -gt "$(count iowl fsn 'fsync(')" ] || fail "fsync_on_close=1 added no fsync"
# (after end_fsync's, the close makes none of its own)
both fsync fse --size=64k --rw=write --fsync_on_close=1 --end_fsync=1
fsyncs fse 1
asked

# sync_file_range=FLAGS:N: every N writes, the range written since the last, with the flags
both sync_file_range sfr --size=64k --bs=4k --rw=write --sync_file_range=wait_before,write:4
for t in $tools; do
	got=$(grep -o "sync_file_range([0-9]*, [0-9]*, [0-9]*, [A-Z_|]*)" sfr.$t.st | sed 's/^sync_file_range([0-9]*, //' | tr '\n' ' ')
	want="0, 16384, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE) 16384, 16384, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE) 32768, 16384, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE) "
	[ "$got" = "$want" ] || fail "$t sync_file_range=wait_before,write:4: '$got', expected '$want'"
done
asked
expect_status 1 "$IOWL" --name=s --filename=s --size=64k --sync_file_range=later:4 --parse-only
grep -q "'later' is not a sync_file_range flag" "$SCRATCH/err" || fail "bad flag: $(cat "$SCRATCH/err")"

# create_fsync=0: a read job's layout writes its file and does not fsync it (1, the default: it does)
for v in 1 0; do
	both fsync cf$v --size=64k --rw=read --create_fsync=$v
	fsyncs cf$v $v
	asked
done
[ "$(count iowl cf1 'fsync(')" -gt "$(count iowl cf0 'fsync(')" ] || fail "create_fsync=0 left the fsync"

# pre_read: the region is read once before the IO, and invalidate is off (no POSIX_FADV_DONTNEED)
head -c 262144 /dev/urandom > pr.iowl
cp pr.iowl pr.fio
both pread64,read,fadvise64 pr --size=256k --rw=read --pre_read=1
bytes() { awk -F' = ' '/^[0-9]+ +(pread64|read)\(/ && $NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' "$1"; }
for t in $tools; do
	grep -q "POSIX_FADV_DONTNEED" pr.$t.st && fail "$t pre_read=1: the cache was dropped"
	[ "$(bytes pr.$t.st)" -ge $((2 * 262144)) ] ||
		fail "pre_read: $t read $(bytes pr.$t.st) bytes, expected the region twice"
done
asked

# create_only: the file is laid out, no IO is done, the job reports none
"$IOWL" --eta=never --name=co --filename=co --size=64k --rw=read --create_only=1 \
	--output-format=json > co.json 2> co.err || { cat co.err; fail "create_only run"; }
[ "$(stat -c %s co)" = 65536 ] || fail "create_only: the file was not laid out"
[ "$(jget co.json 'jobs.0.read.total_ios')" = 0 ] || fail "create_only: IOs were done"

# allow_file_create=0: a missing file is an error before any IO (exit 1, naming the option)
expect_status 1 "$IOWL" --name=afc --filename=afc --size=64k --rw=write --allow_file_create=0
grep -q "allow_file_create=0 forbids" "$SCRATCH/err" || fail "allow_file_create=0: $(cat "$SCRATCH/err")"
[ -e afc ] && fail "allow_file_create=0 created the file"
: > afc
"$IOWL" --eta=never --name=afc --filename=afc --size=64k --rw=write --allow_file_create=0 > afc.out 2>&1 ||
	{ cat afc.out; fail "allow_file_create=0 with the file there failed"; }

# create_serialize=0: each clone lays out its own files, and they are the files fio makes
"$IOWL" --eta=never --name=cs --directory="$SCRATCH" --size=256k --rw=read --numjobs=3 \
	--create_serialize=0 > cs.out 2>&1 || { cat cs.out; fail "create_serialize=0 run"; }
for c in 0 1 2; do
	[ "$(stat -c %s cs.$c.0)" = 262144 ] || fail "create_serialize=0: cs.$c.0 not laid out"
done

# unique_filename and softrandommap change nothing here, as in fio run locally
for o in unique_filename=0 softrandommap=1; do
	"$IOWL" --eta=never --name=u --filename=u --size=64k --rw=randread --$o --write_iolog=u.$o > /dev/null 2>&1 ||
		fail "$o: the run failed"
	"$IOWL" --eta=never --name=u --filename=u --size=64k --rw=randread --write_iolog=u.def > /dev/null 2>&1
	cmp -s u.$o u.def || fail "$o changed the IOs"
done

# refused for good, each by name with its reason
for c in "percentage_sequential=10:refused by fio 3.33 too (deprecated)" \
	 "size_increment=1m:is not a fio 3.33 option" "sprandom=1:is not a fio 3.33 option" \
	 "fadvise_stream=1:POSIX_FADV_STREAMID" "write_barrier=4:barrier writes"; do
	expect_status 1 "$IOWL" --name=r --filename=r --size=64k "--${c%%:*}" --parse-only
	grep -q "'${c%%=*}' .*${c#*:}" "$SCRATCH/err" || fail "${c%%:*}: $(cat "$SCRATCH/err")"
done
echo "files: sync, fadvise_hint, write_hint, fsync_on_close, create_fsync, pre_read as fio; create_only, allow_file_create, create_serialize=0; refusals"
exit 0
