#!/bin/sh
# SPDX-License-Identifier: MIT
# serialize_overlap, fio's meaning: no two IOs of a clone in flight share a byte.  A random write
# of 4-16 KiB blocks over 64 KiB without a random map at iodepth=16 overlaps IOs in flight all
# the time; with the option none does, and the queue still holds several.  The proof is the
# --debug=io trace (a queue line when an IO is handed to the engine, a complete line when it is
# back), read the same way for iowl and fio: buffered libaio completes inside io_submit, so the
# IOs stay in flight until reaped and the counts do not depend on the machine's load.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 64k so.dat || fail "truncate"
cat > so.fio <<'JOB'
[so]
filename=so.dat
rw=randwrite
bsrange=4k-16k
norandommap=1
size=64k
io_size=4m
iodepth=16
ioengine=libaio
JOB
# in-flight overlaps in a trace: "queued Q overlaps O maxdepth D"
cat > ov.awk <<'AWK'
function hex(s,   n, i) { n = 0; s = tolower(s); sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n }
function parse(line) {
	if (match(line, /offset=[0-9]+ len=[0-9]+/)) {	# iowl
		split(substr(line, RSTART, RLENGTH), a, /[= ]/); lo = a[2] + 0; ln = a[4] + 0; return }
	match(line, /off=0x[0-9a-f]+,len=0x[0-9a-f]+/)		# fio
	split(substr(line, RSTART, RLENGTH), a, /[=,]/); lo = hex(a[2]); ln = hex(a[4])
}
/ queue: / { parse($0); q++
	for (k in fl) if (fl[k] > 0) { split(k, r, " "); if (r[1] < lo + ln && lo < r[1] + r[2]) { ov++; break } }
	fl[lo " " ln]++; n++; if (n > max) max = n; next }
/ complete: / { parse($0); if (fl[lo " " ln] > 0) { fl[lo " " ln]--; n-- } }
END { printf "queued %d overlaps %d maxdepth %d\n", q, ov + 0, max }
AWK
# trace TOOL SERIALIZE [iowl options]: the trace's figures
trace() {
	tool=$1 s=$2; shift 2
	sed "\$a serialize_overlap=$s" so.fio > t.fio
	"$tool" --debug=io "$@" t.fio > t.out 2>&1 || { tail -n 5 t.out; fail "$tool serialize_overlap=$s $*: failed"; }
	awk -f ov.awk t.out
}
# figure "queued Q overlaps O maxdepth D" NAME: one of them
figure() { echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
off=$(trace "$IOWL" 0)
echo "iowl serialize_overlap=0: $off"
[ "$(figure "$off" overlaps)" -gt 0 ] || fail "without serialize_overlap no IO overlapped one in flight ($off): the job does not test the option"
for mode in inline offload; do
	on=$(trace "$IOWL" 1 --set io_submit_mode=$mode)
	echo "iowl serialize_overlap=1 io_submit_mode=$mode: $on"
	[ "$(figure "$on" overlaps)" = 0 ] || fail "serialize_overlap=1 ($mode): IOs overlapped IOs in flight ($on)"
	[ "$(figure "$on" maxdepth)" -gt 1 ] || fail "serialize_overlap=1 ($mode): never more than one IO in flight ($on)"
	[ "$(figure "$on" queued)" -ge 256 ] || fail "serialize_overlap=1 ($mode): only $(figure "$on" queued) IOs for 4 MiB of at most 16 KiB"
	grep -q "in-flight overlap:" t.out || fail "serialize_overlap=1 ($mode): no IO waited (no 'in-flight overlap' line)"
done
# the option changes when IOs go, not which: the same bytes as without it, io_size at least
for s in 0 1; do
	"$IOWL" --output-format=json --set serialize_overlap=$s so.fio > j$s.json 2> j.err || { cat j.err; fail "json run"; }
done
b0=$(jget j0.json jobs.0.write.io_bytes) b1=$(jget j1.json jobs.0.write.io_bytes)
[ "$b1" = "$b0" ] && [ "$b1" -ge 4194304 ] || fail "serialize_overlap=1 wrote $b1 bytes, without it $b0 (io_size 4194304)"
# fio, on the same job and trace, behaves the same
if have_fio; then
	f0=$(trace fio 0) f1=$(trace fio 1)
	echo "fio serialize_overlap=0: $f0; 1: $f1"
	[ "$(figure "$f0" overlaps)" -gt 0 ] || fail "fio serialize_overlap=0: no overlap ($f0): the test's premise changed"
	[ "$(figure "$f1" overlaps)" = 0 ] || fail "fio serialize_overlap=1 overlapped ($f1): the test's premise changed"
fi
exit 0
