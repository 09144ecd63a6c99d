#!/bin/sh
# loops, io_size and number_ios as fio 3.33 runs them: a loop goes on where the last one stopped
# (loops=2 io_size=128k size=256k reads blocks 0,1,2,3), number_ios counts per loop, a pass that
# starts again with randrepeat (the default) repeats the random map's sequence, and a time_based
# job runs for its runtime whatever number_ios says.  fio's iologs are compared where fio is
# installed.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 1m f
# blocks TOOL ARGS...: the 64 KiB blocks the tool read or wrote, in order, on one line
blocks() {
	tool=$1
	shift
	rm -f io.log
	if [ "$tool" = fio ]; then
		fio --name=x --filename=f --bs=64k --write_iolog=io.log "$@" > /dev/null 2> err
	else
		"$IOWL" --name=x --filename=f --bs=64k --write_iolog=io.log --eta=never "$@" > /dev/null 2> err
	fi || { cat err; fail "$tool $*"; }
	awk '$(NF-2) == "read" || $(NF-2) == "write" { printf "%s%d", n++ ? " " : "", $(NF-1) / 65536 } END { print "" }' io.log
}
# same ARGS... EXPECTED: iowl's blocks must be EXPECTED, and fio's too where it is installed
same() {
	want=$(eval echo "\${$#}")
	args=""
	while [ $# -gt 1 ]; do args="$args $1"; shift; done
	# shellcheck disable=SC2086
	got=$(blocks iowl $args)
	[ "$got" = "$want" ] || fail "iowl$args: blocks '$got', expected '$want'"
	if have_fio && ! fio_kept same "$args" "$want"; then
		# shellcheck disable=SC2086
		fgot=$(blocks fio $args)
		[ "$fgot" = "$want" ] || fail "fio$args: blocks '$fgot', expected '$want'"
		fio_keep same "$args" "$want"
	fi
}
same --rw=read --size=256k --io_size=128k --loops=2 "0 1 2 3"
same --rw=read --size=1m --number_ios=4 --loops=2 "0 1 2 3 4 5 6 7"
same --rw=read --size=256k --number_ios=3 --loops=3 "0 1 2 3 0 1 2 3 0"
same --rw=read --size=256k --number_ios=6 "0 1 2 3"
same --rw=read --size=256k --number_ios=6 --loops=2 "0 1 2 3 0 1 2 3"
same --rw=write --size=256k --io_size=128k --loops=2 "0 1 2 3"
# Random: the second pass repeats the first (with the map and randrepeat), within a loop
# (io_size above size) or in the next loop; a loop cut short by io_size or number_ios goes on
# with the same map.  The sequences differ between the tools: their shapes are compared.
shape() { # ARGS...: "repeat" when the second half repeats the first, then how many distinct blocks
	# (fio's too, unless its answer for check_shape's $want is kept)
	for tool in iowl fio; do
		[ $tool = fio ] && { ! have_fio || fio_kept shape "$want" "$@" >&2; } && continue
		b=$(blocks $tool "$@")
		echo "$b" | awk -v t=$tool '{ h = NF / 2; r = 1; for (i = 1; i <= h; i++) { if ($i != $(i + h)) r = 0; d[$i] = 1; d[$(i + h)] = 1 } n = 0; for (k in d) n++; print t, NF, (r ? "repeat" : "new"), n }'
	done
}
check_shape() { # WANT ARGS...
	want=$1
	shift
	shape "$@" > s.txt
	while read -r t got; do
		[ "$got" = "$want" ] || fail "$t $*: '$got', expected '$want' (IOs, second half, distinct blocks)"
	done < s.txt
	! grep -q "^fio " s.txt || fio_keep shape "$want" "$@"
}
check_shape "8 repeat 4" --rw=randread --size=256k --loops=2
check_shape "8 repeat 4" --rw=randread --size=256k --io_size=512k
check_shape "32 repeat 16" --rw=randwrite --size=1m --loops=2
check_shape "8 new 8" --rw=randread --size=1m --io_size=256k --loops=2
check_shape "8 new 8" --rw=randread --size=1m --number_ios=4 --loops=2
# randrepeat=0: each pass draws a new order (of the same blocks).
b=$(blocks iowl --rw=randread --size=1m --loops=4 --randrepeat=0)
[ "$(echo "$b" | awk '{ for (i = 1; i <= 16; i++) if ($i != $(i + 16) || $i != $(i + 32)) { print "new"; exit } print "repeat" }')" = new ] ||
	fail "randrepeat=0 repeated its passes: $b"
# time_based with number_ios: the job runs for its runtime (number_ios is per pass and a
# time_based job has one loop), as fio's.
ios() { jget "$1" jobs.0.read.total_ios; }
"$IOWL" --name=t --ioengine=null --size=1m --rw=randread --number_ios=10 --runtime=1 --time_based \
	--eta=never --output-format=json > t.json || fail "time_based number_ios"
[ "$(ios t.json)" -gt 1000 ] || fail "time_based with number_ios=10 did $(ios t.json) IOs"
[ "$(jget t.json jobs.0.read.runtime)" -ge 900 ] || fail "time_based with number_ios=10 ran $(jget t.json jobs.0.read.runtime) ms"
if have_fio && ! fio_kept time_based number_ios=10 "more than 1000 IOs"; then
	fio --name=t --ioengine=null --size=1m --rw=randread --number_ios=10 --runtime=1 --time_based \
		--output-format=json > ft.json 2> /dev/null || fail "fio time_based number_ios"
	[ "$(ios ft.json)" -gt 1000 ] || fail "fio: time_based with number_ios=10 did $(ios ft.json) IOs"
	fio_keep time_based number_ios=10 "more than 1000 IOs"
fi
echo "loops ok"
