#!/bin/sh
# dedupe_global: two jobs of fio's dedupe-global example share one working set, so blocks repeat
# across their files; without it each file's repeats stay inside it (counted by blkuniq, exactly).
. "$(dirname "$0")/../lib.sh"
BLKUNIQ=$(cd "$HELPERS" && pwd)/blkuniq
cd "$SCRATCH" || fail "cd"
uniq_of() { "$BLKUNIQ" 4096 "$@" | sed 's/.*unique \([0-9]*\).*/\1/'; }
for g in 1 0; do
	rm -f a.0.0 b.0.0
	printf '[global]\nioengine=libaio\niodepth=16\nsize=16m\ndedupe_mode=working_set\ndedupe_global=%s\ndedupe_percentage=50\nblocksize=4k\nrw=write\nbuffer_compress_percentage=50\ndedupe_working_set_percentage=50\n[a]\n[b]\n' $g > dg.fio
	"$IOWL" --eta=never dg.fio > out 2> err || { cat err; fail "dedupe_global=$g run"; }
	a=$(uniq_of a.0.0) b=$(uniq_of b.0.0) ab=$(uniq_of a.0.0 b.0.0)
	shared=$((a + b - ab))
	echo "dedupe_global=$g: a $a, b $b, both $ab unique blocks ($shared shared)"
	if [ $g = 1 ]; then
		# fio 3.33: 2672 + 2695 - 4103 = 1264 shared; iowl about 1640
		[ $shared -gt 1000 ] || fail "dedupe_global=1: only $shared blocks shared between the files"
	else
		[ $shared -lt 10 ] || fail "dedupe_global=0: $shared blocks shared between the files"
	fi
done
echo "dedupe_global shares the working set across jobs"
