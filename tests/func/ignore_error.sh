#!/bin/sh
# continue_on_error lets through fio's non-fatal errors only, EIO and EILSEQ (issue 12.16): a
# write that fails with ENOSPC ends the job even with continue_on_error=write, as in fio 3.33.
# ignore_error (fio's syntax: read,write,verify lists of errno names or numbers joined by ':')
# widens the set and turns on continue_on_error for the types it lists; a later
# continue_on_error=none turns it off again, as fio applies options in order.
. "$(dirname "$0")/../lib.sh"
fault_shim
cd "$SCRATCH" || fail "cd"

# Malformed lists are errors at their line.
expect_status 1 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --ignore_error=,ENOSPX
grep -q "ignore_error=,ENOSPX: 'ENOSPX' is not an errno" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "bad errno name"; }
expect_status 1 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --ignore_error=EIO,EIO,EIO,EIO
grep -q "at most three lists" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "four lists"; }
expect_status 0 "$IOWL" --parse-only --name=x --ioengine=null --size=1m --ignore_error=EAGAIN,ENOSPC:122

# EIO with continue_on_error=read: let through (fio's non-fatal set), every read done.
truncate -s 1m iowl-fault.dat
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=262144 "$IOWL" --name=e --filename=iowl-fault.dat \
	--rw=read --bs=64k --ioengine=psync --continue_on_error=read --output-format=json > e.json 2> e.err
[ "$(jget e.json jobs.0.read.total_ios)" = 15 ] && [ "$(jget e.json jobs.0.total_err)" = 1 ] ||
	{ cat e.err; fail "EIO with continue_on_error=read: $(jget e.json jobs.0.read.total_ios) reads, $(jget e.json jobs.0.total_err) errors"; }
# ignore_error=ENOSPC for reads replaces the list: EIO ends the job again.
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=262144 "$IOWL" --name=e --filename=iowl-fault.dat \
	--rw=read --bs=64k --ioengine=psync --ignore_error=ENOSPC --output-format=json > e2.json 2> e2.err
[ "$(jget e2.json jobs.0.read.total_ios)" -le 4 ] && [ "$(jget e2.json jobs.0.total_err)" = 1 ] ||
	{ cat e2.err; fail "EIO outside ignore_error's read list did not end the job"; }
# EIO by number in the list: let through.
LD_PRELOAD="$shim" IOWL_FAULT_EIO_OFFSET=262144 "$IOWL" --name=e --filename=iowl-fault.dat \
	--rw=read --bs=64k --ioengine=psync --ignore_error=ENOSPC:5 --output-format=json > e3.json 2> e3.err
[ "$(jget e3.json jobs.0.read.total_ios)" = 15 ] || { cat e3.err; fail "ignore_error=ENOSPC:5 did not let EIO through"; }

# ENOSPC on a small tmpfs.
[ "$(id -u)" = 0 ] || { echo "ignore_error ok (ENOSPC part skipped: needs root for a small tmpfs)"; exit 0; }
mkdir small && mount -t tmpfs -o size=1m tmpfs small 2>/dev/null || { echo "ignore_error ok (ENOSPC part skipped: cannot mount tmpfs)"; exit 0; }
on_exit "umount $SCRATCH/small"
enospc() { # out.json args...
	out=$1
	shift
	rm -f small/f
	truncate -s 2m small/f		# sparse: the writes run out of space, not the layout
	"$IOWL" --name=w --filename=small/f --size=2m --bs=64k --rw=write --ioengine=psync \
		--output-format=json "$@" > "$out" 2> "${out%.json}.err"
}
enospc c.json --continue_on_error=write
[ "$(jget c.json jobs.0.write.total_ios)" -le 16 ] && [ "$(jget c.json jobs.0.total_err)" = 1 ] &&
	[ "$(jget c.json jobs.0.error)" = 28 ] ||
	fail "continue_on_error=write went on after ENOSPC: $(jget c.json jobs.0.write.total_ios) writes, $(jget c.json jobs.0.total_err) errors (fio stops)"
enospc i.json --ignore_error=,ENOSPC
[ "$(jget i.json jobs.0.write.total_ios)" = 16 ] && [ "$(jget i.json jobs.0.total_err)" = 16 ] ||
	fail "ignore_error=,ENOSPC: $(jget i.json jobs.0.write.total_ios) writes, $(jget i.json jobs.0.total_err) errors; fio 16 and 16"
enospc o.json --ignore_error=,ENOSPC --continue_on_error=none
[ "$(jget o.json jobs.0.iowl.errors)" = 1 ] || fail "continue_on_error=none after ignore_error did not end the job"
if have_fio; then
	for a in "--continue_on_error=write" "--ignore_error=,ENOSPC" "--ignore_error=,ENOSPC --continue_on_error=none"; do
		rm -f small/f
		truncate -s 2m small/f
		# shellcheck disable=SC2086
		fio --name=w --filename=small/f --size=2m --bs=64k --rw=write --ioengine=psync $a \
			--output-format=json --output=f.json > /dev/null 2>&1
		sed -n '/^{/,$p' f.json > fj.json
		rm -f small/f
		# shellcheck disable=SC2086
		enospc w.json $a
		# Went on (32 writes issued, 16 failing) or stopped at the first ENOSPC: the same in both.
		fw=$(jget fj.json jobs.0.write.total_ios) iw=$(jget w.json jobs.0.write.total_ios)
		[ $((fw > 20)) = $((iw + $(jget w.json jobs.0.iowl.errors) > 20)) ] ||
			fail "$a: fio issued $fw writes, iowl $iw (and $(jget w.json jobs.0.iowl.errors) errors)"
	done
fi
echo "ignore_error ok"
