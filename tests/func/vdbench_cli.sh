#!/bin/sh
# How a vdbench parameter file is given and what goes with it: recognised by its content or
# named with --vdbench; --vdbench-show prints the equivalent job file (checked line by line)
# without touching the lun; --parse-only and --analyze work on it; flags that need one, or that
# contradict it, are refused with the reason (exit 1).
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
cat > two.vdb <<'VDB'
* two SDs, two workloads
sd=default,threads=2
sd=sd1,lun=lun1,size=1m
sd=sd2,lun=lun2,size=1m
wd=rnd,sd=sd*,xfersize=4k,rdpct=75,skew=80
wd=seq,sd=sd1,xfersize=64k,seekpct=seq
rd=rd1,wd=*,iorate=1000,elapsed=2,interval=1
VDB

# Shown, not run: the job file, and no lun created.
"$IOWL" --vdbench-show two.vdb > shown.ini 2> err || { cat err; fail "--vdbench-show"; }
[ ! -e lun1 ] && [ ! -e lun2 ] || fail "--vdbench-show created a lun"
cat > want.ini <<'INI'
; The vdbench parameter file two.vdb as iowl jobs (iowl --vdbench-show).
; Each rd is a phase (stonewall); each SD a job of one weighted stream per workload.
; Run with:
;   iowl job.ini

; two.vdb:7
[rd1.sd1]
description=vdbench rd=rd1              ; two.vdb:7
filename=lun1                           ; two.vdb:3: lun=
size=1m                                 ; two.vdb:3: size=
ioengine=io_uring                       ; two.vdb:3: threads= concurrent IOs: one io_uring queue of that depth
iodepth=2                               ; two.vdb:2: threads=
norandommap=1                           ; two.vdb:3: vdbench draws random blocks with replacement
refill_buffers=1                        ; two.vdb:3: vdbench writes new data every time
time_based=1                            ; two.vdb:7
runtime=2                               ; two.vdb:7: elapsed=
rate_iops=500,100                       ; two.vdb:7: iorate=: this SD's share, reads,writes
rate_process=poisson                    ; two.vdb:7: distribution=exponential (vdbench's default)

stream=rnd                              ; two.vdb:5
weight=40                               ; two.vdb:5
rw=randrw                               ; two.vdb:5
rwmixread=75                            ; two.vdb:5
bs=4k                                   ; two.vdb:5

stream=seq                              ; two.vdb:6
weight=20                               ; two.vdb:6
rw=read                                 ; two.vdb:6
bs=64k                                  ; two.vdb:6

; two.vdb:7
[rd1.sd2]
description=vdbench rd=rd1              ; two.vdb:7
filename=lun2                           ; two.vdb:4: lun=
size=1m                                 ; two.vdb:4: size=
ioengine=io_uring                       ; two.vdb:4: threads= concurrent IOs: one io_uring queue of that depth
iodepth=2                               ; two.vdb:2: threads=
norandommap=1                           ; two.vdb:4: vdbench draws random blocks with replacement
refill_buffers=1                        ; two.vdb:4: vdbench writes new data every time
time_based=1                            ; two.vdb:7
runtime=2                               ; two.vdb:7: elapsed=
rate_iops=300,100                       ; two.vdb:7: iorate=: this SD's share, reads,writes
rate_process=poisson                    ; two.vdb:7: distribution=exponential (vdbench's default)

stream=rnd                              ; two.vdb:5
weight=40                               ; two.vdb:5
rw=randrw                               ; two.vdb:5
rwmixread=75                            ; two.vdb:5
bs=4k                                   ; two.vdb:5
INI
diff -u want.ini shown.ini || fail "--vdbench-show printed another job file"
# The shown file is a job file iowl takes as it is.
"$IOWL" --parse-only shown.ini 2> err || { cat err; fail "the shown job file does not parse"; }

# Recognised by content, or named: --parse-only checks everything and creates nothing.
for how in two.vdb --vdbench=two.vdb "--vdbench two.vdb"; do
	# shellcheck disable=SC2086
	"$IOWL" --parse-only $how 2> err || { cat err; fail "--parse-only $how"; }
done
[ ! -e lun1 ] || fail "--parse-only created a lun"
cp two.vdb job.ini
"$IOWL" --vdbench job.ini --parse-only 2> err || { cat err; fail "--vdbench job.ini"; }
"$IOWL" --analyze=10000 --output-format=json two.vdb > an.json 2> err || { cat err; fail "--analyze"; }
[ "$(jget an.json analysis)" = 2 ] && [ "$(jget an.json analysis.0.jobname)" = rd1.sd1 ] ||
	fail "--analyze of the parameter file"

refused() { # EXPECTED-STDERR-LINE IOWL-ARGS...
	line=$1; shift
	expect_status 1 "$IOWL" "$@"
	[ "$(cat "$SCRATCH/err")" = "$line" ] || { cat "$SCRATCH/err"; fail "iowl $*: expected '$line'"; }
	[ ! -s "$SCRATCH/out" ] || fail "iowl $*: printed on stdout"
}
printf '[j]\nioengine=null\nsize=1m\n' > fio.ini
refused "iowl: the vdbench parameter file 'two.vdb' runs on its own: no job files, --name jobs or job options beside it (--set KEY=VALUE sets an option in its jobs)" two.vdb fio.ini
refused "iowl: --sweep: the vdbench parameter file 'two.vdb' says what to sweep (for-loops) and when to run a curve (iorate=curve)" --sweep iodepth=1,2 two.vdb
refused "iowl: two.vdb: --vdbench-var lun=x: the file has no \$lun or !lun to replace (vdbench refuses an unused substitution)" --vdbench-var lun=x two.vdb
refused "iowl: --vdbench-output belongs to a vdbench parameter file (give one: iowl --vdbench FILE)" --vdbench-output fio.ini
refused "iowl: --output-format=vdbench-flat is a CSV of its own: give it alone" --output-format=vdbench-flat,json two.vdb
refused "iowl: --vdbench-lun 'nothing': give NAME=VALUE" --vdbench-lun nothing two.vdb
cp two.vdb 3.vdb
refused "iowl: '3.vdb': one vdbench parameter file at a time ('two.vdb' is given already)" two.vdb 3.vdb
# An rd with a sweep beside another rd makes two runs of iowl: one --output cannot hold both.
printf 'rd=rd2,wd=seq,iorate=max,elapsed=2,interval=1,forthreads=(1,2)\n' >> 3.vdb
refused "iowl: --output holds one report, and '3.vdb' runs 2 separate steps (for-loops or curves beside other rds): send stdout to a file instead" --output=x.json 3.vdb
# How vdbench starts itself on a host (vdbench=, user=, shell=, jvms=) runs, with a warning each
# (at 500 IOPS: at iorate=max the run spun a CPU for its 2 s).
printf 'hd=default,vdbench=/opt/vdbench,user=root,shell=ssh,jvms=2\nsd=sd1,lun=%s/h.dat,size=1m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=100\nrd=rd1,wd=wd1,iorate=500,elapsed=2,interval=1\n' "$SCRATCH" > hd.vdb
"$IOWL" --vdbench hd.vdb > out 2> err || { cat err; fail "hd= with vdbench's own host parameters"; }
for k in vdbench user shell jvms; do
	grep -q "^iowl: hd.vdb:1: $k=.*how vdbench starts itself on a host; iowl runs its threads here and ignores it$" err ||
		fail "no warning for $k=: $(cat err)"
done
echo "vdbench command line ok"
