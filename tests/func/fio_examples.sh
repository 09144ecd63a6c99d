#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's own example job files (Debian's fio-examples, 3.33): every one that fio accepts goes
# through iowl --parse-only with its file names pointed at scratch files, and those iowl accepts
# and that need no hardware run: each job its 4 MiB, for at most a tenth of a second (jobs that
# wait on a rate or a think time end there), in files of 4 MiB (filesize=, as exitwhat's 1 GiB:
# not laid out).  A refusal must be in the list below, each with its reason; anything else
# fails, so a change that starts refusing a fio example is caught, and so does an example on the
# list that iowl accepts now (the list is exact).
. "$(dirname "$0")/../lib.sh"
ex=/usr/share/doc/fio/examples
[ -d "$ex" ] || skip "fio's example job files are not installed (apt-get install fio-examples)"
have_fio || skip "fio 3 is not installed (apt-get install fio): which examples fio accepts is its call"
# fio's verdict on each example (fio --parse-only, ~0.15 s of CPU each) is stored in
# tests/data/fio-examples.ref with the example's MD5 and fio's version; an example whose file or
# fio differs goes to fio live.  sh tests/func/fio_examples.sh --ref writes the file anew.
REF=$(cd "$(dirname "$0")/../data" && pwd)/fio-examples.ref
FIOV=$IOWL_FIO_VERSION
if [ "$1" = --ref ]; then
	{
		echo "# fio's verdicts on its examples: $FIOV (sh tests/func/fio_examples.sh --ref)"
		for f in "$ex"/*.fio; do
			v=refuses
			fio --parse-only "$f" > /dev/null 2>&1 && v=accepts
			echo "$(md5sum < "$f" | cut -c1-32) $v ${f##*/}"
		done
	} > "$REF"
	exit 0
fi
cd "$SCRATCH" || fail "cd"
md5sum "$ex"/*.fio | awk -v ref="$REF" -v v="$FIOV" '
	BEGIN { if ((getline l < ref) > 0 && index(l, ": " v " (") > 0)
		while ((getline l < ref) > 0) { split(l, w, " "); verdict[w[1]] = w[2] } }
	{ print $2, ($1 in verdict) ? verdict[$1] : "live" }' > verdicts

# Refused, by example: the engine or option named and why.
allowed() {
	case $1 in
	# engines for hardware or services this machine has none of
	dev-dax|libpmem|pmemblk|gfapi|libhdfs|libiscsi|nbd|rados|rbd|mtd|libzbc-rand-write|libzbc-seq-read|sg_verify|sg_verify-fail|sg_write_same_ndob|uring-cmd-ng|uring-cmd-zoned|ime) return 0 ;;
	# fio's null engine built as an external C++ .so: fio 3.33 cannot load it either
	cpp_null) return 0 ;;
	# zoned block devices (zonemode=zbd needs one; none here)
	zbd-rand-write|zbd-seq-read) return 0 ;;
	# engines outside iowl's block and file IO: network, CPU burn, commands, file-system calls
	netio|netio_multicast|cpuio|exec|falloc|ftruncate|filecreate-ioengine|filestat-ioengine|filedelete-ioengine|e4defrag|e4defrag2) return 0 ;;
	# fio options not in iowl yet, by name
	# 30 clones 124g apart: regions up to 3.7 TB into the device (the scratch file is 64 MiB);
	# and iowl refuses clones that verify over each other's blocks (tests/bad/407), fio lets them
	cross-stripe-verify) return 0 ;;
	# numa_cpu_nodes=0-1 and numa_mem_policy=interleave:0-1: this machine has one NUMA node
	numa) return 0 ;;
	# size=100g: without root no loop device to run it on (below), and a file that big does not fit
	flow) [ "$(id -u)" != 0 ] && return 0 ;;
	esac
	return 1
}

ok=0 refused=0 ran=0 bad=""
nlive=0
while read -r f verdict; do
	b=${f##*/} b=${b%.fio}
	case $verdict in
	accepts) ;;
	refuses) continue ;;
	*) nlive=$((nlive + 1)); fio --parse-only "$f" > /dev/null 2>&1 || continue ;;
	esac
	# file names to scratch files (made 64 MiB, as a device would be), one per name the example
	# gives (jobs naming the same file share it, jobs naming different ones do not), directories
	# to scratch; the names are relative, as fio puts directory= in front of absolute ones too.
	# In "info": the names, then whether an engine that needs nothing special is named or none
	# (the short run below).  (One awk an example: the forks of this loop were half its CPU.)
	awk -v b="$b" -v dir="$SCRATCH" '
		/^[[:space:]]*ioengine/ { engine = 1 }
		/^[[:space:]]*ioengine[[:space:]]*=[[:space:]]*(libaio|io_uring|sync|psync|null|pvsync2?|vsync|mmap|posixaio)[[:space:]]*$/ { plain = 1 }
		/^[[:space:]]*filename[[:space:]]*=/ {
			v = $0; sub(/^[^=]*=[[:space:]]*/, "", v); sub(/[[:space:]]*[;#].*$/, "", v)
			sub(/[[:space:]]*$/, "", v)
			gsub(/[^A-Za-z0-9_.-]/, "_", v)
			sub(/=.*/, "="); print $0 b "." v ".dat"
			if (!((b "." v ".dat") in seen)) { seen[b "." v ".dat"] = 1; names = names " " b "." v ".dat" }
			next }
		/^[[:space:]]*directory[[:space:]]*=/ { sub(/=.*/, "="); print $0 dir; next }
		{ print }
		END { print names > "info"; print (plain || !engine) ? "run" : "-" > "info" }' "$f" > "$b.fio"
	{ read -r names; read -r plain; } < info
	[ -z "$names" ] || truncate -s 64m $names
	# size=100g, more than a scratch file system holds for a file: a 64 MiB loop device instead,
	# where the region ends with the device in both tools (without root: its scratch file,
	# refused for the space, as fio's run would stop at ENOSPC)
	one=${names# }
	if [ "$b" = flow ] && [ "$(id -u)" = 0 ] && [ -n "$one" ] && [ "$one" = "${one%% *}" ] &&
	   fdev=$(losetup -f --show "$SCRATCH/$one" 2>/dev/null); then
		on_exit "losetup -d $fdev"
		sed -i "s|^\([[:space:]]*filename[[:space:]]*=\).*|\1$fdev|" "$b.fio"
	fi
	if "$IOWL" --parse-only "$b.fio" > /dev/null 2> "$b.err"; then
		ok=$((ok + 1))
		allowed "$b" && bad="$bad
$b: accepted now: take it out of the refused list"
		# a short run where the engine needs nothing special: not time_based, so a job that
		# needs no waiting ends with its 4 MiB (~ms).  surface-scan's verify phase checks what
		# its write phase wrote: that one writes its 4 MiB whatever the time it takes, not
		# filling the file system (fill_device=0; under TSan 250 ms wrote 1216 KiB of it, and
		# the verify phase read a block never written: status 2)
		long=""
		[ "$b" = surface-scan ] && long="--set fill_device=0 --set runtime=120s"
		if [ "$plain" = run ]; then
			timeout 60 "$IOWL" --set runtime=100ms --set time_based=0 --set size=4m \
				--set filesize=4m --set startdelay=0 --set ramp_time=0 $long "$b.fio" \
				> "$b.out" 2>&1
			rc=$?
			[ $rc = 0 ] || { tail -n 20 "$b.out"; fail "$b: accepted by --parse-only, then the run failed (status $rc)"; }
			ran=$((ran + 1))
		fi
		rm -f "$SCRATCH"/*.dat "$SCRATCH"/*.[0-9]*.[0-9]*
	else
		refused=$((refused + 1))
		allowed "$b" || bad="$bad
$b: $(head -n 1 "$b.err")"
	fi
done < verdicts
[ -z "$bad" ] || fail "the refused list is not exact:$bad"
echo "fio examples: $ok accepted ($ran run), $refused refused with reasons on the list; fio's verdict live for $nlive, stored for the others"
exit 0
