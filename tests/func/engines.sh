#!/bin/sh
# Every engine writes a scratch file and reads it back, buffered and with O_DIRECT; the JSON counts must be exact.
# (2 MiB: 32 writes, 512 reads, a queue of 16 filled twice or more; 8 MiB took 7 s on the disk)
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"
f="$SCRATCH/data"
for engine in sync psync libaio io_uring pvsync pvsync2 vsync mmap posixaio; do
	for direct in 0 1; do
		for depth in 1 16; do
			k=$engine.$direct.$depth
			rm -f "$f"
			"$IOWL" --name=w --filename="$f" --size=2m --bs=64k --rw=randwrite \
				--ioengine=$engine --direct=$direct --iodepth=$depth \
				--output-format=json --eta=never > "$SCRATCH/w.$k.json" 2> "$SCRATCH/err" ||
				{ cat "$SCRATCH/err"; fail "$engine direct=$direct write failed"; }
			"$IOWL" --name=r --filename="$f" --bs=4k --rw=read --ioengine=$engine \
				--direct=$direct --iodepth=$depth --output-format=json --eta=never \
				> "$SCRATCH/r.$k.json" 2> "$SCRATCH/err" ||
				{ cat "$SCRATCH/err"; fail "$engine direct=$direct read failed"; }
		done
	done
done
# The counts of every run, by one python (a jget each were 216 processes).
python3 - "$SCRATCH" <<'PY' || fail "engine counts"
import glob, json, os, sys
ws = sorted(glob.glob(os.path.join(sys.argv[1], "w.*.json")))
if len(ws) != 36:
    print("FAIL: %d runs of 9 engines x 2 direct x 2 depths, expected 36" % len(ws))
    sys.exit(1)
for w in ws:
    engine, direct, depth = os.path.basename(w)[2:-5].split(".")
    what = "%s direct=%s depth=%s" % (engine, direct, depth)
    jw = json.load(open(w))["jobs"][0]
    jr = json.load(open(w.replace("/w.", "/r.")))["jobs"][0]
    for bad, msg in ((jw["write"]["io_bytes"] != 2097152, "wrote %d bytes" % jw["write"]["io_bytes"]),
                     (jw["write"]["total_ios"] != 32, "write IO count %d" % jw["write"]["total_ios"]),
                     (jr["read"]["io_bytes"] != 2097152, "read %d bytes" % jr["read"]["io_bytes"]),
                     (jr["read"]["total_ios"] != 512, "read IO count %d" % jr["read"]["total_ios"]),
                     (jr["error"] != 0, "error set")):
        if bad:
            print("FAIL: %s: %s" % (what, msg))
            sys.exit(1)
print("%d engine runs counted exactly" % (2 * len(ws)))
PY
# The null engine moves no data and needs no file.
"$IOWL" --name=t --ioengine=null --rw=randread --bs=4k --size=1g --runtime=1 \
	--output-format=json --eta=never > "$SCRATCH/n.json" || fail "null engine run"
awk -v v="$(jget "$SCRATCH/n.json" jobs.0.read.iops)" 'BEGIN { exit !(v > 0) }' || fail "null iops not positive"
[ ! -e t.0.0 ] || fail "the null engine created a file"
echo "all engines ok"
