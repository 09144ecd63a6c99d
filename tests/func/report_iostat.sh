#!/bin/sh
# SPDX-License-Identifier: MIT
# The report's device plots (--iostat) on a loop device: iowl.iostat in the JSON holds every
# interval's device view, the page draws r/s, w/s, aqu-sz, %util and await per device from it
# (and from the JSON lines alone), and the diagnostics at the top link to plots that exist.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"
CHECK="python3 $(cd "$(dirname "$0")/.." && pwd)/report_check.py"
loop_device 256M
cd "$SCRATCH" || fail "no scratch directory"

# A synchronous engine asked for iodepth 8: the sync_iodepth diagnostic (one IO in flight per
# clone), shown on the device plot.  (Throttled, 1.5 s in intervals of 500 ms: the plots need
# intervals, not a CPU spent on reads for 3 s.)
expect_status 0 "$IOWL" --name=q --filename="$dev" --ioengine=psync --iodepth=8 --direct=1 \
	--rw=randread --bs=4k --time_based --runtime=1500ms --iostat=500ms --rate_iops=2000 --eta=never \
	--output-format=json --output=io.json --report=io.html
$CHECK io.html --expect iostat-ios --expect iostat-queue --expect iostat-await \
	--series "$name r/s" --series "$name %util" || fail "io.html"
n=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if "jobs" in d and "fio version" in d:
        print(len(d["iowl"]["iostat"]))' io.json)
[ "$n" -ge 2 ] || fail "iowl.iostat has $n intervals"
# Every link of the diagnostics goes to a plot of the page.
python3 - io.html <<'EOF' || fail "io.html: a diagnostic links nowhere"
import re, sys
s = open(sys.argv[1]).read()
links = re.findall(r'href="#([^"]+)"', s)
assert links, "no diagnostics linked"
for l in links:
    assert 'id="%s"' % l in s, l
EOF
grep -q 'sync_iodepth' io.html || fail "io.html: no sync_iodepth diagnostic"
# The JSON lines alone draw the same device plots.
grep '"interval"' io.json > lines.json
expect_status 0 "$IOWL" report lines.json -o lines.html
$CHECK lines.html --expect iostat-ios --expect iostat-queue --series "$name r/s" || fail "lines.html"
echo "report_iostat: ok"
