#!/bin/sh
# SPDX-License-Identifier: MIT
# --profile=tiobench, fio 3.33's built-in job set, beside fio: four jobs one after the other
# (seqwrite, randwrite, seqread, randread) over .fio.tio.1 to .fio.tio.4, direct, ioengine=sync,
# 4 KiB blocks, 4 KiB per MiB of memory per job.  Compared with fio's JSON job for job (name,
# group, direction, IOs and bytes) on /dev/shm.  Its own options (size in MiB, block, numruns,
# threads, dir) take effect in iowl; fio 3.33 ignores them (README: differences).  profile= in a
# job file (fio ignores it there) is an error at its line.  act: tests/func/profile_act.sh.
. "$(dirname "$0")/../lib.sh"
w=$(mktemp -d /dev/shm/iowl-profile.XXXXXX) || skip "cannot make a directory on /dev/shm"
on_exit "rm -rf $w"
cd "$w" || fail "cd $w"
# jobs FILE: one line per job: name group read-IOs write-IOs read-bytes write-bytes rw
jobs() {
	python3 -c '
import json, sys
t = open(sys.argv[1]).read()
for j in json.loads(t[t.index("{"):])["jobs"]:
    print(j["jobname"], j["groupid"], j["read"]["total_ios"], j["write"]["total_ios"],
          j["read"]["io_bytes"], j["write"]["io_bytes"], j["job options"].get("rw"))' "$1"
}
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3)"
"$IOWL" --profile=tiobench --output-format=json > "$SCRATCH/i.json" 2> "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "iowl --profile=tiobench failed"; }
got=$(jobs "$SCRATCH/i.json")
mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo)
ios=$((4 * 1024 * mem / 4 / 4096 * 4)) # 4 files of a quarter each, whole 4 KiB blocks
bytes=$((ios * 4096))
want="seqwrite 0 0 $ios 0 $bytes write
randwrite 1 0 $ios 0 $bytes randwrite
seqread 2 $ios 0 $bytes 0 read
randread 3 $ios 0 $bytes 0 randread"
[ "$got" = "$want" ] || fail "iowl's tiobench jobs:
$got
expected:
$want"
n=$(ls -A | tr '\n' ' ')
[ "$n" = ".fio.tio.1 .fio.tio.2 .fio.tio.3 .fio.tio.4 " ] || fail "tiobench's files: '$n'"
if have_fio; then
	rm -f .fio.tio.*
	fio --profile=tiobench --output-format=json > "$SCRATCH/f.json" 2> "$SCRATCH/err" ||
		{ cat "$SCRATCH/err"; fail "fio --profile=tiobench failed"; }
	[ "$(jobs "$SCRATCH/f.json")" = "$got" ] || fail "fio's tiobench jobs:
$(jobs "$SCRATCH/f.json")
iowl's:
$got"
fi
rm -f .fio.tio.*
# its options: 8 MiB, 8 KiB blocks, two runs, two threads, in a directory of its own
mkdir sub
expect_status 0 "$IOWL" --profile=tiobench --size=8 --block=8192 --numruns=2 --threads=2 \
	--dir="$w/sub" --output-format=json
got=$(jobs "$SCRATCH/out")
want="seqwrite 0 0 4096 0 33554432 write
randwrite 1 0 4096 0 33554432 randwrite
seqread 2 4096 0 33554432 0 read
randread 3 4096 0 33554432 0 randread"
[ "$got" = "$want" ] || fail "tiobench size=8 block=8192 numruns=2 threads=2:
$got
expected:
$want"
[ "$(stat -c %s sub/.fio.tio.1)" = 2097152 ] || fail "size=8: .fio.tio.1 is $(stat -c %s sub/.fio.tio.1) bytes, expected a quarter of 8 MiB"
[ "$(jget "$SCRATCH/out" jobs.0.job_runtime)" -gt 0 ] || fail "no runtime"
# its options listed, errors
expect_status 0 "$IOWL" --profile=tiobench --cmdhelp
[ "$(cut -d' ' -f1 "$SCRATCH/out" | tr '\n' ' ')" = "size block numruns dir threads " ] || fail "--profile=tiobench --cmdhelp: $(cat "$SCRATCH/out")"
expect_status 1 "$IOWL" --profile=nosuch
grep -q "fio has no such profile" "$SCRATCH/err" || fail "nosuch: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --profile=tiobench --block=4q
grep -q -- "--block=4q" "$SCRATCH/err" || fail "block=4q: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --profile=tiobench --name=mine --rw=read
grep -q "not with --name jobs" "$SCRATCH/err" || fail "--name beside a profile: $(cat "$SCRATCH/err")"
printf '[x]\nprofile=tiobench\nsize=1m\n' > p.fio
expect_status 1 "$IOWL" --parse-only p.fio
grep -q "p.fio:2: profile=tiobench: a profile makes its own jobs" "$SCRATCH/err" || fail "profile= in a job file: $(cat "$SCRATCH/err")"
exit 0
