#!/bin/sh
# SPDX-License-Identifier: MIT
# The HTML reports in a real browser: headless Chromium loads each one from a file, with no
# network, and renders it with no console error; the screenshot is not blank and shows the
# plots' own colours (the SVG series and the heat map were drawn, at a size above zero).
. "$(dirname "$0")/../lib.sh"
command -v chromium >/dev/null 2>&1 || skip "chromium not found (apt-get install chromium)"
PNGCHECK=$(cd "$HELPERS" && pwd)/pngcheck
[ -x "$PNGCHECK" ] || fail "no $PNGCHECK (make func builds it)"
cd "$SCRATCH" || fail "no scratch directory"
job="--name=t --ioengine=null --size=1g --bs=4k --eta=never"

# The pages are shot together: one browser start-up (seconds of CPU each) loads a page that holds
# each report in its own 900x1600 frame, side by side; the console is checked once (a message
# names its page) and the pixels of each frame apart.
pages=""
shot() { pages="$pages $*;"; } # PAGE COLOURS...: shoot PAGE and look for COLOURS in it
# (throttled: two seconds of data need no spinning CPU)
expect_status 0 "$IOWL" $job --rw=randrw --rate_iops=2000 --time_based --runtime=2 \
	--output-format=json+ \
	--output=run.json --report=run.html
shot run.html 0072b2 d55e00
expect_status 0 "$IOWL" $job --rw=randread --runtime=1 --sweep iodepth=1,2,4 --report=sweep.html
shot sweep.html 0072b2
cat > hot.ini <<EOF
[hot]
ioengine=null
size=1g
rw=randread
bs=4k
random_distribution=zoned:90/10:10/90
EOF
expect_status 0 "$IOWL" --analyze=50000 hot.ini --report=hot.html
shot hot.html 086b9b
if have_fio; then
	fio --name=f --ioengine=null --size=256m --rw=randread --bs=4k --output-format=json+ \
		--output=fp.json > /dev/null 2>&1 || fail "fio json+"
	expect_status 0 "$IOWL" report fp.json run.json -o fio.html
	shot fio.html 0072b2
fi
{
	echo '<!DOCTYPE html><html><body style="margin:0">'
	x=0
	echo "$pages" | tr ';' '\n' | while read -r page colours; do
		[ -n "$page" ] || continue
		echo "<iframe src=\"$page\" style=\"position:absolute;left:${x}px;top:0;width:900px;height:1600px;border:0\"></iframe>"
		x=$((x + 900))
	done
	echo '</body></html>'
} > all.html
n=$(grep -c '<iframe' all.html)
net=""
# No network at all where a network namespace can be made (root); the flags say the same.
unshare -n true 2>/dev/null && net="unshare -n"
$net timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$SCRATCH/profile" --enable-logging=stderr --v=0 \
	--screenshot="$SCRATCH/all.png" --window-size=$((900 * n)),1600 "file://$SCRATCH/all.html" \
	> all.log 2>&1
[ -s all.png ] || { cat all.log; fail "no screenshot"; }
# Chromium's own "[Intervention] Slow network is detected" console line comes from a machine
# too loaded to render in time (it names no URL of the page): not the page's error.
if grep -E 'Uncaught|CONSOLE|net::ERR_|Failed to load' all.log | grep -v 'Slow network is detected'; then
	fail "the browser logged an error (above)"
fi
# (one pngcheck for every frame: the screenshot decoded once)
x=0 crops="" frames=""
for p in $(echo "$pages" | tr ' ;' ':\n' | sed 's/^://'); do
	page=${p%%:*} colours=$(echo "${p#*:}" | tr ':' ' ')
	[ -n "$page" ] || continue
	crops="$crops --crop $x,0,900,1600 $colours" frames="$frames $page at $x,0;"
	x=$((x + 900))
done
"$PNGCHECK" all.png $crops || fail "a page did not pass (above; the frames:$frames)"
echo "report_browser: ok"
