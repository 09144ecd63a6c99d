#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's measurement switches: disable_lat, disable_clat, disable_slat, disable_bw_measurement and
# gtod_reduce leave their figures unmeasured (N 0, no percentiles, empty per-IO log), as fio 3.33.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 16m f
base="--name=a --ioengine=libaio --iodepth=4 --filename=$SCRATCH/f --size=16m --rw=randrw"
base="$base --lat_percentiles=1 --slat_percentiles=1"

# N of slat, clat and lat per direction, the percentiles present, the latency buckets' sum > 0,
# and the line counts of the per-IO logs (bw, iops, slat, clat, lat: 0 or "some").
summary() {
	for d in read write; do
		for l in slat clat lat; do
			n=$(jget "$1" jobs.0.$d.${l}_ns.N)
			p=$(jget "$1" jobs.0.$d.${l}_ns.percentile 2>/dev/null)
			echo "$d.$l:$([ "$n" -gt 0 ] && echo some || echo "$n")${p:+:pct}"
		done
	done
	# (all the buckets: where the latencies fall depends on the machine's load)
	b=$(for u in ns us ms; do jget "$1" "jobs.0.latency_$u="; done |
		awk -F= '{ s += $NF } END { print (s > 0 ? "some" : "none") }')
	echo "buckets:$b"
	for k in bw iops slat clat lat; do
		echo "$k.log:$([ -s "$2_$k.1.log" ] && echo some || echo 0)"
	done
}

for opt in disable_lat disable_clat disable_slat disable_bw_measurement disable_bw gtod_reduce none; do
	set -- $base
	[ $opt = none ] || set -- "$@" --$opt=1
	"$IOWL" --eta=never --output-format=json "$@" --write_bw_log=i --write_iops_log=i \
		--write_lat_log=i > i.json || fail "iowl --$opt=1"
	got=$(summary i.json i | paste -sd ' ' -)
	case $opt in
	disable_lat) want="read.slat:some:pct read.clat:some:pct read.lat:0 write.slat:some:pct write.clat:some:pct write.lat:0 buckets:some bw.log:some iops.log:some slat.log:some clat.log:some lat.log:0" ;;
	disable_clat) want="read.slat:some:pct read.clat:0 read.lat:some:pct write.slat:some:pct write.clat:0 write.lat:some:pct buckets:none bw.log:some iops.log:some slat.log:some clat.log:0 lat.log:some" ;;
	disable_slat) want="read.slat:0 read.clat:some:pct read.lat:some:pct write.slat:0 write.clat:some:pct write.lat:some:pct buckets:some bw.log:some iops.log:some slat.log:0 clat.log:some lat.log:some" ;;
	disable_bw*) want="read.slat:some:pct read.clat:some:pct read.lat:some:pct write.slat:some:pct write.clat:some:pct write.lat:some:pct buckets:some bw.log:0 iops.log:some slat.log:some clat.log:some lat.log:some" ;;
	gtod_reduce) want="read.slat:0 read.clat:0 read.lat:0 write.slat:0 write.clat:0 write.lat:0 buckets:none bw.log:0 iops.log:0 slat.log:0 clat.log:0 lat.log:0" ;;
	none) want="read.slat:some:pct read.clat:some:pct read.lat:some:pct write.slat:some:pct write.clat:some:pct write.lat:some:pct buckets:some bw.log:some iops.log:some slat.log:some clat.log:some lat.log:some" ;;
	esac
	[ "$got" = "$want" ] || fail "iowl --$opt=1: got
$got
expected
$want"
	rm -f i_*.log
	# fio's answer kept once given (tests/lib.sh's fio_kept): the same summary as iowl's
	have_fio || continue
	fio_kept "$want" "$@" && continue
	fio --output-format=json --output=f.json "$@" --write_bw_log=f --write_iops_log=f \
		--write_lat_log=f > /dev/null 2> f.err || { cat f.err; fail "fio --$opt=1"; }
	fgot=$(summary f.json f | paste -sd ' ' -)
	[ "$fgot" = "$got" ] || fail "--$opt=1: fio gave
$fgot
iowl
$got"
	rm -f f_*.log
	fio_keep "$want" "$@"
	echo "same as fio: ${opt#none}"
done

# gtod_reduce=1 then clat measured again: the later option wins, and the percentiles stay off
# (gtod_reduce turned them off), as in fio.
"$IOWL" --eta=never --output-format=json $base --gtod_reduce=1 --disable_clat=0 > g.json ||
	fail "gtod_reduce then disable_clat=0"
[ "$(jget g.json jobs.0.read.clat_ns.N)" -gt 0 ] || fail "clat not measured after disable_clat=0"
jget g.json jobs.0.read.clat_ns.percentile > /dev/null 2>&1 && fail "percentiles after gtod_reduce"
[ "$(jget g.json jobs.0.read.lat_ns.N)" = 0 ] || fail "lat measured under gtod_reduce"
exit 0
