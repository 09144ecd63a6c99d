#!/bin/sh
# The SNIA Emerald hot-band vdbench script of the field notes (tests/vdbench/snia-hotband.vdb):
# as published it is refused where it cannot run (th=XX, wd=HOTwd*, the Windows lun); with
# those fixed the IOs it makes have the hot band's shape: the workloads' shares, 65.8 % reads,
# the four bands and the two size tables, within 1 point over 100000 generated IOs
# (--analyze), and --vdbench-show prints a job file that makes exactly the same IOs.
# vdbench_snia_run.sh runs it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/snia.sh"

# As published: the placeholder thread count, then the wildcard that names no workload.
expect_status 1 "$IOWL" --eta=never "$map" "$vdb"
grep -qx "iowl: $vdb:27: th=XX: 'XX' is not a number" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "th=XX"; }
sed 's/th=XX/th=8/' "$vdb" > fixed-threads.vdb
expect_status 1 "$IOWL" --eta=never "$map" fixed-threads.vdb
grep -q "^iowl: fixed-threads.vdb:27: rd=rd1_hband: wd=HOTwd\* names no workload defined in the file (the workloads are wd_uniform, wd_hot1, wd_hot2, wd_hot3, wd_hot4, wd_99rseq1," "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "wd=HOTwd*"; }
# Without the mapping the Windows lun is refused by name.
expect_status 1 "$IOWL" --eta=never snia.vdb
grep -qF "iowl: snia.vdb:8: lun=e:\\junk\\hotband1: a Windows device or file name, which Linux does not have: map it to a Linux path with --vdbench-lun 'e:\\junk\\hotband1=/dev/sdX' (or a file)" "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "Windows lun"; }

# 100000 generated IOs: every share within 1 point.
"$IOWL" --analyze=100000 --output-format=json "$map" --set write_iolog="$SCRATCH/an.log" \
	snia.vdb > an.json 2> an.err || { cat an.err; fail "--analyze"; }
# (one python over the JSON: a jget and awk or two per figure were some 200 processes)
python3 - an.json <<'PY' || fail "the shares of --analyze"
import json, sys
a = json.load(open(sys.argv[1]))["analysis"][0]
n = a["ios"]
def close_to(what, got, want):
    if abs(got - want) > 1:
        print("FAIL: %s: %.3f %%, expected %s %% within 1" % (what, got, want))
        sys.exit(1)
for i, l in enumerate(open("streams.txt")):
    wd, skew, rd, table = l.split()
    st = a["streams"][i]
    if st["name"] != wd:
        print("FAIL: stream %d is not %s" % (i, wd))
        sys.exit(1)
    r, w = st["read"]["ios"], st["write"]["ios"]
    close_to("%s's share of the IOs" % wd, 100 * (r + w) / n, float(skew))
    close_to("%s's reads" % wd, 100 * r / (r + w), float(rd))
close_to("reads", 100 * a["read"]["ios"] / n, 65.8)
for l in open("sizes.txt"):
    size, rnd, seq = l.split()
    r = a["read"].get("sizes", {}).get(size, 0)
    w = a["write"].get("sizes", {}).get(size, 0)
    close_to("%s-byte IOs" % size, 100 * (r + w) / n, 0.6 * float(rnd) + 0.4 * float(seq))
PY
check_bands an.log 1

# The job file --vdbench-show prints makes the same IOs, to the byte.
"$IOWL" --vdbench-show "$map" snia.vdb > shown.ini 2> show.err || { cat show.err; fail "--vdbench-show"; }
grep -q '^\[rd1_hband.sd1\]' shown.ini || fail "no job in the shown file"
[ "$(grep -c '^stream=' shown.ini)" = 13 ] || fail "the shown file has not 13 streams"
"$IOWL" --analyze=100000 --output-format=json shown.ini > an2.json 2> an2.err || { cat an2.err; fail "--analyze of the shown job"; }
cmp -s an.json an2.json || fail "the shown job file makes other IOs than the parameter file"

echo "the SNIA hot band from vdbench's script: shares, bands and sizes within 1 point over 100000 IOs"
