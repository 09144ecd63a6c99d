#!/bin/sh
# The include graph between modules (scripts/include-graph.sh) has no circle at all (issue 18:
# the job's circle through its option parsers, the run's through the reports and the last one,
# the run and its MPI ranks, are gone), each module named below is checked by name, and the
# script finds a circle where there is one.
. "$(dirname "$0")/../lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
graph="$root/scripts/include-graph.sh"
cd "$SCRATCH" || fail "cd"
# The edges, then the circles.
"$graph" > edges || fail "include-graph.sh"
"$graph" --check > out 2> err
circled=" $(tail -n +2 err | tr '\n' ' ') "
for m in verify value value_pattern worker cli progress signals job job_opts options stats \
	result report interval diagnose assert analyze analyze_run curve sweep metrics vdbench ranks run; do
	case $circled in *" $m "*) cat err; fail "a circle through $m" ;; esac
done
# The circles left, as modules (none): any module in a circle is new.
known=""
for m in $circled; do
	case " $(echo $known) " in
	*" $m "*) ;;
	*) cat err; fail "module $m is in a circle (scripts/include-graph.sh --check $m)" ;;
	esac
done
grep -q '^options value$' edges || fail "options -> value is not in the graph"
grep -q '^options verify$' edges && fail "options still includes verify.h"
grep -q '^job verify$' edges && fail "job still includes verify.h"
# The option table fills struct job_opts (job_opts.h) and knows nothing of the job.
grep -q '^options job_opts$' edges || fail "options -> job_opts is not in the graph"
grep -q '^options job$' edges && fail "options includes job.h"
# The results are a type of their own: the reports print them, the run fills them.
grep -q '^report result$' edges || fail "report -> result is not in the graph"
grep -q '^report run$' edges && fail "report includes run.h"
grep -q '^interval report$' edges && fail "interval includes report.h"
# The ranks act on what the run hands them (struct ranks_run), not on the run.
grep -q '^ranks run$' edges && fail "ranks includes run.h"
# A copy of the tree with one more include: the circle through verify is reported.
mkdir -p t/scripts && cp "$graph" t/scripts/ && cp -r "$root/src" "$root/include" t/ || fail "copy"
sed -i 's|#include "iowl/job.h"|#include "iowl/job.h"\n#include "iowl/verify.h"|' t/src/job.c
t/scripts/include-graph.sh --check verify > out 2> err && fail "the circle job -> verify -> job was not found"
grep -q 'job' err && grep -q 'verify' err || { cat err; fail "the circle does not name job and verify"; }
exit 0
