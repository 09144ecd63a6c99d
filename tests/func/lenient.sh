#!/bin/sh
# Option combinations fio runs (issue 12): iowl runs them too, as fio does, with one warning on
# stderr at the option's FILE:LINE saying what is ignored or changed; --parse-only says the same.
# Where running would measure something false (hipri without direct) it refuses with the reason.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"

# case NAME WARNING-REGEX OPTION-LINES...: a job file with those lines (from line 6 on); both
# --parse-only and a run exit 0 and print one warning matching "job.ini:LINE: warning: REGEX".
case_ok() {
	name=$1 want=$2
	shift 2
	{
		printf '[%s]\nfilename=%s/f.%s\nsize=64k\nbs=4k\nrw=write\n' "$name" "$SCRATCH" "$name"
		printf '%s\n' "$@"
	} > "$name.ini"
	for mode in --parse-only run; do
		set -- "$SCRATCH/$name.ini"
		[ "$mode" = run ] || set -- "$mode" "$@"
		"$IOWL" --output-format=json --output="$SCRATCH/$name.json" "$@" 2> "$name.err"
		rc=$?
		[ "$rc" = 0 ] || { cat "$name.err"; fail "$name ($mode): exited $rc, expected 0 (fio runs it)"; }
		grep -Eq "^iowl: $SCRATCH/$name.ini:[0-9]+: warning: $want" "$name.err" ||
			{ cat "$name.err"; fail "$name ($mode): no warning matching '$want'"; }
		[ "$(wc -l < "$name.err")" = 1 ] || { cat "$name.err"; fail "$name ($mode): expected one line on stderr"; }
	done
	echo "ok: $name: $(cut -d: -f4- "$name.err")"
}

case_ok verify_backlog 'verify_backlog=16: .*ignored without verify=' verify_backlog=16
case_ok verify_fatal 'verify_fatal=1: .*ignored without verify=' verify_fatal=1
"$IOWL" --name=pre --filename="$SCRATCH/f.backlog_read" --size=64k --rw=write --verify=crc32c \
	--do_verify=0 > /dev/null 2>&1 || fail "writing verified blocks to read"
case_ok backlog_read 'verify_backlog=8: the job does not write' rw=read verify=crc32c verify_backlog=8
case_ok think_blocks 'thinktime_blocks=4: .*ignored without thinktime' thinktime_blocks=4
case_ok think_spin 'thinktime_spin=2ms: longer than thinktime' thinktime=1ms thinktime_spin=2ms
case_ok rate_cycle 'rate_cycle=500: .*ignored' rate_cycle=500
case_ok batch 'iodepth_batch_submit=32: above iodepth=4' ioengine=libaio iodepth=4 iodepth_batch=32
case_ok batch_min 'iodepth_batch_complete_min=8: above iodepth=4' ioengine=libaio iodepth=4 iodepth_batch_complete_min=8
case_ok batch_max 'iodepth_batch_complete_max=2: below iodepth_batch_complete_min=4' ioengine=libaio iodepth=8 iodepth_batch_complete_min=4 iodepth_batch_complete_max=2
case_ok depth_low 'iodepth_low=8: above iodepth=4' ioengine=libaio iodepth=4 iodepth_low=8
case_ok nrfiles 'nrfiles=2: filename= names 1 file' nrfiles=2
case_ok bsrange 'bsrange=4k-16k: bssplit sets the block sizes' bsrange=4k-16k bssplit=4k/50:8k/50
case_ok sqpoll_cpu 'sqthread_poll_cpu=0: is ignored without sqthread_poll' ioengine=io_uring sqthread_poll_cpu=0
case_ok hist_msec 'log_hist_msec=500: .*ignored' log_hist_msec=500
case_ok pct_list 'percentile_list=50:99: every \*_percentiles option is off' percentile_list=50:99 clat_percentiles=0 lat_percentiles=0 slat_percentiles=0
case_ok pct_random 'percentage_random=30: rw=read is sequential' rw=read percentage_random=30

# What the warnings say is what runs: bssplit's sizes only, one file, a sequential read.
"$IOWL" --write_iolog="$SCRATCH/bs.log" "$SCRATCH/bsrange.ini" > /dev/null 2>&1 || fail "bsrange run"
sizes=$(awk '$2 == "write" { print $4 }' bs.log | sort -un | paste -sd, -)
[ "$sizes" = "4096,8192" ] || fail "bsrange+bssplit wrote sizes '$sizes', expected bssplit's 4096,8192"
"$IOWL" --write_iolog="$SCRATCH/pr.log" "$SCRATCH/pct_random.ini" > /dev/null 2>&1 || fail "pct_random run"
offs=$(awk '$2 == "read" { print $3 }' pr.log | paste -sd, -)
seq=$(awk 'BEGIN { for (i = 0; i < 16; i++) printf "%s%d", i ? "," : "", i * 4096 }')
[ "$offs" = "$seq" ] || fail "rw=read percentage_random=30 read '$offs', expected sequential '$seq' (fio ignores it)"
[ "$(ls "$SCRATCH" | grep -c '^f\.nrfiles')" = 1 ] || fail "nrfiles=2 filename=one made $(ls | grep -c '^f\.nrfiles') files"

# hipri without direct: buffered IO cannot be polled (fio fails every IO), so it is refused.
printf '[h]\nfilename=%s/h\nsize=64k\nioengine=io_uring\nhipri\n' "$SCRATCH" > h.ini
expect_status 1 "$IOWL" --parse-only h.ini
grep -q "h.ini:5: hipri .*EOPNOTSUPP" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "hipri: no reason"; }

# verify_pattern with verify=crc32c: fio writes the pattern and checks it by its crc32c.
"$IOWL" --output-format=json --name=vp --filename="$SCRATCH/vp" --size=64k --rw=write \
	--verify=crc32c --verify_pattern=0xdeadbeef > vp.json 2> vp.err || { cat vp.err; fail "verify_pattern with crc32c"; }
[ ! -s vp.err ] || { cat vp.err; fail "verify_pattern with crc32c printed something"; }
od -An -tx1 -j 4144 -N 16 vp | grep -q 'de ad be ef' || fail "the payload is not the pattern"
[ "$(jget vp.json jobs.0.iowl.verify.units)" = 16 ] || fail "verify: $(jget vp.json jobs.0.iowl.verify.units) units checked, expected 16"
# size% of a new file with filesize=: fio writes 50 % of 1 MiB to a file of 512 KiB; so does iowl.
"$IOWL" --output-format=json --name=sp --filename="$SCRATCH/sp" --filesize=1m --size=50% --rw=write \
	> sp.json 2> sp.err || { cat sp.err; fail "size%% with filesize="; }
[ "$(jget sp.json jobs.0.write.io_bytes)" = 524288 ] && [ "$(stat -c %s sp)" = 524288 ] ||
	fail "size=50% filesize=1m: wrote $(jget sp.json jobs.0.write.io_bytes) bytes to a file of $(stat -c %s sp), fio 524288 and 524288"
echo "lenient combinations run as fio runs them"
