#!/bin/sh
# Device figures per reporting group: fio 3.33 prints its disk stats (and JSON disk_util) once,
# over the whole run, and so does iowl; with stonewalled groups iowl adds each group's own figures
# (text "Disk stats of group N", JSON iowl.groups[].disk_util), over the phases the group ran in.
# Each group's reads are what its job read (the device's own counters), and they add up to the run's.
. "$(dirname "$0")/../lib.sh"
loop_device 64m
cd "$SCRATCH" || fail "cd"
cat > two.ini <<EOF2
[global]
filename=$dev
direct=1
ioengine=psync
[seq]
rw=read
bs=64k
size=16m
[rand]
stonewall
rw=randread
bs=4k
number_ios=3000
EOF2
"$IOWL" --eta=never --output-format=json two.ini > two.json 2> err || { cat err; fail "json run"; }
[ "$(jget two.json disk_util)" = 1 ] || fail "disk_util: one device for the whole run"
[ "$(jget two.json iowl.groups)" = 2 ] || fail "iowl.groups: $(jget two.json iowl.groups) entries, not 2"
g0=$(jget two.json iowl.groups.0.disk_util.0.read_ios)
g1=$(jget two.json iowl.groups.1.disk_util.0.read_ios)
all=$(jget two.json disk_util.0.read_ios)
[ "$(jget two.json iowl.groups.1.groupid)" = 1 ] || fail "groupid"
[ "$(jget two.json iowl.groups.0.disk_util.0.name)" = "$name" ] || fail "group device name"
# 16 MiB in 64 KiB reads: 256 (the device may split none: max_sectors_kb is above 64 on a loop
# device); 3000 reads of 4 KiB.  Nothing else reads this device: exact, but for a stray udev probe.
approx "$g0" 256 2 || fail "group 0 read $g0 requests of the device, its job 256"
approx "$g1" 3000 1 || fail "group 1 read $g1 requests of the device, its job 3000"
[ "$all" -ge $((g0 + g1)) ] || fail "the run's $all reads are fewer than its groups' $g0 + $g1"
approx "$(jget two.json iowl.groups.0.disk_util.0.iowl.iostat.rareq-sz)" 64 1 || fail "group 0 rareq-sz"
approx "$(jget two.json iowl.groups.1.disk_util.0.iowl.iostat.rareq-sz)" 4 1 || fail "group 1 rareq-sz"
# Text: fio's one block at the end, and each group's under its run status.
"$IOWL" --eta=never two.ini > two.txt 2> err || { cat err; fail "text run"; }
[ "$(grep -c '^Disk stats (read/write):$' two.txt)" = 1 ] || { cat two.txt; fail "the run's disk stats block"; }
grep -A2 '^Run status group 1 ' two.txt | grep -q '^  Disk stats of group 1 (read/write):$' ||
	{ cat two.txt; fail "group 1's disk stats"; }
grep -q "^    $name: ios=\(29[0-9][0-9]\|30[0-9][0-9]\)/0," two.txt || { cat two.txt; fail "group 1's reads"; }
# One group: only the run's block, as fio.
"$IOWL" --eta=never --name=one --filename="$dev" --direct=1 --rw=read --bs=64k --size=1m > one.txt ||
	fail "one group"
grep -q "Disk stats of group" one.txt && fail "a single group printed its own disk stats"
echo "group disks ok (group 0: $g0 reads, group 1: $g1, run: $all)"
