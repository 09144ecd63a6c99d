#!/bin/sh
# Verification reads as fio 3.33 does them (issue 12.10, 12.22): every written block is read back
# once (verify_backlog batches, then what is left of the last batch, and no second read-back of
# everything), the verification reads count as reads in the job's figures, do_verify=0 turns the
# backlog off too, and time_based leaves no time for a read-back phase (fio warns and skips it).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
v() { jget "$1" "jobs.0.iowl.verify.$2"; }
r() { jget "$1" "jobs.0.read.$2"; }

run() { # out.json args...: a verified run of a fresh file
	out=$1
	shift
	rm -f d
	"$IOWL" --output-format=json --name=v --filename=d --bs=4k --ioengine=psync --verify=crc32c \
		"$@" > "$out" 2> "${out%.json}.err" || { cat "${out%.json}.err"; fail "iowl $*"; }
}

# randwrite of 256 blocks: 256 verified and 256 reads, with or without a backlog; fio the same.
for b in 0 16 100; do
	run w$b.json --size=1m --rw=randwrite --verify_backlog=$b
	[ "$(v w$b.json units)" = 256 ] && [ "$(r w$b.json total_ios)" = 256 ] &&
		[ "$(r w$b.json io_bytes)" = 1048576 ] ||
		fail "randwrite verify_backlog=$b: $(v w$b.json units) units verified, $(r w$b.json total_ios) reads of $(r w$b.json io_bytes) bytes; expected 256, 256, 1048576 (fio)"
	[ "$(r w$b.json runtime)" -ge 0 ] && [ "$(jget w$b.json jobs.0.read.lat_ns.mean | cut -d. -f1)" -gt 0 ] ||
		fail "verify_backlog=$b: the verification reads have no latency"
done
[ "$(v w100.json backlog_units)" = 200 ] && [ "$(v w100.json readback_units)" = 56 ] ||
	fail "verify_backlog=100: $(v w100.json backlog_units) in batches + $(v w100.json readback_units) at the end, expected 200 + 56"
# (fio's answer, kept once given: tests/lib.sh's fio_kept)
if have_fio && ! fio_kept randwrite verify_backlog=100 "reads $(r w100.json total_ios)"; then
	rm -f f
	fio --name=v --filename=f --size=1m --bs=4k --ioengine=psync --verify=crc32c --rw=randwrite \
		--verify_backlog=100 --output-format=json --output=f.json > /dev/null 2>&1 || fail "fio"
	[ "$(r f.json total_ios)" = "$(r w100.json total_ios)" ] || fail "fio read $(r f.json total_ios), iowl $(r w100.json total_ios)"
	fio_keep randwrite verify_backlog=100 "reads $(r w100.json total_ios)"
fi

# A sequential job of 8192 blocks whose last batch is partial: all 8192 verified once.
run s.json --size=32m --rw=write --verify_backlog=1000
[ "$(v s.json units)" = 8192 ] && [ "$(v s.json readback_units)" = 192 ] ||
	fail "write verify_backlog=1000: $(v s.json units) units ($(v s.json readback_units) at the end), expected 8192 (192)"
# readwrite: each written block verified once, the reads are the job's own plus the verifications.
run rw.json --size=1m --rw=readwrite --verify_backlog=16
w=$(jget rw.json jobs.0.write.total_ios)
[ "$(( $(v rw.json backlog_units) + $(v rw.json readback_units) ))" = "$w" ] ||
	fail "readwrite: $(v rw.json backlog_units) + $(v rw.json readback_units) writes verified, $w written"
[ "$(r rw.json total_ios)" = $((256 - w + w)) ] ||
	fail "readwrite: $(r rw.json total_ios) reads, expected $((256 - w)) of the job and $w verifications"

# do_verify=0: no verification reads at all, backlog included (fio: 0 reads).
run n.json --size=1m --rw=randwrite --verify_backlog=100 --do_verify=0
[ "$(v n.json units)" = 0 ] && [ "$(r n.json total_ios)" = 0 ] || fail "do_verify=0: $(v n.json units) verified"

# time_based: no read-back phase, with fio's warning; a backlog still verifies while writing.
# (200 ms: the writes to the cached file spin a CPU for the runtime)
run t.json --size=1m --rw=randwrite --time_based --runtime=200ms
[ "$(v t.json units)" = 0 ] && [ "$(r t.json total_ios)" = 0 ] ||
	fail "time_based: $(v t.json units) units verified after the runtime, fio none"
grep -q "warning: .*the verification read phase never starts" t.err || { cat t.err; fail "time_based with verify: no warning"; }
run tb.json --size=1m --rw=randwrite --time_based --runtime=200ms --verify_backlog=16
[ "$(v tb.json readback_units)" = 0 ] && [ "$(v tb.json backlog_units)" -gt 0 ] ||
	fail "time_based with verify_backlog: $(v tb.json backlog_units) in batches, $(v tb.json readback_units) after"
[ ! -s tb.err ] || { cat tb.err; fail "time_based with verify_backlog printed something"; }
echo "every block verified once; verification reads counted as fio counts them"
