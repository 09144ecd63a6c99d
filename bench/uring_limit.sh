#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/uring_limit.sh: io_uring 4 KiB random reads at iodepth 32 on a 2 GiB loop device over
# tmpfs, by bench/uring_limit.c (the kernel-side limit: no stats), by iowl and by fio (the same
# job file, bench/jobs/5-uring-randread-qd32.fio), alternating limit, iowl, fio for ROUNDS
# rounds of RUNTIME seconds.  Prints each run, then the medians: IOPS of each and iowl/limit,
# CPU and user CPU per IO of iowl and fio and their ratios.  A report, not a test: exit 0, or 1
# when a tool failed.  Needs root (a loop device).  See bench/README.md.
set -u -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-5}
IOWL=${IOWL:-$ROOT/build/iowl}
LIMIT=${LIMIT:-$ROOT/build/bench/uring_limit}
JGET=${JGET:-$(dirname "$IOWL")/helpers/jget}
FIO=${FIO:-fio}
BENCH_SHM=${BENCH_SHM:-/dev/shm}
JOB=$ROOT/bench/jobs/5-uring-randread-qd32.fio
EXTRA=${EXTRA:-}	# more job options for iowl and fio, e.g. "--registerfiles=1 --fixedbufs=1"

[ "$(id -u)" = 0 ] || { echo "uring_limit: needs root for a loop device" >&2; exit 1; }
for b in "$IOWL" "$LIMIT" "$JGET"; do
	[ -x "$b" ] || { echo "uring_limit: $b missing (make && make build/bench/uring_limit build/helpers/jget)" >&2; exit 1; }
done
command -v "$FIO" > /dev/null || { echo "uring_limit: fio not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "uring_limit: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

tmp=$(mktemp -d)
back=$BENCH_SHM/iowl-uring-limit.$$
dev=
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp" "$back"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
truncate -s 2g "$back" || exit 1
dev=$(losetup -f --show "$back") || exit 1
dd if=/dev/zero of="$dev" bs=1M count=2048 oflag=direct status=none || exit 1
export BENCH_DEV=$dev RUNTIME

# run TOOL ROUND: one run; appends "tool iops ios usr_s sys_s" to $tmp/runs
run() {
	local t=$1 r=$2 out=$tmp/$1.$2
	case $t in
	limit)
		"$LIMIT" "$dev" "$RUNTIME" 32 4096 > "$out" 2>&1 || { cat "$out"; exit 1; }
		awk -v t=$t '{ print t, $6, $2, $8, $10 }' "$out" >> "$tmp/runs" ;;
	iowl | fio)
		local bin=$IOWL
		[ $t = fio ] && bin=$FIO
		# shellcheck disable=SC2086
		/usr/bin/time -f '%e %U %S' -o "$out.time" "$bin" --eta=never --output-format=json \
			--output="$out.json" $EXTRA "$JOB" > "$out.err" 2>&1 || { cat "$out.err"; exit 1; }
		echo "$t $("$JGET" "$out.json" jobs.0.read.iops) $("$JGET" "$out.json" jobs.0.read.total_ios) $(awk '{ print $2, $3 }' "$out.time")" >> "$tmp/runs" ;;
	esac
	tail -n 1 "$tmp/runs"
}

echo "# tool iops ios usr_s sys_s ($ROUNDS rounds of $RUNTIME s, $dev over $BENCH_SHM${EXTRA:+, $EXTRA})"
for r in $(seq "$ROUNDS"); do
	for t in limit iowl fio; do
		run $t "$r"
	done
done

# Medians per tool of IOPS, CPU us per IO and user CPU us per IO.
awk '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ n[$1]++; iops[$1, n[$1]] = $2; cpu[$1, n[$1]] = 1e6 * ($4 + $5) / $3; usr[$1, n[$1]] = 1e6 * $4 / $3 }
END {
	for (t in n) {
		for (i = 1; i <= n[t]; i++) { a[i] = iops[t, i]; b[i] = cpu[t, i]; c[i] = usr[t, i] }
		mi[t] = median(a, n[t]); mc[t] = median(b, n[t]); mu[t] = median(c, n[t])
	}
	printf "| tool | IOPS (median) | CPU us/IO | user CPU us/IO |\n|---|---:|---:|---:|\n"
	split("limit iowl fio", order, " ")
	for (k = 1; k <= 3; k++) { t = order[k]; printf "| %s | %.1fk | %.3f | %.3f |\n", t, mi[t] / 1000, mc[t], mu[t] }
	printf "\niowl/limit IOPS %.3f (target >= 0.95), fio/limit IOPS %.3f\n", mi["iowl"] / mi["limit"], mi["fio"] / mi["limit"]
	printf "iowl/fio CPU per IO %.2fx (target <= 0.8), user CPU per IO %.2fx (target <= 0.3)\n", mc["iowl"] / mc["fio"], mu["iowl"] / mu["fio"]
}' "$tmp/runs"
