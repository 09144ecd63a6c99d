#!/bin/sh
# SPDX-License-Identifier: MIT
# The HTML report (--report, iowl report): well-formed pages with the plots each kind of run has
# data for and no others, the summary's figures from the JSON, fio 3's json and json+ drawn too,
# and bad input refused with the file and line.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"
CHECK="python3 $(cd "$(dirname "$0")/.." && pwd)/report_check.py"
cd "$SCRATCH" || fail "no scratch directory"
job="--name=t --ioengine=null --size=1g --bs=4k --eta=never"
# The runs that only need their seconds of data sleep between IOs instead of spinning a CPU
# (rate-limited), and run at once, each in the background with its status in NAME.rc: they are
# checked below.  The curve's points spin (the null engine's maximum, then fractions of it): a
# fifth of a second each is enough for a page that must say what its JSON says.
rjob="$job --rate_iops=2000"
bgrun() { # NAME ARGS...: iowl ARGS, stderr in NAME.err, status in NAME.rc
	n=$1
	shift
	("$IOWL" "$@" > /dev/null 2> "$n.err"; echo $? > "$n.rc") &
}
ran() { # NAME: the background run NAME exited 0
	[ "$(cat "$1.rc")" = 0 ] || { cat "$1.err"; fail "the $1 run exited $(cat "$1.rc")"; }
}
bgrun run $rjob --rw=randrw --time_based --runtime=3 --ramp_time=1 \
	--output-format=json+ --output=run.json --report=run.html
bgrun r $rjob --rw=randread --runtime=2 --time_based --output-format=json --output=r.json
bgrun lines $rjob --rw=randread --time_based --runtime=2 --status-interval=500ms \
	--output-format=json --output=lines.json
bgrun ss $rjob --rw=randread --time_based --runtime=4 --ss=iops:50% --ss_dur=2s \
	--output-format=json --output=ss.json --report=ss.html
bgrun ramp $rjob --rw=randread --numjobs=3 --time_based --runtime=3 \
	--worker_ramp=1s --output-format=json --output=ramp.json --report=ramp.html
bgrun curve $job --rw=randread --time_based --runtime=200ms --curve=25,50,100 --report=curve.html \
	--output-format=json --output=curve.json
wait

# A run: its own page and the one drawn later from its saved JSON (json+) say the same; the
# run's own page adds where its IOs land (the pattern, as --analyze sees it).
ran run
# (latency over time wherever the series has a percentile: a busy machine may leave none)
$CHECK run.html --json run.json --expect throughput --expect histogram \
	--expect percentiles --absent worker-ramp --absent iostat-ios \
	--series "write IOPS" --no-series "trim IOPS" --text=--report=run.html \
	--expect heatmap --expect concentration || fail "run.html"
grep -q 'class="band"' run.html || fail "run.html: the ramp is not shaded"
expect_status 0 "$IOWL" report run.json -o saved.html
$CHECK saved.html --json run.json --expect throughput --expect histogram || fail "saved.html"
[ "$(grep -c '<svg' run.html)" = "$(( $(grep -c '<svg' saved.html) + 2 ))" ] ||
	fail "saved.html has other plots"
jget run.json 'jobs.0.iowl.intervals.points.0.read.clat_p999_ns' > /dev/null || fail "no p99.9 in the series"
jget run.json 'iowl.host.cpus' > /dev/null || fail "no iowl.host in the JSON"

# The pattern drawn for the page writes no iolog: write_iolog holds the run's 1024 IOs only.
expect_status 0 "$IOWL" --name=w --ioengine=null --size=4m --bs=4k --rw=read --eta=never \
	--write_iolog=w.log --report=w.html
[ "$(grep -c ' read ' w.log)" = 1024 ] || fail "write_iolog has $(grep -c ' read ' w.log) reads, not 1024"

# Plain json: no bins, so no histogram; a read-only job draws no write line.
ran r
expect_status 0 "$IOWL" report r.json --output=r.html
$CHECK r.html --json r.json --expect throughput --expect percentiles --absent histogram \
	--no-series "write IOPS" || fail "r.html"

# --status-interval JSON lines, with the final document and without it (a run cut short).
ran lines
grep '"interval"' lines.json > only-lines.json
expect_status 0 "$IOWL" report only-lines.json -o lines.html
# A busy machine may leave intervals without IO: latency is drawn when one has a p50.
lat=$(python3 -c 'import json,sys
print(any(r.get("read", {}).get("clat_ns", {}).get("p50", 0) > 0
          for l in open(sys.argv[1]) for r in json.loads(l)["jobs"]))' only-lines.json)
if [ "$lat" = True ]; then want=--expect; else want=--absent; fi
$CHECK lines.html --expect throughput $want latency --absent histogram || fail "lines.html"
n=$(grep -c '"interval"' only-lines.json)
grep -q "data-n=\"$n\"" lines.html || fail "lines.html: the series has not the $n intervals"

# A steady-state window, shaded where it was attained.
ran ss
if [ "$(jget ss.json jobs.0.iowl.steadystate.attained)" = true ]; then
	grep -q '>steady state<' ss.html || fail "ss.html: the steady-state window is not shaded"
fi

# A worker ramp.
ran ramp
$CHECK ramp.html --expect worker-ramp || fail "ramp.html"

# A sweep (with its USL fit), a curve (its knee), an analysis (the heat map, the concentration).
expect_status 0 "$IOWL" $job --rw=randread --runtime=1 --sweep iodepth=1,2,4,8 --report=sweep.html \
	--output-format=json --output=sweep.json
$CHECK sweep.html --json sweep.json --expect sweep-iops --expect sweep-latency --expect usl \
	--absent throughput || fail "sweep.html"
grep -q 'σ=' sweep.html || fail "sweep.html: no sigma"
ran curve
$CHECK curve.html --json curve.json --expect curve || fail "curve.html"
expect_status 0 "$IOWL" report curve.json -o curve2.html
$CHECK curve2.html --expect curve || fail "curve2.html"
cat > hot.ini <<EOF
[hot]
ioengine=null
size=1g
rw=randread
bs=4k
random_distribution=zoned:90/10:10/90
EOF
expect_status 0 "$IOWL" --analyze=100000 hot.ini --report=hot.html --output-format=json --output=hot.json
$CHECK hot.html --json hot.json --expect heatmap --expect concentration || fail "hot.html"
# 90 % of the IOs on the first 10 % of the region: the heat map's lowest tenth holds them.
python3 - hot.json <<'EOF' || fail "hot.json: the heat map does not show the hot band"
import json, sys
a = json.load(open(sys.argv[1]))["analysis"][0]
rows = a["heatmap"]["counts"]
low = sum(map(sum, rows[:len(rows) // 10 + 1]))
total = sum(map(sum, rows))
assert total == a["ios"], (total, a["ios"])
assert 0.85 < low / total < 0.95, low / total
c = a["concentration"]["curve"]
assert c[-1]["blocks_pct"] == 100 and abs(c[-1]["ios_pct"] - 100) < 1e-9, c[-1]
EOF

# fio 3's own JSON: json+ has the histogram, json not; several files side by side.
if have_fio; then
	fio --name=f --ioengine=null --size=256m --rw=randrw --bs=4k --output-format=json+ \
		--output=fp.json > /dev/null 2>&1 || fail "fio json+"
	fio --name=f --ioengine=null --size=256m --rw=randread --bs=4k --output-format=json \
		--output=fj.json > /dev/null 2>&1 || fail "fio json"
	expect_status 0 "$IOWL" report fp.json -o fp.html
	$CHECK fp.html --json fp.json --expect histogram --expect percentiles --absent throughput ||
		fail "fp.html"
	expect_status 0 "$IOWL" report fj.json -o fj.html
	$CHECK fj.html --json fj.json --expect percentiles --absent histogram \
		--no-series "write, percentiles reported" || fail "fj.html"
	expect_status 0 "$IOWL" report fj.json run.json fp.json -o cmp.html
	$CHECK cmp.html --json fj.json --json run.json --json fp.json --expect compare || fail "cmp.html"
else
	echo "fio 3 not installed: fio's JSON not drawn (apt-get install fio)"
fi

# Bad input: the file and line, exit 1, no page.
printf '{\n "jobs": [\n }\n' > bad.json
expect_status 1 "$IOWL" report bad.json -o bad.html
grep -q 'bad.json:3:' "$SCRATCH/err" || fail "no FILE:LINE for bad JSON: $(cat "$SCRATCH/err")"
echo '{"x": 1}' > other.json
expect_status 1 "$IOWL" report other.json -o bad.html
grep -q "other.json:1: neither iowl's nor fio's" "$SCRATCH/err" || fail "other.json: $(cat "$SCRATCH/err")"
[ ! -e bad.html ] || fail "a page was written from bad input"
expect_status 1 "$IOWL" report run.json
expect_status 1 "$IOWL" report missing.json -o bad.html
expect_status 1 "$IOWL" $job --rw=read --report=/nonexistent/dir/x.html
expect_status 1 "$IOWL" $job --rw=read --parse-only --report=p.html
grep -q "parse-only runs nothing to draw" "$SCRATCH/err" || fail "--parse-only --report: $(cat "$SCRATCH/err")"
echo "report: ok"
