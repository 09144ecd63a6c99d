#!/bin/sh
# SPDX-License-Identifier: MIT
# The HTML reports in a real browser: headless Chromium loads each one from a file, with no
# network, and renders it with no console error; the screenshot is not blank and shows the
# plots' own colours (the SVG series and the heat map were drawn, at a size above zero).
. "$(dirname "$0")/../lib.sh"
command -v chromium >/dev/null 2>&1 || skip "chromium not found (apt-get install chromium)"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"
T=$(cd "$(dirname "$0")/.." && pwd)
cd "$SCRATCH" || fail "no scratch directory"
job="--name=t --ioengine=null --size=1g --bs=4k --eta=never"

# shot PAGE.html COLOURS...: screenshot PAGE, check the console and the pixels.
shot() {
	page=$1
	shift
	net=""
	# No network at all where a network namespace can be made (root); the flags say the same.
	unshare -n true 2>/dev/null && net="unshare -n"
	$net timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$SCRATCH/profile-$page" --enable-logging=stderr --v=0 \
		--screenshot="$SCRATCH/$page.png" --window-size=900,1600 "file://$SCRATCH/$page" \
		> "$page.log" 2>&1
	[ -s "$page.png" ] || { cat "$page.log"; fail "$page: no screenshot"; }
	if grep -E 'Uncaught|CONSOLE|net::ERR_|Failed to load' "$page.log"; then
		fail "$page: the browser logged an error"
	fi
	python3 "$T/png_check.py" "$page.png" "$@" || fail "$page: the screenshot"
}

# The pages are drawn first, then shot by browsers side by side (each waits on its own start-up).
pids=""
shot_bg() { # PAGE COLOURS...: shot in the background, its output in PAGE.shot
	( shot "$@" ) > "$1.shot" 2>&1 &
	pids="$pids $!"
}
expect_status 0 "$IOWL" $job --rw=randrw --time_based --runtime=2 --output-format=json+ \
	--output=run.json --report=run.html
shot_bg run.html 0072b2 d55e00
expect_status 0 "$IOWL" $job --rw=randread --runtime=1 --sweep iodepth=1,2,4 --report=sweep.html
shot_bg sweep.html 0072b2
cat > hot.ini <<EOF
[hot]
ioengine=null
size=1g
rw=randread
bs=4k
random_distribution=zoned:90/10:10/90
EOF
expect_status 0 "$IOWL" --analyze=50000 hot.ini --report=hot.html
shot_bg hot.html 086b9b
if have_fio; then
	fio --name=f --ioengine=null --size=256m --rw=randread --bs=4k --output-format=json+ \
		--output=fp.json > /dev/null 2>&1 || fail "fio json+"
	expect_status 0 "$IOWL" report fp.json run.json -o fio.html
	shot_bg fio.html 0072b2
fi
bad=0
for p in $pids; do wait "$p" || bad=1; done
[ "$bad" = 0 ] || { cat ./*.shot; fail "a page did not pass (above)"; }
echo "report_browser: ok"
