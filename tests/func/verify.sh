#!/bin/sh
# Data verification: write and read back on every engine, random and mixed IO at depth 16, injected corruption found at its exact byte, verify_fatal, verify_backlog, patterns.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
v() { jget "$1" "jobs.0.iowl.verify.$2"; }
run() { # json-file iowl-args...: the run must succeed
	out=$1; shift
	"$IOWL" --eta=never --output-format=json "$@" > "$out" 2> err || { cat err; fail "'$*' failed"; }
}
# Replaces the byte at offset $2 of file $1 by its complement; prints the old byte as 0x%02x.
flip() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((255 - b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	printf '0x%02x' "$b"
}

# O_DIRECT where the file system allows it.
directs=0
dd if=/dev/zero of=probe bs=4k count=1 oflag=direct 2>/dev/null && directs="0 1"

# Every engine writes 2 MiB and reads every unit back (do_verify=1, the default).
for engine in sync psync libaio io_uring; do
	for direct in $directs; do
		rm -f d
		run w.json --name=w --filename=d --size=2m --bs=4k --rw=write --ioengine=$engine \
			--direct=$direct --iodepth=16 --verify=crc32c
		[ "$(v w.json units)" = 512 ] && [ "$(v w.json readback_units)" = 512 ] &&
			[ "$(v w.json errors)" = 0 ] ||
			fail "$engine direct=$direct: $(v w.json units) units checked, $(v w.json errors) failed"
		[ "$(jget w.json jobs.0.read.total_ios)" = 512 ] && [ "$(jget w.json jobs.0.write.total_ios)" = 512 ] ||
			fail "$engine: the read-back's 512 reads are not counted as reads (fio counts them)"
	done
done

# Random and mixed workloads at depth 16, overlapping IOs included (norandommap, several
# passes, the separate cursors of rw=readwrite): nothing fails, and the reads are checked.
for engine in libaio io_uring; do
	for mix in "--rw=randwrite --norandommap" "--rw=randrw --norandommap" "--rw=readwrite" \
		   "--rw=randrw --bssplit=4k/50:16k/30:64k/20 --loops=3"; do
		rm -f d
		# shellcheck disable=SC2086
		run m.json --name=m --filename=d --size=1m --bs=4k --ioengine=$engine --iodepth=16 \
			--direct=${directs##* } $mix --verify=crc32c
		[ "$(v m.json errors)" = 0 ] && [ "$(v m.json readback_units)" -gt 0 ] ||
			fail "$engine $mix: $(v m.json errors) failed"
		case $mix in *randrw*|*readwrite*)
			[ "$(v m.json read_units)" -gt 0 ] || fail "$engine $mix: no read checked" ;;
		esac
	done
done

# A run that only writes, then damage with dd, then a separate run that only reads: every
# damaged unit is reported at its exact byte, from the data alone.
rm -f d
run w.json --name=w --filename=d --size=4m --bs=4k --rw=randwrite --verify=crc32c --do_verify=0
[ "$(v w.json units)" = 0 ] || fail "do_verify=0 still read back"
run clean.json --name=r --filename=d --bs=4k --rw=read --verify=crc32c
[ "$(v clean.json units)" = 1024 ] && [ "$(v clean.json errors)" = 0 ] || fail "clean read-back"
hits="3:100 100:4095 517:48 1000:2222"
for h in $hits; do
	u=${h%%:*} b=${h#*:}
	eval "old_$u=$(flip d $((u * 4096 + b)))"
done
flip d $((700 * 4096 + 17)) > /dev/null	# a byte of the header's offset field
"$IOWL" --eta=never --output-format=json --name=r --filename=d --bs=4k --rw=randread \
	--ioengine=libaio --iodepth=16 --verify=crc32c --continue_on_error=verify > r.json 2> r.err
rc=$?
[ "$rc" = 2 ] || { cat r.err; fail "damaged data: status $rc, expected 2"; }
[ "$(v r.json errors)" = 5 ] && [ "$(v r.json units)" = 1024 ] || fail "damaged data: $(v r.json errors) of $(v r.json units) failed"
[ "$(jget r.json jobs.0.error)" = 84 ] || fail "EILSEQ in the JSON error"
for h in $hits; do
	u=${h%%:*} b=${h#*:}
	eval "old=\$old_$u"
	found=$(printf '0x%02x' $((255 - old)))
	grep -q "verify failed on '.*d' at offset=$((u * 4096)), length=4096: corrupt payload; first differing byte at +$b (offset $((u * 4096 + b))): expected $old, found $found" r.err ||
		{ cat r.err; fail "unit $u byte $b not reported exactly"; }
done
grep -q "at offset=$((700 * 4096)), length=4096: header checksum mismatch; first differing byte at +17 (offset $((700 * 4096 + 17)))" r.err ||
	{ cat r.err; fail "header damage not reported exactly"; }
grep -q "header expected/found: magic 0xacca/0xacca, type crc32c/crc32c, length 4096/4096, offset $((3 * 4096))/$((3 * 4096)), seq ?/" r.err ||
	{ cat r.err; fail "header fields"; }

# Sequentially, the first failure in the JSON is the lowest damaged unit.
"$IOWL" --eta=never --output-format=json --name=r --filename=d --bs=4k --rw=read --verify=crc32c \
	--continue_on_error=verify > s.json 2> s.err
[ $? = 2 ] || fail "sequential read-back status"
[ "$(v s.json first_failure.offset)" = 12288 ] && [ "$(v s.json first_failure.byte)" = 100 ] &&
	[ "$(v s.json first_failure.kind)" = corrupt ] &&
	[ "$(v s.json first_failure.expected_byte)" = "$((old_3))" ] ||
	fail "first_failure: $(v s.json first_failure.offset) +$(v s.json first_failure.byte)"

# Without continue_on_error the first failure ends the job; verify_fatal stops even with it.
"$IOWL" --eta=never --output-format=json --name=r --filename=d --bs=4k --rw=read --verify=crc32c \
	> n.json 2> n.err
[ $? = 2 ] && [ "$(v n.json errors)" = 1 ] && [ "$(jget n.json jobs.0.read.total_ios)" -lt 1024 ] ||
	fail "the first verify failure should end the job"
"$IOWL" --eta=never --output-format=json --name=r --filename=d --bs=64k --rw=read --verify=crc32c \
	--verify_interval=4k --verify_fatal=1 --continue_on_error=verify > f.json 2> f.err
[ $? = 2 ] && [ "$(v f.json errors)" = 1 ] && [ "$(grep -c 'verify failed on' f.err)" = 1 ] ||
	fail "verify_fatal: $(v f.json errors) failures"

# verify_backlog: while writing, every 100 writes are read back (the last 24 after the writes);
# verify_backlog.sh has the rest (once each, do_verify=0, time_based).
rm -f d
run b.json --name=b --filename=d --size=4m --bs=4k --rw=randwrite --verify=crc32c \
	--verify_backlog=100
[ "$(v b.json backlog_units)" = 1000 ] && [ "$(v b.json readback_units)" = 24 ] &&
	[ "$(v b.json errors)" = 0 ] || fail "verify_backlog: $(v b.json backlog_units) + $(v b.json readback_units)"
run b.json --name=b --filename=d --size=4m --bs=4k --rw=randwrite --verify=crc32c \
	--verify_backlog=100 --ioengine=io_uring --iodepth=16
[ "$(v b.json backlog_units)" -ge 800 ] && [ $(( $(v b.json backlog_units) + $(v b.json readback_units) )) = 1024 ] ||
	fail "verify_backlog at depth 16: $(v b.json backlog_units) + $(v b.json readback_units), expected 1024 in all"

# time_based: the runtime leaves no time for a read-back (fio's verify phase never starts).
# (200 ms: the writes to the cached file spin a CPU for the runtime)
rm -f d
run t.json --name=t --filename=d --size=1m --bs=4k --rw=randwrite --verify=crc32c --runtime=200ms \
	--time_based
[ "$(v t.json readback_units)" = 0 ] && [ "$(v t.json errors)" = 0 ] || fail "time_based read-back"

# verify=pattern (no header, as fio's), read back on its own; a crc32c reader finds no header.
rm -f d
run p.json --name=p --filename=d --size=1m --bs=4k --rw=write --verify_pattern='0xdeadbeef"iowl"'
[ "$(v p.json mode)" = pattern ] && [ "$(v p.json units)" = 256 ] || fail "pattern write"
flip d $((5 * 4096 + 300)) > /dev/null
"$IOWL" --eta=never --name=p --filename=d --bs=4k --rw=read --verify=pattern \
	--verify_pattern='0xdeadbeef"iowl"' > /dev/null 2> p.err
[ $? = 2 ] && grep -q "at offset=20480, length=4096: corrupt payload; first differing byte at +300" p.err ||
	{ cat p.err; fail "pattern damage"; }
"$IOWL" --eta=never --name=p --filename=d --bs=4k --rw=read --verify=crc32c > /dev/null 2> c.err
[ $? = 2 ] && grep -q "no verify header; first differing byte at +0" c.err ||
	{ cat c.err; fail "mode mismatch"; }

# What cannot be verified is refused before any IO.
expect_status 1 "$IOWL" --name=x --filename=d --size=1m --rw=randtrim --verify=crc32c
expect_status 1 "$IOWL" --name=x --filename=d --size=1m --rw=write --verify=sha384
expect_status 1 "$IOWL" --name=x --filename=d --size=1m --rw=write --bs=4k --verify=crc32c \
	--verify_interval=8k
echo "verify ok"
