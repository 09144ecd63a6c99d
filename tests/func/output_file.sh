#!/bin/sh
# --output: the file named is replaced only by complete results; a write error is said on stderr
# with status 2; a path that cannot be written stops the run before any IO with status 1.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
job="--name=o --ioengine=null --rw=randread --size=1m --output-format=json --eta=never"

# A path that cannot be written: status 1, said, and nothing run (the target is not made).
expect_status 1 "$IOWL" --name=o --filename="$SCRATCH/never" --rw=write --size=1m \
	--output="$SCRATCH/missing/o.json"
grep -q "missing/o.json" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "unopenable --output: no message"; }
[ ! -e "$SCRATCH/never" ] || fail "unopenable --output: the run did IO first"

# During the run the old results stay; at the end they are replaced, with the file's mode (the
# run throttled: unthrottled the null engine spun a CPU for the 2 s).
echo "old results" > o.json
chmod 640 o.json
# shellcheck disable=SC2086
"$IOWL" $job --runtime=2 --time_based --rate_iops=1000 --output=o.json 2> o.err &
pid=$!
sleep 0.5
[ "$(cat o.json)" = "old results" ] || fail "--output was truncated at the start of the run"
wait $pid || { cat o.err; fail "run with --output"; }
[ "$(jget o.json jobs.0.jobname)" = o ] || fail "--output: no results at the end"
[ "$(stat -c %a o.json)" = 640 ] || fail "--output: the file's mode became $(stat -c %a o.json)"
ls -a | grep -q '\.iowl-' && fail "--output: a temporary file was left"
[ -s o.err ] && { cat o.err; fail "--output: a successful run wrote to stderr"; }
# Through a symbolic link: the link stays, its target gets the results.
ln -s o.json link.json
# shellcheck disable=SC2086
"$IOWL" $job --output=link.json 2> o.err || { cat o.err; fail "run with --output to a link"; }
[ -L link.json ] || fail "--output replaced the symbolic link"
[ "$(jget o.json jobs.0.jobname)" = o ] || fail "--output through a link: no results"
# Not a regular file: written in place.
# shellcheck disable=SC2086
"$IOWL" $job --output=/dev/null 2> o.err || { cat o.err; fail "--output=/dev/null"; }

# A full file system: status 2, said on stderr, and the old file kept.
[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs (the rest passed)"
mkdir full
mount -t tmpfs -o size=64k tmpfs full 2>/dev/null || skip "cannot mount a tmpfs"
on_exit "umount $SCRATCH/full"
echo "old results" > full/o.json
dd if=/dev/zero of=full/fill bs=4k 2>/dev/null
# shellcheck disable=SC2086
"$IOWL" $job --output=full/o.json > /dev/null 2> o.err
rc=$?
[ "$rc" = 2 ] || { cat o.err; fail "ENOSPC on --output: status $rc, expected 2"; }
grep -q "No space left on device" o.err || { cat o.err; fail "ENOSPC on --output: not said on stderr"; }
[ "$(cat full/o.json)" = "old results" ] || fail "ENOSPC on --output: the old results were lost"
ls -a full | grep -q '\.iowl-' && fail "ENOSPC on --output: a temporary file was left"
echo "ENOSPC: $(cat o.err)"
# The other files a run writes: an iolog or a log cut short by ENOSPC fails the run, said.
rm -f full/o.json
"$IOWL" --name=o --ioengine=null --rw=randread --size=64m --write_iolog=full/io.log \
	--output-format=json > /dev/null 2> o.err
rc=$?
[ "$rc" = 2 ] || { cat o.err; fail "ENOSPC on write_iolog: status $rc, expected 2"; }
grep -q "write_iolog.*No space left on device" o.err || { cat o.err; fail "ENOSPC on write_iolog: not said"; }
rm -f full/io.log
"$IOWL" --name=o --ioengine=null --rw=randread --size=64m --write_lat_log=full/lat \
	--output-format=json > /dev/null 2> o.err
rc=$?
[ "$rc" = 2 ] || { cat o.err; fail "ENOSPC on write_lat_log: status $rc, expected 2"; }
grep -q "No space left on device" o.err || { cat o.err; fail "ENOSPC on write_lat_log: not said"; }
echo "--output ok"
