#!/bin/sh
# A test stopped by a signal (run-one.sh's timeout sends TERM, a person ^C) still runs its
# cleanups: loop devices are detached and the scratch directory removed, as on a normal exit.
. "$(dirname "$0")/../lib.sh"
lib=$(cd "$(dirname "$0")/.." && pwd)/lib.sh
for sig in TERM INT HUP; do
	mark="$SCRATCH/held.$sig"
	: > "$mark"
	cat > "$SCRATCH/t.sh" <<EOT
. "$lib"
on_exit "rm -f '$mark'"
echo "\$SCRATCH" > "$SCRATCH/inner.$sig"
echo ready > "$SCRATCH/ready.$sig"
while :; do sleep 0.05; done
EOT
	# A background job starts with INT ignored (POSIX): give the inner test the default, as at a terminal.
	env --default-signal=INT sh "$SCRATCH/t.sh" &
	pid=$!
	i=0
	while [ ! -e "$SCRATCH/ready.$sig" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -e "$SCRATCH/ready.$sig" ] || fail "inner test did not start"
	kill -s "$sig" "$pid"
	wait "$pid"
	st=$?
	[ -e "$mark" ] && fail "SIG$sig: the test's cleanup did not run (status $st)"
	[ -d "$(cat "$SCRATCH/inner.$sig")" ] && fail "SIG$sig: scratch directory left behind"
	[ "$st" -ne 0 ] || fail "SIG$sig: status 0 for a stopped test"
done
exit 0
