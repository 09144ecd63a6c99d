#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/memory.sh: the memory a job clone costs, iowl against fio (both as threads in one process:
# fio --thread). Runs a null-engine randread of RUNTIME seconds at 1, 64, 256 and 1024 clones
# (CLONES to change), takes each tool's peak RSS from /usr/bin/time, and prints the cost per clone
# over the single-clone run, (RSS(n) - RSS(1)) / (n - 1), and the ratio iowl/fio against the target
# of a third. A report, not a test: exit 0, or 1 if a tool failed to run.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
IOWL=${IOWL:-$ROOT/build/iowl}
FIO=${FIO:-fio}
RUNTIME=${RUNTIME:-1}
CLONES=${CLONES:-"1 64 256 1024"}
command -v /usr/bin/time >/dev/null 2>&1 || { echo "needs /usr/bin/time (apt-get install time)"; exit 1; }
job="--name=m --ioengine=null --size=1g --rw=randread --runtime=$RUNTIME --time_based --output-format=json"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
rss() { # tool args...: peak RSS in KiB
	/usr/bin/time -o "$tmp" -f "%M" "$@" > /dev/null 2>&1
	out=$(tail -n 1 "$tmp")
	case $out in ''|*[!0-9]*) echo "failed: $*" >&2; exit 1 ;; esac
	echo "$out"
}
echo "| clones | iowl RSS KiB | fio RSS KiB | iowl KiB/clone | fio KiB/clone | ratio | target <= 0.33 |"
echo "|---|---|---|---|---|---|---|"
i1="" f1=""
for n in $CLONES; do
	i=$(rss "$IOWL" $job --numjobs="$n") || exit 1
	f=$(rss "$FIO" --thread $job --numjobs="$n") || exit 1
	[ -z "$i1" ] && { i1=$i; f1=$f; echo "| $n | $i | $f | | | | |"; continue; }
	awk -v n="$n" -v i="$i" -v f="$f" -v i1="$i1" -v f1="$f1" 'BEGIN {
		ic = (i - i1) / (n - 1); fc = (f - f1) / (n - 1); r = fc > 0 ? ic / fc : 0
		printf "| %d | %d | %d | %.0f | %.0f | %.2f | %s |\n", n, i, f, ic, fc, r, r <= 1 / 3 ? "PASS" : "MISS" }'
done
