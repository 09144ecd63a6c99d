#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's reporting options: unified_rw_reporting (none, mixed, both; 0, 1), significant_figures
# and unit_base, in JSON, normal and terse output, compared with fio where it is installed.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
job="--name=a --ioengine=null --size=16m --rw=randrw --bs=4k"

# The job object's keys from "read" to "job_runtime", in order.
dirkeys() {
	python3 -c 'import json, sys
k = list(json.load(open(sys.argv[1]))["jobs"][0].keys())
print(" ".join(k[k.index("job options") + 1:k.index("job_runtime")]))' "$1"
}
command -v python3 > /dev/null 2>&1 || skip "python3 is needed to read the JSON's key order"

for how in none mixed both 0 1; do
	"$IOWL" --output-format=json --eta=never $job --unified_rw_reporting=$how > u.json ||
		fail "unified_rw_reporting=$how"
	case $how in
	none|0) want="read write trim sync" ;;
	mixed|1) want="mixed" ;;
	both) want="read write trim sync mixed" ;;
	esac
	[ "$(dirkeys u.json)" = "$want" ] || fail "unified_rw_reporting=$how: keys $(dirkeys u.json)"
	if have_fio && ! fio_kept unified_rw_reporting=$how "$want"; then
		fio --output-format=json --output=f.json $job --unified_rw_reporting=$how > /dev/null ||
			fail "fio unified_rw_reporting=$how"
		[ "$(dirkeys f.json)" = "$want" ] || fail "fio unified_rw_reporting=$how: keys $(dirkeys f.json)"
		fio_keep unified_rw_reporting=$how "$want"
	fi
	case $how in
	mixed|1)
		[ "$(jget u.json jobs.0.mixed.io_bytes)" = 16777216 ] &&
		[ "$(jget u.json jobs.0.mixed.total_ios)" = 4096 ] &&
		[ "$(jget u.json jobs.0.mixed.clat_ns.N)" = 4096 ] ||
			fail "mixed: not the sum of the directions" ;;
	both)
		r=$(jget u.json jobs.0.read.total_ios) w=$(jget u.json jobs.0.write.total_ios)
		[ "$(jget u.json jobs.0.mixed.total_ios)" = $((r + w)) ] &&
		[ "$(jget u.json jobs.0.mixed.clat_ns.N)" = $((r + w)) ] &&
		[ "$(jget u.json jobs.0.mixed.io_bytes)" = 16777216 ] ||
			fail "both: mixed is not read + write" ;;
	esac
done

# The rate samples add up as fio's: read's and write's minimums, maximums and means summed.
"$IOWL" --output-format=json --eta=never --name=s --ioengine=null --size=16m --rw=randrw \
	--rate_iops=1000,500 --runtime=2 --time_based --unified_rw_reporting=both > s.json ||
	fail "both with a rate"
for k in iops_samples iops_max bw_samples; do
	a=$(jget s.json jobs.0.read.$k) b=$(jget s.json jobs.0.write.$k)
	[ "$(jget s.json jobs.0.mixed.$k)" = $((a + b)) ] || fail "both: mixed $k is not $a + $b"
done
approx "$(jget s.json jobs.0.mixed.iops_mean)" \
	"$(awk -v a="$(jget s.json jobs.0.read.iops_mean)" -v b="$(jget s.json jobs.0.write.iops_mean)" 'BEGIN { print a + b }')" 0.01 ||
	fail "both: mixed iops_mean is not the sum"

# Normal output: "mixed:" and "MIXED:" lines; terse: the sum in the read fields.
"$IOWL" --eta=never $job --unified_rw_reporting=mixed > m.txt || fail "mixed text"
grep -q "^  mixed: IOPS=" m.txt && grep -q "^  MIXED: bw=.*io=16.0MiB" m.txt &&
	! grep -q "^  read:\|READ:" m.txt || { cat m.txt; fail "mixed: the normal output"; }
"$IOWL" --eta=never $job --unified_rw_reporting=both > b.txt || fail "both text"
grep -q "^  read: IOPS=" b.txt && grep -q "^  mixed: IOPS=" b.txt && grep -q "^   READ: " b.txt &&
	grep -q "^  MIXED: bw=.*io=16.0MiB" b.txt || { cat b.txt; fail "both: the normal output"; }
"$IOWL" --eta=never --minimal $job --unified_rw_reporting=mixed > m.terse || fail "mixed terse"
# (one block of direction fields, no write block: 41 fields fewer than a normal line)
[ "$(cut -d';' -f6 m.terse)" = 16384 ] || fail "mixed terse: read_kb $(cut -d';' -f6 m.terse)"
[ "$(tr ';' '\n' < m.terse | wc -l)" = 80 ] || fail "mixed terse: $(tr ';' '\n' < m.terse | wc -l) fields"
if have_fio && ! fio_kept mixed terse 16384 80; then
	fio --minimal $job --unified_rw_reporting=mixed > f.terse || fail "fio mixed terse"
	[ "$(cut -d';' -f6 f.terse)" = 16384 ] && [ "$(tr ';' '\n' < f.terse | wc -l)" = 80 ] ||
		fail "fio's mixed terse differs from this test"
	fio_keep mixed terse 16384 80
fi

# significant_figures: the sizes of the normal output, the same digits as fio's.
for n in 2 4 6; do
	"$IOWL" --eta=never --name=g --ioengine=null --size=64m --significant_figures=$n > g.txt ||
		fail "significant_figures=$n"
	got=$(grep -o "io=[^,]*" g.txt | head -n 1)
	case $n in
	2) want="io=64MiB (67MB)" ;;
	4) want="io=64.0MiB (67.1MB)" ;;
	6) want="io=65536KiB (67109kB)" ;;
	esac
	[ "$got" = "$want" ] || fail "significant_figures=$n: '$got', fio prints '$want'"
	if have_fio && ! fio_kept significant_figures=$n "$want"; then
		f=$(fio --name=g --ioengine=null --size=64m --significant_figures=$n | grep -o "io=[^,]*" | head -n 1)
		[ "$f" = "$want" ] || fail "fio significant_figures=$n printed '$f'"
		fio_keep significant_figures=$n "$want"
	fi
done
expect_status 1 "$IOWL" --parse-only --name=g --ioengine=null --size=1m --significant_figures=11

# unit_base=1: bandwidths in bits, sizes still in bytes, JSON unchanged.
"$IOWL" --eta=never --name=b --ioengine=null --size=64m --unit_base=1 > ub.txt || fail "unit_base=1"
grep -q "^  read: IOPS=[^,]*, BW=[0-9.]*[KMGT]ibit/s ([0-9.]*[kMGT]bit/s)(64.0MiB/" ub.txt &&
	grep -q "^   READ: bw=[0-9.]*[KMGT]ibit/s ([0-9.]*[kMGT]bit/s), .*io=64.0MiB" ub.txt ||
	{ cat ub.txt; fail "unit_base=1: the normal output"; }
"$IOWL" --eta=never --output-format=json --name=b --ioengine=null --size=64m --unit_base=1 > ub.json ||
	fail "unit_base=1 json"
[ "$(jget ub.json jobs.0.read.io_bytes)" = 67108864 ] || fail "unit_base=1 changed the JSON"
exit 0
