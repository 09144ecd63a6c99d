#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's job control options, each beside fio 3.33 where it is installed:
# exec_prerun/exec_postrun (the commands run around the job's IO, output in NAME.prerun.txt and
# NAME.postrun.txt), error_dump (every IO error printed as it happens, the ones let through too),
# rate_ignore_thinktime (no catching up on the rate after a thinktime stall) and uid/gid (the job's
# threads open their files as that user).  fio's answers are kept once given (tests/lib.sh's
# fio_kept): make test starts no fio here.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"

# exec_prerun runs before the IO, exec_postrun after it, each clone's; a list's output all goes
# to the file
truncate -s 1m d.dat
"$IOWL" --name=x --ioengine=psync --filename=d.dat --size=1m --rw=write --bs=64k \
	--exec_prerun='echo pre; stat -c %s d.dat' --exec_postrun='echo post' --output=x.out ||
	fail "exec_prerun run failed"
[ "$(cat x.prerun.txt)" = "pre
1048576" ] || fail "x.prerun.txt: $(cat x.prerun.txt)"
[ "$(cat x.postrun.txt)" = post ] || fail "x.postrun.txt: $(cat x.postrun.txt)"
grep -q "^pre" x.out && fail "the prerun's output is in the results"
# the postrun sees the job's writes: it runs after them
"$IOWL" --name=y --ioengine=psync --filename=y.dat --size=256k --rw=write --bs=64k \
	--exec_postrun='stat -c %s y.dat' --output=/dev/null || fail "exec_postrun run failed"
[ "$(cat y.postrun.txt)" = 262144 ] || fail "y.postrun.txt: $(cat y.postrun.txt)"
# a command that fails fails the job (fio runs no IO and reports success: see README)
expect_status 2 "$IOWL" --name=z --ioengine=null --size=1m --exec_prerun='exit 3'
grep -q "job 'z': exec_prerun 'exit 3' exited with status 3" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "failed prerun"; }
echo "ok: exec_prerun, exec_postrun"

# error_dump: three EIOs let through (one per loop) are three lines; none with error_dump=0
truncate -s 256k iowl-fault.dat
ed() { # tool error_dump
	if [ "$1" = fio ]; then
		LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=65536 fio --name=e --filename=iowl-fault.dat \
			--rw=read --bs=64k --ioengine=psync --loops=3 --continue_on_error=read \
			--error_dump="$2" --output=/dev/null 2> ed.err
	else
		LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=65536 "$IOWL" --name=e --filename=iowl-fault.dat \
			--rw=read --bs=64k --ioengine=psync --loops=3 --continue_on_error=read \
			--error_dump="$2" --output=/dev/null 2> ed.err
	fi
	grep -c "error on file .*iowl-fault.dat.*Input/output error.*read offset=65536" ed.err
}
n1=$(ed iowl 1) n0=$(ed iowl 0)
[ "$n1" = 3 ] && [ "$n0" = 0 ] || fail "error_dump=1 printed $n1 errors (3 expected), error_dump=0 $n0"
if have_fio && ! fio_kept error_dump "$n1" "$n0"; then
	f1=$(ed fio 1) f0=$(ed fio 0)
	[ "$f1" = "$n1" ] && [ "$f0" = "$n0" ] || fail "error_dump: fio printed $f1 and $f0 errors, iowl $n1 and $n0"
	fio_keep error_dump "$n1" "$n0"
fi
echo "ok: error_dump ($n1 lines, as fio)"

# rate_ignore_thinktime: 50 IOs at 200 IOPS (0.25 s), then a 0.25 s stall.  By default the rate
# catches up after the stall (about 200 IOPS over the run); with it, half of that.
rit() { # tool 0|1 -> IOs in 1.5 s
	set -- "$1" --name=r --ioengine=null --size=1g --rw=read --bs=4k --rate_iops=200 \
		--thinktime=250ms --thinktime_blocks=50 --time_based --runtime=1500ms \
		--rate_ignore_thinktime="$2" --output-format=json --output=rit.json
	if [ "$1" = fio ]; then shift; fio "$@" > /dev/null 2>&1; else shift; "$IOWL" "$@"; fi ||
		fail "rate_ignore_thinktime run failed"
	jget rit.json jobs.0.read.total_ios
}
i0=$(rit iowl 0) i1=$(rit iowl 1)
# 150 IOs (3 x 50) at most with it; about 250 without (the stalls are made up)
[ "$i1" -le 160 ] && [ "$i0" -ge 220 ] || fail "rate_ignore_thinktime: $i1 IOs with, $i0 without (<=160, >=220 expected)"
if have_fio && ! fio_kept rate_ignore_thinktime; then
	g0=$(rit fio 0) g1=$(rit fio 1)
	[ "$g1" -le 160 ] && [ "$g0" -ge 220 ] || fail "fio: rate_ignore_thinktime: $g1 IOs with, $g0 without"
	fio_keep rate_ignore_thinktime
fi
echo "ok: rate_ignore_thinktime ($i1 IOs with it, $i0 without; fio ${g1:-?}, ${g0:-?})"

# uid/gid: the threads open the job's files as that user (root only)
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	nob=$(id -u nobody) nog=$(id -g nobody)
	chmod 1777 "$SCRATCH" && mkdir u && chmod 755 u && truncate -s 256k u/open u/closed && chmod 644 u/open && chmod 600 u/closed
	"$IOWL" --name=u --ioengine=psync --filename=u/open --size=256k --uid="$nob" --gid="$nog" \
		--exec_prerun='id -u; id -g' --output=/dev/null || fail "uid: reading a 0644 file failed"
	[ "$(cat u.prerun.txt)" = "$nob
$nog" ] || fail "uid/gid: the prerun ran as $(cat u.prerun.txt | tr '\n' ' ')"
	expect_status 2 "$IOWL" --name=u --ioengine=psync --filename=u/closed --size=256k --uid="$nob" --output=/dev/null
	grep -q "Permission denied" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "uid: a 0600 root file was opened"; }
	if have_fio && ! fio_kept uid; then
		fio --name=u --ioengine=psync --filename=u/closed --size=256k --uid="$nob" --output=/dev/null > fio.err 2>&1 &&
			fail "fio opened the 0600 file as uid $nob: the comparison is void"
		fio --name=u --ioengine=psync --filename=u/open --size=256k --uid="$nob" --output=/dev/null > fio.err 2>&1 ||
			fail "fio could not read the 0644 file as uid $nob"
		fio_keep uid
	fi
	echo "ok: uid, gid"
fi
exit 0
