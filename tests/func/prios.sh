#!/bin/sh
# Latency per IO priority in the JSON (fio 3.33's "prios") when cmdprio gives a job's IOs several
# priorities, and the thread's own priority (prio, prioclass) in the logs' priority column.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 64m data
base="--eta=never --output-format=json --filename=data --ioengine=libaio --iodepth=4 --randseed=3"
# read dir: the prios of jobs.0.DIR as "class/level:N ..." and the key of their figures
prios() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[2]]
out = []
for p in r.get("prios", []):
    k = [x for x in p if x.endswith("_ns")]
    out.append("%d/%d:%s:%d" % (p["prioclass"], p["prio"], k[0], p[k[0]]["N"]))
print(" ".join(out))' "$@"
}
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"

# cmdprio_percentage=30: reads and writes each split into the thread's priority (0/0) and
# cmdprio's (real time, 1/0), 30 % of them drawn at random.
"$IOWL" $base --name=p --rw=randrw --bs=4k --number_ios=8000 --cmdprio_percentage=30 > p.json ||
	fail "cmdprio run"
for d in read write; do
	set -- $(prios p.json $d | tr ' :' '  ')
	[ $# = 6 ] && [ "$1" = 0/0 ] && [ "$4" = 1/0 ] && [ "$2" = clat_ns ] ||
		fail "$d prios: $(prios p.json $d)"
	n=$(jget p.json jobs.0.$d.clat_ns.N)
	[ $(($3 + $6)) = "$n" ] || fail "$d prios add up to $(($3 + $6)), not $n"
	# 30 % of about 4000: a binomial's standard deviation is 29, so 0.25..0.35 is 5 of them
	awk -v a="$6" -v n="$n" 'BEGIN { exit !(a >= n * 0.25 && a <= n * 0.35) }' ||
		fail "$d: $6 of $n IOs got the priority, not about 30 %"
	# the two means weighted by their IOs are the direction's mean
	m=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[2]]
print(sum(p["clat_ns"]["mean"] * p["clat_ns"]["N"] for p in r["prios"]) / r["clat_ns"]["N"])' p.json $d)
	approx "$m" "$(jget p.json jobs.0.$d.clat_ns.mean)" 0.01 || fail "$d: weighted prio means $m"
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[2]]
sys.exit(not all("percentile" in p["clat_ns"] for p in r["prios"]))' p.json $d ||
		fail "$d prios without percentiles"
done

# cmdprio_bssplit with the thread's own class and level, lat_percentiles (the figures are the
# total latency, "lat_ns"), two clones summed: the thread's first, then the entries' in order.
"$IOWL" $base --name=b --rw=randread --bssplit=4k/50:8k/50 --number_ios=3000 --numjobs=2 \
	--group_reporting --cmdprio_bssplit=4k/50/3/2:8k/100/1/5 --prioclass=2 --prio=3 \
	--lat_percentiles=1 > b.json || fail "bssplit run"
set -- $(prios b.json read | tr ' :' '  ')
[ $# = 9 ] && [ "$1" = 2/3 ] && [ "$4" = 3/2 ] && [ "$7" = 1/5 ] && [ "$2" = lat_ns ] ||
	fail "bssplit prios: $(prios b.json read)"
[ $(($3 + $6 + $9)) = 6000 ] || fail "bssplit prios add up to $(($3 + $6 + $9))"
# every 8k read is 1/5 (about half), and half the 4k reads 3/2
awk -v a="$9" -v b="$6" 'BEGIN { exit !(a > 2700 && a < 3300 && b > 1200 && b < 1800) }' ||
	fail "bssplit shares: $(prios b.json read)"

# One priority only: no "prios", as fio (it needs two with IOs).
"$IOWL" $base --name=o --rw=randread --bs=4k --number_ios=500 --cmdprio_percentage=100 > o.json ||
	fail "one-priority run"
[ -z "$(prios o.json read)" ] || fail "prios with one priority: $(prios o.json read)"
"$IOWL" $base --name=n --rw=randread --bs=4k --number_ios=500 > n.json || fail "plain run"
[ -z "$(prios n.json read)" ] || fail "prios without cmdprio"

# The logs' priority of an IO without its own is the thread's (prioclass=2, prio=3: 0x4003).
"$IOWL" $base --name=l --rw=randread --bs=4k --number_ios=100 --prioclass=2 --prio=3 \
	--write_lat_log=l --log_prio=1 > /dev/null || fail "log_prio run"
awk -F', ' '$5 != "0x4003" { bad = 1 } END { exit bad || NR != 100 }' l_clat.1.log ||
	{ head -3 l_clat.1.log; fail "log_prio of the thread's priority"; }

# fio 3.33 reports the same priorities, in the same order, under the same keys.
command -v fio >/dev/null 2>&1 || skip "fio not installed (scripts/test-deps.sh): the comparison with fio"
fio --output-format=json --filename=data --ioengine=libaio --iodepth=4 --name=b --rw=randread \
	--bssplit=4k/50:8k/50 --number_ios=3000 --numjobs=2 --group_reporting \
	--cmdprio_bssplit=4k/50/3/2:8k/100/1/5 --prioclass=2 --prio=3 --lat_percentiles=1 \
	> fb.json 2> fio.err || fail "fio: $(cat fio.err)"
[ "$(prios fb.json read | sed 's/:[0-9]*\( \|$\)/ /g')" = "$(prios b.json read | sed 's/:[0-9]*\( \|$\)/ /g')" ] ||
	fail "fio's prios $(prios fb.json read), iowl's $(prios b.json read)"
exit 0
