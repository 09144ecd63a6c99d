#!/bin/sh
# SPDX-License-Identifier: MIT
# cgroup= and cgroup_nodelete, fio 3.33's meaning, beside fio: the job's thread joins the group of
# that name in the first cgroup v1 blkio or cgroup v2 hierarchy of /proc/mounts (made when
# missing, removed after the run unless cgroup_nodelete; one that existed stays).  Proof that the
# IO ran inside it: the group's blkio.throttle.io_serviced counts exactly the job's 1024 writes
# to the loop device (the counters run once a throttle rule exists: one far above the rate).  On
# cgroup v2, where a thread cannot have a block IO group of its own, it is refused with that
# reason: shown in a mount namespace without the v1 blkio hierarchy.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to make control groups"
cg=$(awk '($3 == "cgroup" && $4 ~ /blkio/) || $3 == "cgroup2" { print $3, $2; exit }' /proc/mounts)
case $cg in
"cgroup "*) mnt=${cg#cgroup } ;;
*) mnt="" ;;
esac
loop_device 64m
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
g=iowl-cg-$$
job() { # TOOL GROUP ARGS...
	tool=$1 grp=$2
	shift 2
	"$tool" --name=cg --filename="$dev" --direct=1 --rw=write --bs=4k --size=4m --cgroup="$grp" \
		--output-format=terse "$@" > "$SCRATCH/out" 2> "$SCRATCH/err"
}
if [ -n "$mnt" ]; then
	on_exit "rmdir $mnt/$g $mnt/$g-fio $mnt/$g-made $mnt/$g-kept $mnt/$g-fkept 2>/dev/null"
	for t in iowl fio; do
		[ $t = fio ] && ! have_fio && continue
		tool=$IOWL grp=$g
		[ $t = fio ] && tool=fio grp=$g-fio
		mkdir "$mnt/$grp" || fail "mkdir $mnt/$grp"
		echo "$mm 1000000" > "$mnt/$grp/blkio.throttle.write_iops_device" || skip "no blkio throttle rules here"
		job "$tool" "$grp" || { cat "$SCRATCH/err"; fail "$t cgroup=$grp failed"; }
		n=$(awk -v d="$mm" '$1 == d && $2 == "Write" { print $3 }' "$mnt/$grp/blkio.throttle.io_serviced")
		[ "$n" = 1024 ] || fail "$t: the group counted '$n' writes to $dev, the job made 1024"
		[ -d "$mnt/$grp" ] || fail "$t removed $grp, which it did not make"
		rmdir "$mnt/$grp"
		# made by the job: removed after it, or kept with cgroup_nodelete=1 (and empty)
		grp=$g-made
		[ $t = fio ] && grp=$g-fmade
		job "$tool" "$grp" || { cat "$SCRATCH/err"; fail "$t cgroup=$grp failed"; }
		[ ! -d "$mnt/$grp" ] || fail "$t left $mnt/$grp it made"
		grp=$g-kept
		[ $t = fio ] && grp=$g-fkept
		job "$tool" "$grp" --cgroup_nodelete=1 || { cat "$SCRATCH/err"; fail "$t cgroup_nodelete failed"; }
		[ -d "$mnt/$grp" ] || fail "$t cgroup_nodelete=1: $mnt/$grp is gone"
		! grep -q . "$mnt/$grp/tasks" || fail "$t: threads left in $grp: $(cat "$mnt/$grp/tasks")"
		rmdir "$mnt/$grp"
	done
	# the thread's own group while it runs
	"$IOWL" --name=cg --filename="$dev" --rw=read --bs=4k --size=4m --rate_iops=100 \
		--runtime=20 --time_based --cgroup="$g" --cgroup_nodelete=1 > "$SCRATCH/out" 2>&1 &
	pid=$!
	i=0
	while ! grep -q . "$mnt/$g/tasks" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	tid=$(head -n 1 "$mnt/$g/tasks")
	kill $pid 2>/dev/null
	wait $pid
	[ -n "$tid" ] || { cat "$SCRATCH/out"; fail "no thread joined $g during the run"; }
	[ -n "$tid" ] && [ "$tid" != "$pid" ] || fail "the group's tasks during the run: '$tid' (iowl's pid $pid): not the job's own thread"
	grep -q "^$pid\$" "$mnt/$g/tasks" && fail "the whole process joined the group"
	rmdir "$mnt/$g"
fi
# a name that is no group, at its line
printf '[cg]\nfilename=%s\nsize=1m\ncgroup=../x\n' "$dev" > "$SCRATCH/bad.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/bad.fio"
grep -q "bad.fio:4: cgroup=../x" "$SCRATCH/err" || fail "cgroup=../x: $(cat "$SCRATCH/err")"
# cgroup v2 first: refused with the reason (a private mount namespace without the v1 blkio)
command -v unshare >/dev/null 2>&1 || skip "unshare not found: the cgroup v2 refusal not shown"
grep -q ' cgroup2 ' /proc/mounts || skip "no cgroup v2 mounted: its refusal not shown"
unshare -m sh -c "for m in \$(awk '\$3 == \"cgroup\" && \$4 ~ /blkio/ { print \$2 }' /proc/mounts); do umount \$m || exit 9; done
	exec \"$IOWL\" --parse-only --name=cg --filename=$dev --size=1m --cgroup=$g" > "$SCRATCH/out" 2> "$SCRATCH/err"
rc=$?
[ $rc = 9 ] && skip "cannot unmount the blkio hierarchy in a mount namespace"
[ $rc = 1 ] || fail "cgroup on cgroup v2: exit $rc, expected 1: $(cat "$SCRATCH/err")"
grep -q "cgroup=$g: refused on this machine: its first cgroup hierarchy (.*) is cgroup v2" "$SCRATCH/err" ||
	fail "cgroup on cgroup v2: $(cat "$SCRATCH/err")"
exit 0
