#!/bin/sh
# directory= is put in front of every filename=, an absolute one too, as fio does (D//abs is
# D/abs); ':' separated directories go round the clones.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
mkdir d e || fail "mkdir"
abs="/iowl-directory-test.$$"
on_exit "rm -f $abs"
"$IOWL" --eta=never --name=a --directory=d --filename="$abs" --size=64k --rw=write > out 2> err ||
	{ cat err; fail "run"; }
[ -f "d$abs" ] || fail "directory=d filename=$abs did not create d$abs"
[ -e "$abs" ] && fail "directory=d filename=$abs wrote $abs itself"
"$IOWL" --eta=never --name=b --directory=d:e --numjobs=2 --size=64k --rw=write > out 2> err ||
	{ cat err; fail "run with two directories"; }
[ -f d/b.0.0 ] && [ -f e/b.1.0 ] || fail "directory=d:e: clones' files not d/b.0.0 and e/b.1.0 ($(ls d e | tr '\n' ' '))"
echo "directory applies to absolute file names"
