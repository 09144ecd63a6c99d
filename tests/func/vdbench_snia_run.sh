#!/bin/sh
# The SNIA Emerald hot-band vdbench script of the field notes, its times shortened (3 s, 1 s of
# warmup) and its Windows lun mapped to a scratch file, runs with vdbench's interval lines, and
# the IOs it did have the hot band's shape within their sampling error: the workloads' shares,
# 65.8 % reads and the four bands.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/snia.sh"

# (held to 3000 IOs per second per direction, to spare the tests beside it)
"$IOWL" --eta=never --output-format=json --output=run.json --vdbench-output "$map" \
	--set write_iolog="$SCRATCH/run.log" --set rate_iops=3000 snia.vdb > lines.txt 2> run.err ||
	{ cat run.err; fail "run"; }
grep -q 'Starting RD=rd1_hband; I/O rate: Uncontrolled MAX; elapsed=3 warmup=1; For loops: threads=8' lines.txt ||
	{ cat lines.txt; fail "vdbench's run line"; }
grep -q ' avg_2-3 ' lines.txt || { cat lines.txt; fail "vdbench's average line"; }
n=0
i=0
while read -r wd skew rd table; do
	r=$(jget run.json jobs.0.iowl.streams.$i.read.ios)
	w=$(jget run.json jobs.0.iowl.streams.$i.write.ios)
	echo "$wd $((r + w)) $r" >> run.streams
	n=$((n + r + w))
	i=$((i + 1))
done < streams.txt
[ "$n" -ge 1000 ] || skip "only $n IOs in 3 s: too busy a machine to judge shares"
while read -r wd c r; do
	skew=$(grep "^$wd " streams.txt | cut -d' ' -f2)
	close_to "$wd's share of the IOs in the run" "$(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.3f", 100 * c / n }')" "$skew" "$(tol "$skew" "$n")"
done < run.streams
close_to "reads in the run" "$(jget run.json jobs.0.read.total_ios | awk -v n="$n" '{ printf "%.3f", 100 * $1 / n }')" 65.8 "$(tol 65.8 "$n")"
check_bands run.log
echo "the SNIA hot band from vdbench's script ran: $n IOs with its shares and bands"
