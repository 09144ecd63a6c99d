#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's zones: zonemode=strided keeps each IO inside its zone (random ones too); the options that
# contradict it are refused as fio refuses them; zonemode=zbd and its options are refused with the
# reason, naming what the target is (a file; a block device whose queue/zoned says none).
# (The sequential strided order is compared with fio in tests/fio-diff/cases/zonemode-strided.fio.)
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"

# random IO in zones of 128k every 192k (64k done in each): no IO leaves its zone
"$IOWL" --eta=never --name=z --filename=z --size=1m --bs=4k --rw=randread --zonemode=strided \
	--zonesize=64k --zonerange=128k --zoneskip=64k --write_iolog=z.log > z.out 2>&1 ||
	{ cat z.out; fail "strided random run"; }
out=$(awk '$2 == "read" { n++; if ($3 % 196608 + $4 > 131072) bad++ } END { print n + 0, bad + 0 }' z.log)
[ "$out" = "256 0" ] || fail "strided randread: IOs, outside their zone: $out (expected 256 0)"
# each zone gets zonesize bytes before the next: 16 IOs in a row per zone
runs=$(awk '$2 == "read" { z = int($3 / 196608); if (z != last) { if (n) printf "%d ", n; n = 0 } n++; last = z }
	END { printf "%d\n", n }' z.log | tr ' ' '\n' | sort -u | tr '\n' ' ')
[ "$runs" = "16 " ] || fail "strided randread: runs per zone '$runs' (expected 16 each)"

# what fio refuses, refused; what fio ignores, a warning
expect_status 1 "$IOWL" --name=z --filename=z --size=1m --zonesize=64k --parse-only
grep -q "zonesize needs zonemode=strided" "$SCRATCH/err" || fail "zonesize alone: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --name=z --filename=z --size=1m --zonemode=strided --parse-only
grep -q "zonemode=strided needs zonesize" "$SCRATCH/err" || fail "strided alone: $(cat "$SCRATCH/err")"
"$IOWL" --name=z --filename=z --size=1m --zoneskip=64k --parse-only > /dev/null 2> w.err ||
	{ cat w.err; fail "zoneskip without strided: not run"; }
grep -q "zoneskip.*ignored (as fio)" w.err || fail "zoneskip without strided: no warning: $(cat w.err)"

# zonemode=zbd: refused, saying what the target is
expect_status 1 "$IOWL" --name=z --filename=z --size=1m --zonemode=zbd --parse-only
grep -q "zonemode=zbd needs a zoned block device: 'z' is not a block device" "$SCRATCH/err" ||
	fail "zbd on a file: $(cat "$SCRATCH/err")"
for o in max_open_zones=4 job_max_open_zones=2 zone_reset_threshold=0.5 zone_reset_frequency=0.1 \
	 ignore_zone_limits=1; do
	expect_status 1 "$IOWL" --name=z --filename=z --size=1m "--$o" --parse-only
	grep -q "'${o%%=*}' is only for zonemode=zbd, which needs a zoned block device" "$SCRATCH/err" ||
		fail "$o: $(cat "$SCRATCH/err")"
done
if [ "$(id -u)" = 0 ] && command -v losetup > /dev/null 2>&1; then
	loop_device 16m
	zoned=$(cat /sys/block/"$name"/queue/zoned)
	expect_status 1 "$IOWL" --name=z --filename="$dev" --size=1m --zonemode=zbd --parse-only
	grep -q "'$dev' is not zoned (/sys/dev/block/.*/queue/zoned: none" "$SCRATCH/err" ||
		fail "zbd on $dev (queue/zoned: $zoned): $(cat "$SCRATCH/err")"
else
	echo "not root: zbd on a loop device not checked"
fi
echo "zones: strided IO stays in its zones; zbd refused with the reason"
exit 0
