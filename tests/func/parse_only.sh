#!/bin/sh
# --parse-only finds what a run would find before its first IO, for what the corpus of bad job
# files (tests/bad) cannot express: --sweep points, --curve points and command-line flags.  Each
# case must exit 1 with its message both with --parse-only and as a run, and create nothing.
. "$(dirname "$0")/../lib.sh"
mkdir "$SCRATCH/w" && cd "$SCRATCH/w" || fail "cd"
truncate -s 16m f
o=$SCRATCH

# refused "expected message" iowl-arguments...
refused() {
	want=$1
	shift
	for mode in --parse-only run; do
		ls -R > "$o/before"
		if [ "$mode" = run ]; then
			"$IOWL" --eta=never "$@" > "$o/out" 2> "$o/err"
		else
			"$IOWL" --eta=never "$mode" "$@" > "$o/out" 2> "$o/err"
		fi
		rc=$?
		[ "$rc" = 1 ] || { cat "$o/err"; fail "$mode $*: exited $rc, expected 1"; }
		grep -qF "$want" "$o/err" || { cat "$o/err"; fail "$mode $*: no '$want'"; }
		[ ! -s "$o/out" ] || fail "$mode $*: printed results"
		ls -R > "$o/after"
		cmp -s "$o/before" "$o/after" || fail "$mode $*: created files: $(diff "$o/before" "$o/after" | tr '\n' ' ')"
	done
}

# A sweep point that cannot be built, after good ones.
refused "iodepth=0: 0 is out of range" --name=s --ioengine=null --size=1m --sweep iodepth=1,0
refused "bs=7: " --name=s --filename=f --direct=1 --ioengine=psync --sweep bs=4k,7
# A curve over a job that limits its own rate, and one whose rated points cannot be built.
refused "rate=10m: --curve sets each point's rate_iops itself" \
	--name=c --filename=f --ioengine=psync --rate=10m --curve=10
refused "rate_iops_min=5: --curve sets each point's rate_iops itself" \
	--name=c --filename=f --ioengine=psync --rate_iops_min=5 --curve=10
# io_uring's submission thread on a CPU this process cannot use (the ring would be refused).
refused "sqthread_poll_cpu=1023: CPU 1023 is not one this process may run on (it may use " \
	--name=u --filename=f --ioengine=io_uring --sqthread_poll=1 --sqthread_poll_cpu=1023 --size=64k
# More libaio events at once than fs.aio-max-nr allows: io_setup would fail in every clone.
max=$(cat /proc/sys/fs/aio-max-nr 2>/dev/null) || max=
if [ -n "$max" ]; then
	n=$((max / 65535 + 1))
	refused "iodepth=65535: the libaio clones running with this job need $((n * 65535)) AIO events at once, more than fs.aio-max-nr=$max allows" \
		--name=a --filename=f --ioengine=libaio --iodepth=65535 --numjobs=$n --size=64k
fi

# Files to lay out that do not fit their filesystem: found before writing any of them.
[ "$(id -u)" = 0 ] || skip "the free-space case needs root to mount a small tmpfs"
mkdir small && mount -t tmpfs -o size=1m tmpfs small 2>/dev/null || skip "cannot mount tmpfs"
on_exit "umount $SCRATCH/w/small"
refused "size=2m: laying out the run's files needs 2.0 MiB on the filesystem of 'small', which has 1.0 MiB free" \
	--name=l --filename=small/a --ioengine=psync --rw=read --size=2m
# Two jobs sharing a file lay it out once: 768k fits.
"$IOWL" --parse-only --name=l --filename=small/a --ioengine=psync --rw=read --size=768k \
	--name=m --filename=small/a --ioengine=psync --rw=read --size=768k 2> "$o/err" ||
	{ cat "$o/err"; fail "a shared file counted twice"; }
refused "laying out the run's files needs 1.1 MiB" \
	--name=l --filename=small/a --ioengine=psync --rw=read --size=768k \
	--name=m --filename=small/b --ioengine=psync --rw=read --size=384k
echo "parse-only ok"
