#!/bin/sh
# SPDX-License-Identifier: MIT
# The logs' clocks and buffers, fio 3.33's meaning, side by side with fio where installed:
# log_alternate_epoch=1 stamps the log lines with milliseconds on the clock_gettime() clock of
# log_alternate_epoch_clock_id (1: CLOCK_MONOTONIC), and so does log_unix_epoch=1 when a clock
# id is given (fio: "if either log_unix_epoch or log_alternate_epoch are true"); the clock id
# alone changes nothing (times from the job's start); a clock this machine lacks is an error at
# its line (fio logs garbage).  log_entries=N: a log's buffer holds N lines before it is written
# out, counted with strace as write() calls on the log.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (apt-get install python3): it reads CLOCK_MONOTONIC"
f="$SCRATCH/ep.dat"
truncate -s 1m "$f" || fail "truncate"
cd "$SCRATCH" || fail "cd"
mono() { python3 -c 'import time; print(int(time.clock_gettime(time.CLOCK_MONOTONIC) * 1000))'; }
# stamp TOOL ARGS...: "lo first hi": CLOCK_MONOTONIC ms before and after the run, and the log's
# first time
stamp() {
	tool=$1; shift
	rm -f ep_clat.1.log
	lo=$(mono)
	"$tool" --name=ep --filename="$f" --size=1m --bs=4k --rw=write --write_lat_log=ep "$@" \
		> out 2>&1 || { cat out; fail "$tool $*: failed"; }
	hi=$(mono)
	[ -s ep_clat.1.log ] || fail "$tool $*: no clat log"
	echo "$lo $(sed -n '1s/,.*//p' ep_clat.1.log) $hi"
}
# within LO T HI: T is a CLOCK_MONOTONIC time of the run
within() { [ "$1" -le "$2" ] && [ "$2" -le "$3" ]; }
# (fio's answers kept once given: tests/lib.sh's fio_kept)
for tool in "$IOWL" fio; do
	[ "$tool" = fio ] && { ! have_fio || fio_kept clocks "as described"; } && continue
	set -- $(stamp "$tool" --log_alternate_epoch=1 --log_alternate_epoch_clock_id=1)
	within "$1" "$2" "$3" || fail "$tool log_alternate_epoch on clock 1: first time $2, not within the run's CLOCK_MONOTONIC $1..$3 ms"
	set -- $(stamp "$tool" --log_unix_epoch=1 --log_alternate_epoch_clock_id=1)
	within "$1" "$2" "$3" || fail "$tool log_unix_epoch with clock 1: first time $2, not within CLOCK_MONOTONIC $1..$3 ms"
	set -- $(stamp "$tool" --log_alternate_epoch=1)
	now=$(date +%s%3N)
	[ "$2" -gt $((now - 60000)) ] && [ "$2" -le "$now" ] ||
		fail "$tool log_alternate_epoch on the default clock 0: first time $2 is not Unix ms (now $now)"
	set -- $(stamp "$tool" --log_alternate_epoch_clock_id=1)
	[ "$2" -lt 1000 ] || fail "$tool log_alternate_epoch_clock_id alone: first time $2, expected ms from the job's start"
	[ "$tool" = fio ] && fio_keep clocks "as described"
done
# a clock the machine lacks, at its line
printf '[ep]\nfilename=%s\nsize=1m\nlog_alternate_epoch=1\nlog_alternate_epoch_clock_id=99\n' "$f" > bad.fio
expect_status 1 "$IOWL" --parse-only bad.fio
grep -q "bad.fio:5: log_alternate_epoch_clock_id=99: clock_gettime() has no clock 99" "$SCRATCH/err" ||
	fail "clock 99: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --parse-only --name=x --size=1m --log_entries=100
grep -q "log_entries" "$SCRATCH/err" || fail "log_entries=100 (fio's minimum is 1024): $(cat "$SCRATCH/err")"
# log_entries: write() calls on the clat log of 16384 logged IOs (~20 bytes a line)
command -v strace >/dev/null 2>&1 || skip "strace not found (apt-get install strace): log_entries not checked"
strace_traced
writes() {
	rm -f le_clat.1.log
	strace -f -qq -y -e trace=write -o st "$IOWL" --name=le --ioengine=null --size=64m \
		--bs=4k --rw=write --write_lat_log=le "$@" > out 2>&1 || { cat out; fail "log_entries $*: failed"; }
	[ "$(wc -l < le_clat.1.log)" = 16384 ] || fail "log_entries $*: $(wc -l < le_clat.1.log) lines, expected 16384"
	grep -c '^[0-9]* *write([0-9]*<[^>]*le_clat\.1\.log>' st
}
n=$(writes)
[ "$n" -ge 4 ] || fail "default log_entries (1024 lines of 64 bytes): $n write() calls for ~330 KB of log, expected at least 4"
n=$(writes --log_entries=16384)
[ "$n" = 1 ] || fail "log_entries=16384: $n write() calls, expected one (the whole log fits its buffer)"
exit 0
