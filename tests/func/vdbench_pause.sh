#!/bin/sh
# pause= waits between runs: inside one iowl run as the next run's startdelay (its intervals are
# not the next run's: vdbench's lines start after it), between steps as a sleep; a signal during
# either ends iowl within a second with the signal's status.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 16m lun || fail "truncate"
map=--vdbench-lun=/dev/sdb=$SCRATCH/lun
# two runs of 2 s with 1 s between them: rd2's first interval ends 2 s after rd1's last
cat > phases.vdb <<'VDB'
sd=sd1,lun=/dev/sdb
wd=wd1,sd=sd1
rd=rd1,wd=wd1,iorate=500,elapsed=2,interval=1,pause=1
rd=rd2,wd=wd1,iorate=500,elapsed=2,interval=1
VDB
# A signal in the pause between a run and a sweep (two steps) ends iowl at once.
cat > steps.vdb <<'VDB'
sd=sd1,lun=/dev/sdb
wd=wd1,sd=sd1
rd=rd1,wd=wd1,iorate=500,elapsed=2,interval=1,pause=60
rd=rd2,wd=wd1,iorate=max,elapsed=2,interval=1,forthreads=(1,2)
VDB
sed 's/pause=1$/pause=60/' phases.vdb > pause60.vdb
# (both started at once, beside the timed run below: each waits in its pause until judged)
for f in steps pause60; do
	"$IOWL" --eta=never --vdbench-output "$map" $f.vdb > $f.out 2> $f.err &
	eval "pid_$f=$!"
	on_exit "kill $! 2> /dev/null"
done

"$IOWL" --eta=never --vdbench-output --output-format=json --output=out.json "$map" phases.vdb > lines.txt 2> err ||
	{ cat err; fail "run"; }
secs() { # the time of day of the first line of run $1's interval $2, in seconds
	awk -v r="$1" -v k="$2" '/Starting RD=/ { run = $3 } $2 == k && run ~ "^RD=" r ";" {
		split($1, t, ":"); print t[1] * 3600 + t[2] * 60 + t[3]; exit }' lines.txt
}
[ "$(awk '$2 ~ /^[0-9]+$/ && $1 ~ /:/' lines.txt | wc -l)" = 4 ] || { cat lines.txt; fail "not two intervals per run"; }
gap=$(awk -v a="$(secs rd1 2)" -v b="$(secs rd2 1)" 'BEGIN { print b - a }')
awk -v g="$gap" 'BEGIN { exit !(g >= 1.9 && g < 3.5) }' || { cat lines.txt; fail "rd2's first interval ends $gap s after rd1's last, expected 2 (1 s of pause and 1 s)"; }
[ "$(jget out.json 'jobs.1.job options.startdelay')" = 1 ] || fail "no startdelay=1 for rd2"

for f in steps pause60; do
	eval "pid=\$pid_$f"
	# wait for the first run's average line, then signal in the pause
	i=0
	while ! grep -q ' avg_' $f.out 2>/dev/null && [ "$i" -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.3
	t0=$(date +%s%N)
	kill -INT $pid
	wait $pid
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$rc" = 130 ] || { cat $f.err; fail "$f: status $rc after SIGINT in the pause, expected 130"; }
	[ "$ms" -lt 1500 ] || fail "$f: iowl took $ms ms to stop in the pause"
done
echo "pause= between runs and steps, and a signal in it, ok"
