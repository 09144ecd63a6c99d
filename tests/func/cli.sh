#!/bin/sh
# Job files and the command line: globals in order, include, ${ENV}, --set, --section, stonewall groups, several files.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
cat > inc.ini <<'EOI'
bs=8k
EOI
cat > a.ini <<'EOI'
[global]
ioengine=null
size=${IOWL_TEST_SIZE}
number_ios=1000
; a comment
# another
[first]
rw=randread
include inc.ini

[global]
rw=randwrite

[second]
iodepth=4   ; inline comment
[third]
stonewall
EOI
IOWL_TEST_SIZE=16m "$IOWL" --output-format=json --eta=never a.ini > out.json 2> err || { cat err; fail "a.ini run"; }
[ "$(jget out.json jobs#)" = 3 ] || [ "$(jget out.json jobs)" = 3 ] || fail "expected 3 jobs"
[ "$(jget out.json jobs.0.read.total_ios)" = 1000 ] || fail "first: reads"
[ "$(jget out.json jobs.0.read.io_bytes)" = 8192000 ] || fail "first: include bs=8k not applied"
[ "$(jget out.json jobs.1.write.total_ios)" = 1000 ] || fail "second global not applied"
[ "$(jget out.json jobs.1.groupid)" = 0 ] || fail "second: group"
[ "$(jget out.json jobs.2.groupid)" = 1 ] || fail "stonewall starts a new group"
# --set overrides every job, as if written last.
IOWL_TEST_SIZE=16m "$IOWL" --output-format=json --eta=never --set bs=16k --set=number_ios=10 a.ini > out.json || fail "--set run"
[ "$(jget out.json jobs.0.read.io_bytes)" = 163840 ] || fail "--set bs/number_ios"
# --section runs only the named jobs.
IOWL_TEST_SIZE=16m "$IOWL" --output-format=json --eta=never --section=second a.ini > out.json || fail "--section"
[ "$(jget out.json jobs)" = 1 ] || fail "--section: job count"
[ "$(jget out.json jobs.0.jobname)" = second ] || fail "--section: name"
# Two job files are two groups.
printf '[x]\nioengine=null\nsize=1m\nnumber_ios=5\n' > b.ini
IOWL_TEST_SIZE=16m "$IOWL" --output-format=json --eta=never a.ini b.ini > out.json || fail "two files"
[ "$(jget out.json jobs.3.groupid)" = 2 ] || fail "second file: group"
# Command-line jobs, with options before --name shared by every job, and bools as words.
"$IOWL" --ioengine=null --size=1m --number_ios=7 --name=c1 --rw=read --name=c2 --rw=write \
	--group_reporting=no --output-format=json --eta=never > out.json || fail "command-line jobs"
[ "$(jget out.json jobs.0.read.total_ios)" = 7 ] || fail "c1"
[ "$(jget out.json jobs.1.write.total_ios)" = 7 ] || fail "c2"
# numjobs clones and group_reporting.
"$IOWL" --name=g --ioengine=null --size=1m --number_ios=100 --numjobs=3 --group_reporting \
	--output-format=json --eta=never > out.json || fail "group_reporting"
[ "$(jget out.json jobs)" = 1 ] || fail "group_reporting: one unit"
[ "$(jget out.json jobs.0.read.total_ios)" = 300 ] || fail "group_reporting: merged count"
"$IOWL" --name=g --ioengine=null --size=1m --number_ios=100 --numjobs=3 \
	--output-format=json --eta=never > out.json || fail "clones"
[ "$(jget out.json jobs)" = 3 ] || fail "three clones reported separately"
echo "cli ok"
