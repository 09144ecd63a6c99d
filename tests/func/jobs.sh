#!/bin/sh
# Every job file shipped under jobs/ passes --parse-only (devices named by IOWL_DEV* point at a scratch file).
. "$(dirname "$0")/../lib.sh"
top=$(pwd)
# Sparse and as large as the largest range the jobs read (100g): a smaller file would have to be
# laid out, and --parse-only checks that the layout fits the filesystem.
truncate -s 100g "$SCRATCH/dev" || skip "cannot create a sparse 100 GiB file in $SCRATCH"
export IOWL_DEV="$SCRATCH/dev"
for i in 1 2 3 4 5 6 7 8; do export IOWL_DEV$i="$SCRATCH/dev"; done
cd "$SCRATCH" || fail "cd"
n=0
for f in "$top"/jobs/*.ini; do
	"$IOWL" --parse-only "$f" > out 2> err || { cat err; fail "$(basename "$f") does not parse"; }
	n=$((n + 1))
done
# An unset variable in filename= is a clear error, not a run against something else.
unset IOWL_DEV
"$IOWL" --parse-only "$top/jobs/seek-range-8k-1g.ini" > out 2> err && fail "unset IOWL_DEV accepted"
grep -q "unset" err || { cat err; fail "unset variable message"; }
[ "$n" -ge 8 ] || fail "expected at least 8 job files, found $n"
echo "$n job files parse"
