#!/bin/sh
# iowl-mpi on loop devices, 1 and 3 ranks: with one device per rank (chosen through
# ${IOWL_RANK}), each device counts its rank's writes (/sys/block/loopN/stat); with one device
# shared at per-rank offsets (offset=${IOWL_RANK}0m), the device counts the sum of the ranks'
# bytes, which is rank 0's reduced total, and the regions between the ranks' (and those of the
# ranks not started) stay unwritten.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../mpi_lib.sh"
need_mpi
stat_field() { awk -v f="$2" '{ print $f }' "/sys/block/$1/stat"; }

names=""
for r in 0 1 2 3; do
	loop_device 64m
	ln -s "$dev" "$SCRATCH/dev.$r"
	names="$names $name"
done
set -- $names
shared=$1

# One device per rank: 250 random 4 KiB writes each.
cat > "$SCRATCH/own.ini" <<JOB
[w]
filename=$SCRATCH/dev.\${IOWL_RANK}
ioengine=psync
direct=1
rw=randwrite
bs=4k
size=64m
number_ios=250
JOB
# One shared device, 2 MiB per rank at offsets 0, 10 and 20 MiB, sequential 64 KiB writes.
# The ranks are on one host, so each would find the device held (O_EXCL) by another:
# allow_mounted_write=1, as for any two programs writing one device.
cat > "$SCRATCH/shared.ini" <<JOB
[w]
filename=$SCRATCH/dev.0
allow_mounted_write=1
ioengine=psync
direct=1
rw=write
bs=64k
offset=\${IOWL_RANK}0m
size=2m
JOB
j=$SCRATCH/out
for np in 1 3; do
	before=$(for n in $names; do stat_field $n 5; done)
	mpirun_np $np "$IOWL_MPI" --output-format=json --eta=never "$SCRATCH/own.ini"
	[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "$np ranks, one device each: exited $rc"; }
	after=$(for n in $names; do stat_field $n 5; done)
	[ "$(jget "$j" jobs.0.write.total_ios)" = $((np * 250)) ] ||
		fail "$np ranks, one device each: total $(jget "$j" jobs.0.write.total_ios), expected $((np * 250))"
	r=0
	for n in $names; do
		b=$(echo $before | cut -d' ' -f$((r + 1)))
		a=$(echo $after | cut -d' ' -f$((r + 1)))
		want=0
		if [ $r -lt $np ]; then
			want=250
			[ $np = 1 ] || [ "$(jget "$j" iowl.ranks.$r.write.total_ios)" = 250 ] ||
				fail "$np ranks: rank $r did $(jget "$j" iowl.ranks.$r.write.total_ios) writes"
		fi
		approx $((a - b)) $want 1 || fail "$np ranks: $n (rank $r's) counted $((a - b)) writes, expected $want"
		r=$((r + 1))
	done
	echo "$np ranks, one device each: every device counted its rank's 250 writes"

	dd if=/dev/zero of="/dev/$shared" bs=1M count=34 oflag=direct 2>/dev/null || fail "cannot zero /dev/$shared"
	s0=$(stat_field $shared 7) n0=$(stat_field $shared 5)
	mpirun_np $np "$IOWL_MPI" --output-format=json --eta=never "$SCRATCH/shared.ini"
	[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "$np ranks, shared device: exited $rc"; }
	s1=$(stat_field $shared 7) n1=$(stat_field $shared 5)
	bytes=$(jget "$j" jobs.0.write.io_bytes)
	[ "$bytes" = $((np * 2097152)) ] || fail "$np ranks, shared device: reduced $bytes bytes"
	[ $(( (s1 - s0) * 512 )) = "$bytes" ] ||
		fail "$np ranks, shared device: $shared counted $(( (s1 - s0) * 512 )) bytes written, the ranks $bytes"
	approx $((n1 - n0)) "$(jget "$j" jobs.0.write.total_ios)" 1 ||
		fail "$np ranks, shared device: $shared counted $((n1 - n0)) writes, the ranks $(jget "$j" jobs.0.write.total_ios)"
	# Rank r's region is [10r, 10r + 2) MiB: written there, zeros in the 2 MiB after it.
	r=0
	while [ $r -lt 4 ]; do
		inside=$(dd if="/dev/$shared" bs=1M skip=$((r * 10)) count=2 iflag=direct 2>/dev/null | tr -d '\0' | wc -c)
		gap=$(dd if="/dev/$shared" bs=1M skip=$((r * 10 + 2)) count=2 iflag=direct 2>/dev/null | tr -d '\0' | wc -c)
		[ "$gap" = 0 ] || fail "$np ranks, shared device: $((r * 10 + 2))-$((r * 10 + 4)) MiB was written"
		if [ $r -lt $np ]; then
			[ "$inside" -gt 0 ] || fail "$np ranks, shared device: rank $r's region is empty"
		else
			[ "$inside" = 0 ] || fail "$np ranks, shared device: region $r written with $np ranks"
		fi
		r=$((r + 1))
	done
	echo "$np ranks, shared device: $shared counted $(( (s1 - s0) * 512 )) bytes in $((n1 - n0)) writes, the ranks $bytes"
done

# --iostat per host: every rank's own device view reaches rank 0 (iowl.ranks[r].iostat), each
# rank's own loop device in it, and what it counted over the intervals (w/s x seconds) is what
# that device's counter says, less at most the last sliver (under a tenth of an interval, folded
# into the job's last interval but not sampled from the devices): 500 writes/s for 1 s per rank.
sed 's/^number_ios=250$/time_based=1\nruntime=1\nrate_iops=500/' "$SCRATCH/own.ini" > "$SCRATCH/iostat.ini"
set -- $names
w0=$(stat_field $1 5) w1=$(stat_field $2 5)
mpirun_np 2 "$IOWL_MPI" --output-format=json --eta=never --iostat=100ms "$SCRATCH/iostat.ini"
[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "--iostat over 2 ranks: exited $rc"; }
w0=$(($(stat_field $1 5) - w0)) w1=$(($(stat_field $2 5) - w1))
python3 - "$j" "$1" "$w0" "$2" "$w1" <<'PY' || fail "--iostat over 2 ranks: each host's device view is wrong"
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])  # JSON lines: the results are the last
for r in (0, 1):
    dev, counted = sys.argv[2 + 2 * r], int(sys.argv[3 + 2 * r])
    log = d["iowl"]["ranks"][r]["iostat"]
    w = sum(x["w/s"] * x["seconds"] for i in log for x in i["devices"] if x["name"] == dev)
    other = sum(x["w/s"] * x["seconds"] for i in log for x in i["devices"] if x["name"] != dev)
    assert counted - 10 <= round(w) <= counted, (r, dev, w, counted)
    assert other == 0, (r, other)
    assert counted == d["iowl"]["ranks"][r]["write"]["total_ios"], (r, counted)
    print("rank %d: %s counted %d writes, its iostat %.0f in %d intervals" % (r, dev, counted, w, len(log)))
PY
mpirun_np 2 "$IOWL_MPI" --eta=never --iostat=100ms "$SCRATCH/iostat.ini"
[ $rc = 0 ] || { cat "$SCRATCH/err"; fail "--iostat over 2 ranks (text): exited $rc"; }
for r in 0 1; do
	n=$(echo $names | cut -d' ' -f$((r + 1)))
	grep -q "^ *$r  .* $n " "$SCRATCH/out" || { cat "$SCRATCH/out"; fail "--iostat: no line for rank $r's $n in the report"; }
done
