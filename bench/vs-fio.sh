#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/vs-fio.sh: iowl and fio side by side on the same fio job files (bench/jobs/), alternating
# iowl, fio, iowl, fio ... for ROUNDS rounds of RUNTIME seconds each. Prints the median IOPS, the
# CPU seconds per million IOs and the peak RSS of each tool, a Markdown table for bench/README.md
# and PASS/MISS against the targets. A report, not a test: exit 0, or 1 if a tool failed to run.
# See bench/README.md.
set -u -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=$ROOT/bench/jobs

usage()
{
	cat <<EOF
usage: bench/vs-fio.sh [-r ROUNDS] [-t RUNTIME] [--only LIST] [--iowl PATH] [--fio PATH]
                       [--keep DIR]

  -r, --rounds N     runs of each tool per workload, alternating (env ROUNDS, default 5)
  -t, --runtime S    seconds per run (env RUNTIME, default 5)
  --only LIST        workloads to run, e.g. 1,2,9 (env ONLY, default all: 1-9)
  --iowl PATH        iowl binary (env IOWL; default build/iowl, else ./iowl, else PATH)
  --fio PATH         fio binary (env FIO, default fio from PATH)
  --keep DIR         keep every run's JSON, /usr/bin/time line and stderr in DIR
  -h, --help

Workloads: 1 null randread 4k qd1, 2 null qd32 batched, 3 null zipf:1.2, 4 null randrw 70/30
bssplit pareto:0.8, 5 io_uring / 6 libaio qd32 direct / 7 psync qd1 direct on a loop device
over /dev/shm (root only), 8 SNIA hot band on null (iowl only), 9 null 1 thread vs 2 threads.
Env: JGET (iowl's JSON helper), BENCH_SHM (default /dev/shm) for the loop device's backing file.
EOF
}

ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-5}
ONLY=${ONLY:-1,2,3,4,5,6,7,8,9}
IOWL=${IOWL:-}
FIO=${FIO:-fio}
KEEP=${KEEP:-}
BENCH_SHM=${BENCH_SHM:-/dev/shm}

while [ $# -gt 0 ]; do
	case $1 in
	-r | --rounds) ROUNDS=${2:?}; shift 2 ;;
	--rounds=*) ROUNDS=${1#*=}; shift ;;
	-t | --runtime) RUNTIME=${2:?}; shift 2 ;;
	--runtime=*) RUNTIME=${1#*=}; shift ;;
	--only) ONLY=${2:?}; shift 2 ;;
	--only=*) ONLY=${1#*=}; shift ;;
	--iowl) IOWL=${2:?}; shift 2 ;;
	--iowl=*) IOWL=${1#*=}; shift ;;
	--fio) FIO=${2:?}; shift 2 ;;
	--fio=*) FIO=${1#*=}; shift ;;
	--keep) KEEP=${2:?}; shift 2 ;;
	--keep=*) KEEP=${1#*=}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "vs-fio: unknown argument '$1'" >&2; usage >&2; exit 1 ;;
	esac
done
case $ROUNDS in '' | *[!0-9]* | 0) echo "vs-fio: ROUNDS must be a positive integer" >&2; exit 1 ;; esac
case $RUNTIME in '' | *[!0-9]* | 0) echo "vs-fio: RUNTIME must be a positive integer (seconds)" >&2; exit 1 ;; esac

want() { case ",$ONLY," in *",$1,"*) return 0 ;; esac; return 1; }

# ---------------------------------------------------------------- tools
missing=0
if [ -z "$IOWL" ]; then
	for c in "$ROOT/build/iowl" "$ROOT/iowl" "$(command -v iowl 2>/dev/null)"; do
		[ -n "$c" ] && [ -x "$c" ] && { IOWL=$c; break; }
	done
fi
if [ -z "$IOWL" ] || [ ! -x "$IOWL" ]; then
	echo "vs-fio: no iowl binary${IOWL:+ at $IOWL}: build it with 'make' (or 'make O=DIR DIR/iowl' and --iowl DIR/iowl)" >&2
	missing=1
fi
if ! command -v "$FIO" >/dev/null 2>&1; then
	echo "vs-fio: fio not found: apt-get install fio (or --fio PATH)" >&2
	missing=1
fi
[ $missing = 0 ] || exit 1
FIO=$(command -v "$FIO")

# JSON reader: iowl's own jget helper (no dependency), else python3, else jq.
JGET=${JGET:-}
if [ -z "$JGET" ]; then
	for c in "$(dirname "$IOWL")/helpers/jget" "$ROOT/build/helpers/jget"; do
		[ -x "$c" ] && { JGET=$c; break; }
	done
fi
if [ -n "$JGET" ] && [ -x "$JGET" ]; then
	JSON_READER="jget ($JGET)"
	jv() { "$JGET" "$1" "$2" 2>/dev/null; }
elif command -v python3 >/dev/null 2>&1; then
	JSON_READER=python3
	jv()
	{
		python3 - "$1" "$2" 2>/dev/null <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(len(v) if isinstance(v, (list, dict)) else v)
EOF
	}
elif command -v jq >/dev/null 2>&1; then
	JSON_READER=jq
	jv()
	{
		jq -er --arg p "$2" 'getpath($p | split(".") | map(tonumber? // .))
			| if type == "array" or type == "object" then length else . end' "$1" 2>/dev/null
	}
else
	echo "vs-fio: no JSON reader: build iowl's helper with 'make func' (build/helpers/jget)," \
		"or apt-get install python3 (or jq)" >&2
	exit 1
fi

# Timer: /usr/bin/time (getrusage of the child: user+sys of all its threads, peak RSS), else a
# python3 wait4() wrapper (the same numbers), else bash's `times` (no RSS).
if [ -x /usr/bin/time ] && /usr/bin/time -f '%e' -o /dev/null true 2>/dev/null; then
	TIMER="/usr/bin/time -f '%e %U %S %M' (getrusage of the child: whole process, start-up included)"
	timed()
	{
		local out=$1; shift
		/usr/bin/time -f '%e %U %S %M' -o "$out" "${GUARD[@]}" "$@"
	}
elif command -v python3 >/dev/null 2>&1; then
	# CPU from wait4()'s rusage. Not its ru_maxrss: that counts python's own memory in the child
	# before exec; the peak RSS is the exec'd tool's VmHWM, read every 20 ms while it runs.
	TIMER="python3 os.wait4 rusage, peak RSS from /proc VmHWM (whole process, start-up included; apt-get install time for /usr/bin/time)"
	timed()
	{
		local out=$1; shift
		python3 - "$out" "$LIMIT" "$@" <<'EOF'
import os, signal, sys, time
out, limit, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, lambda *a: os.kill(pid, signal.SIGTERM))
hwm, killed = 0, 0
while True:
    p, st, ru = os.wait4(pid, os.WNOHANG)
    if p:
        break
    try:  # only once the child is the tool: before exec it is a copy of python
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            if f.read().split(b"\0")[0] == os.fsencode(argv[0]):
                with open("/proc/%d/status" % pid) as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            hwm = max(hwm, int(line.split()[1]))
    except (OSError, ValueError):
        pass
    el = time.monotonic() - t0
    if (killed == 0 and el > limit) or (killed == 1 and el > limit + 10):
        os.kill(pid, signal.SIGTERM if killed == 0 else signal.SIGKILL)
        killed += 1
    time.sleep(0.02)
with open(out, "w") as f:
    f.write("%.2f %.2f %.2f %s\n" % (time.monotonic() - t0, ru.ru_utime, ru.ru_stime, hwm or "-"))
sys.exit(124 if killed else os.waitstatus_to_exitcode(st) if hasattr(os, "waitstatus_to_exitcode") else (st >> 8))
EOF
	}
else
	TIMER="bash times (no peak RSS: apt-get install time for /usr/bin/time)"
	timed()
	{
		local out=$1 t0 t1 rc; shift
		t0=$(date +%s.%N)
		(
			"${GUARD[@]}" "$@"
			rc=$?
			times >"$out.times"
			exit $rc
		)
		rc=$?
		t1=$(date +%s.%N)
		# second line of `times`: the subshell's children, "XmY.YYYs XmY.YYYs"
		awk -v e="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" '
			NR == 2 { n = split($0, f, " "); for (i = 1; i <= 2; i++) {
				split(f[i], p, "m"); sub("s", "", p[2]); s[i] = p[1] * 60 + p[2] }
				printf "%s %.2f %.2f -\n", e, s[1], s[2] }' "$out.times" >"$out"
		rm -f "$out.times"
		return $rc
	}
fi

# A run that hangs is stopped (exit 124) after three times its runtime plus a minute.
LIMIT=$((RUNTIME * 3 + 60))
GUARD=()
command -v timeout >/dev/null 2>&1 && GUARD=(timeout --foreground -k 10 "$LIMIT")

# ---------------------------------------------------------------- scratch, loop device, cleanup
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vs-fio.XXXXXX") || exit 1
OUT=${KEEP:-$WORK}
mkdir -p "$OUT" || exit 1
LOOPDEV=
LOOPIMG=

# Detaches the loop device and removes its file: every device over the file, so that one
# attached just before a ^C, when LOOPDEV was not yet set, goes too.
detach_loop()
{
	local d
	if [ -n "$LOOPIMG" ]; then
		for d in $LOOPDEV $(losetup -n -O NAME -j "$LOOPIMG" 2>/dev/null); do
			losetup -d "$d" 2>/dev/null
		done
		[ -n "$(losetup -n -O NAME -j "$LOOPIMG" 2>/dev/null)" ] &&
			echo "vs-fio: could not detach the loop device over $LOOPIMG" >&2
		rm -f "$LOOPIMG"
	fi
	LOOPDEV=
	LOOPIMG=
}

cleanup()
{
	detach_loop
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "vs-fio: interrupted" >&2; exit 130' INT
trap 'echo "vs-fio: terminated" >&2; exit 143' TERM
trap 'exit 129' HUP

setup_loop()
{
	local avail
	if [ "$(id -u)" != 0 ]; then
		echo "vs-fio: not root: skipping the loop-device workloads 5-7 (run as root, e.g. sudo -E bench/vs-fio.sh)"
		return 1
	fi
	if ! command -v losetup >/dev/null 2>&1; then
		echo "vs-fio: losetup not found (apt-get install mount): skipping workloads 5-7"
		return 1
	fi
	avail=$(df -P -m "$BENCH_SHM" 2>/dev/null | awk 'NR == 2 { print $4 }')
	if [ -z "$avail" ] || [ "$avail" -lt 2300 ]; then
		echo "vs-fio: $BENCH_SHM has ${avail:-no} MiB free, 2300 needed: skipping workloads 5-7"
		return 1
	fi
	LOOPIMG=$(mktemp "$BENCH_SHM/vs-fio-loop.XXXXXX") || return 1
	truncate -s 2g "$LOOPIMG" || return 1
	LOOPDEV=$(losetup -f --show "$LOOPIMG") || { LOOPDEV=; echo "vs-fio: losetup failed: skipping workloads 5-7"; return 1; }
	echo "loop device: $LOOPDEV over $LOOPIMG (2 GiB on tmpfs), filling it once with dd ..."
	if ! dd if=/dev/zero of="$LOOPDEV" bs=1M count=2048 oflag=direct status=none; then
		echo "vs-fio: filling $LOOPDEV failed: skipping workloads 5-7"
		return 1
	fi
	return 0
}

# ---------------------------------------------------------------- numbers
median() { tr ' ' '\n' | awk 'NF' | sort -g | awk '{ v[NR] = $1 } END {
	if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
	else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
maxof() { tr ' ' '\n' | awk 'NF && $1 != "-" { if (!n++ || $1 > m) m = $1 } END { print n ? m : "nan" }'; }
calc() { awk "BEGIN { printf \"%.6f\\n\", $1 }"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b + 0 == 0) print "nan"; else printf "%.3f\n", a / b }'; }
fmt_iops() { awk -v x="$1" 'BEGIN { if (x == "nan") print "-"; else if (x >= 1e6) printf "%.2fM\n", x / 1e6;
	else if (x >= 1e3) printf "%.1fk\n", x / 1e3; else printf "%.0f\n", x }'; }
fmt_f() { awk -v x="$1" -v f="$2" 'BEGIN { if (x == "nan") print "-"; else printf f "\n", x }'; }
fmt_rss() { awk -v x="$1" 'BEGIN { if (x == "nan") print "-"; else printf "%.1f MiB\n", x / 1024 }'; }
# ge/le X Y: X >= Y / X <= Y, false when X is unknown
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "nan" && a + 0 >= b + 0) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "nan" && a + 0 <= b + 0) }'; }

declare -A V     # "$key.iops|cpu|rss|rshare|avgbs" -> space-separated values, one per round
declare -A DESC  # workload key -> description
FAILED=0
FAILS=()

# run_one KEY TOOL ROUND JOBFILE-OR-ARGS...: runs one tool once, records IOPS, CPU/MIO, RSS.
run_one()
{
	local key=$1 tool=$2 round=$3; shift 3
	local base="$OUT/$key.$tool.$round" rc n i d iops=0 ios=0 rios=0 bytes=0 x el u s m cpu
	local cmd=()
	case $tool in
	iowl) cmd=("$IOWL" --eta=never --output-format=json --output="$base.json" "$@") ;;
	fio) cmd=("$FIO" --eta=never --output-format=json --output="$base.json" "$@") ;;
	esac
	rm -f "$base.json"
	echo "${cmd[*]}" >"$base.cmd"
	timed "$base.time" "${cmd[@]}" >"$base.out" 2>"$base.err"
	rc=$?
	case $rc in # iowl's exit on SIGINT / SIGTERM: the user stopped the run
	130) echo "vs-fio: $tool was interrupted" >&2; exit 130 ;;
	143) echo "vs-fio: $tool was terminated" >&2; exit 143 ;;
	esac
	n=$(jv "$base.json" jobs)
	if [ $rc != 0 ] || [ -z "$n" ] || [ "$n" = 0 ]; then
		FAILED=1
		FAILS+=("workload $key: $tool exited $rc: ${cmd[*]}")
		printf '  %-7s round %d: FAILED (exit %d)\n' "$tool" "$round" "$rc"
		sed 's/^/        | /' "$base.err" | tail -n 8
		[ $rc = 124 ] && echo "        | (killed after ${LIMIT}s)"
		return 1
	fi
	for ((i = 0; i < n; i++)); do
		for d in read write trim; do
			x=$(jv "$base.json" "jobs.$i.$d.iops") && iops=$(calc "$iops + ${x:-0}")
			x=$(jv "$base.json" "jobs.$i.$d.total_ios") && {
				ios=$(calc "$ios + ${x:-0}")
				[ $d = read ] && rios=$(calc "$rios + ${x:-0}")
			}
			x=$(jv "$base.json" "jobs.$i.$d.io_bytes") && bytes=$(calc "$bytes + ${x:-0}")
		done
	done
	read -r el u s m < <(tail -n 1 "$base.time")
	cpu=$(awk -v u="$u" -v s="$s" -v n="$ios" 'BEGIN { if (n > 0) printf "%.6f\n", (u + s) / n * 1e6; else print "nan" }')
	V[$key.$tool.iops]+=" $iops"
	V[$key.$tool.cpu]+=" $cpu"
	V[$key.$tool.rss]+=" ${m:--}"
	V[$key.$tool.jobs]=$n
	[ "$round" = 1 ] && {
		V[$key.$tool.rshare]=$(awk -v r="$rios" -v n="$ios" 'BEGIN { printf "%.4f", n ? r / n : 0 }')
		V[$key.$tool.avgbs]=$(awk -v b="$bytes" -v n="$ios" 'BEGIN { printf "%.0f", n ? b / n : 0 }')
	}
	local label=$tool
	[[ $key == *.* ]] && label="$tool x${key#*.}" # workload 9: iowl x1, iowl x2 (threads)
	printf '  %-7s round %d: %9s IOPS  %8s s CPU/M IO  peak RSS %s  (%ss, usr %s sys %s)\n' \
		"$label" "$round" "$(fmt_iops "$iops")" "$(fmt_f "$cpu" %.3f)" \
		"$( [ "${m:--}" = - ] && echo - || fmt_rss "$m")" "$el" "$u" "$s"
	if awk -v e="$el" -v r="$RUNTIME" 'BEGIN { exit !(e < 0.9 * r) }'; then
		echo "        warning: $tool ran ${el}s, less than RUNTIME=${RUNTIME}s: time_based not honoured?"
	fi
	return 0
}

# same_meaning KEY: compares the two tools' first runs: the read share and mean transfer size
# they did, and (with python3 or jq) the job options each echoes in its JSON.
same_meaning()
{
	local key=$1 fj="$OUT/$1.fio.1.json" ij="$OUT/$1.iowl.1.json" diff
	[ -n "${V[$key.iowl.rshare]:-}" ] && [ -n "${V[$key.fio.rshare]:-}" ] || return 0
	echo "  same meaning? reads ${V[$key.iowl.rshare]} vs ${V[$key.fio.rshare]} of the IOs," \
		"mean transfer ${V[$key.iowl.avgbs]} vs ${V[$key.fio.avgbs]} bytes (iowl vs fio)"
	if ! awk -v a="${V[$key.iowl.rshare]}" -v b="${V[$key.fio.rshare]}" \
		-v c="${V[$key.iowl.avgbs]}" -v d="${V[$key.fio.avgbs]}" \
		'BEGIN { exit !((a - b < 0.01 && b - a < 0.01) && (c - d) <= 0.02 * d && (d - c) <= 0.02 * d) }'; then
		echo "  WARNING: the two tools did not do the same mix of IO: check the job file's meaning"
	fi
	# Options echo: global options merged with each job's options. Normalised: valueless flags
	# (fio 3.33 leaves them out, iowl lists them as "") and iodepth_batch_submit, which fio
	# names by its canonical name iodepth_batch.
	local prog='import json, sys
def opts(p):
    d = json.load(open(p)); o = dict(d.get("global options") or {})
    for j in d.get("jobs", [])[:1]:
        o.update(j.get("job options") or {})
    o = {{"iodepth_batch_submit": "iodepth_batch"}.get(k, k): v for k, v in o.items() if v != ""}
    return o
a, b = opts(sys.argv[1]), opts(sys.argv[2])
for k in sorted(set(a) | set(b)):
    if a.get(k) != b.get(k):
        print("    %s: iowl %s, fio %s" % (k, a.get(k, "(absent)"), b.get(k, "(absent)")))'
	if command -v python3 >/dev/null 2>&1; then
		diff=$(python3 -c "$prog" "$ij" "$fj" 2>&1)
	elif command -v jq >/dev/null 2>&1; then
		diff=$(jq -rn --slurpfile a "$ij" --slurpfile b "$fj" '
			def opts(d): ((d["global options"] // {}) + ((d.jobs[0] // {})["job options"] // {}))
				| with_entries(select(.value != "")
				| .key |= (if . == "iodepth_batch_submit" then "iodepth_batch" else . end));
			opts($a[0]) as $x | opts($b[0]) as $y
			| (($x | keys) + ($y | keys) | unique)[]
			| select($x[.] != $y[.])
			| "    \(.): iowl \($x[.] // "(absent)"), fio \($y[.] // "(absent)")"' 2>&1)
	else
		echo "  (job options echo not compared: needs python3 or jq)"
		return 0
	fi
	if [ -n "$diff" ]; then
		echo "  WARNING: the job options the two tools echo differ:"
		echo "$diff"
	else
		echo "  job options echoed: identical (after normalising valueless flags and aliases)"
	fi
	# Queue depths: the commonest bucket of iodepth_level / iodepth_submit / iodepth_complete.
	local di df
	if command -v python3 >/dev/null 2>&1; then
		prog='import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("/".join(max(j[k].items(), key=lambda kv: kv[1])[0]
               for k in ("iodepth_level", "iodepth_submit", "iodepth_complete")))'
		di=$(python3 -c "$prog" "$ij" 2>/dev/null) df=$(python3 -c "$prog" "$fj" 2>/dev/null)
	else
		prog='.jobs[0] | [(.iodepth_level, .iodepth_submit, .iodepth_complete)
			| to_entries | max_by(.value) | .key] | join("/")'
		di=$(jq -r "$prog" "$ij" 2>/dev/null) df=$(jq -r "$prog" "$fj" 2>/dev/null)
	fi
	if [ -n "$di" ] && [ "$di" != "$df" ]; then
		echo "  note: queue depth in flight / submitted / reaped per call (commonest fio bucket)" \
			"differ: iowl $di, fio $df"
	fi
}

# bench_pair KEY DESC ENV-ASSIGNMENTS... -- JOBFILE: ROUNDS x (iowl, fio)
bench_pair()
{
	local key=$1 desc=$2 r; shift 2
	DESC[$key]=$desc
	echo
	echo "== $key: $desc"
	local skip_iowl=0 skip_fio=0 # a tool that failed is not run again on this workload
	for ((r = 1; r <= ROUNDS; r++)); do
		[ $skip_iowl = 0 ] && { run_one "$key" iowl "$r" "$@" || skip_iowl=1; }
		[ $skip_fio = 0 ] && { run_one "$key" fio "$r" "$@" || skip_fio=1; }
		[ $skip_iowl = 1 ] && [ $skip_fio = 1 ] && break
	done
	same_meaning "$key"
}

# ---------------------------------------------------------------- header
export RUNTIME
CPU_MODEL=$(lscpu 2>/dev/null | awk -F: '/^Model name/ { sub(/^[ \t]+/, "", $2); print $2; exit }')
[ -n "$CPU_MODEL" ] || CPU_MODEL=$(awk -F: '/^model name/ { sub(/^[ \t]+/, "", $2); print $2; exit }' /proc/cpuinfo)
FIO_VERSION=$("$FIO" --version 2>/dev/null)
IOWL_REV=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
IOWL_VERSION=$("$IOWL" --version 2>/dev/null | head -n 1)
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "vs-fio: $DATE, Linux $(uname -r), $CPU_MODEL ($(nproc) CPUs)"
echo "iowl:   $IOWL ($IOWL_VERSION, git $IOWL_REV)"
echo "fio:    $FIO ($FIO_VERSION)"
echo "rounds: $ROUNDS x ${RUNTIME}s per tool and workload, alternating iowl, fio"
echo "JSON:   $JSON_READER"
echo "CPU:    $TIMER"

# ---------------------------------------------------------------- workloads
want 1 && bench_pair 1 "null, randread 4k, qd 1, uniform, 1 thread, latency recorded" \
	"$JOBS/1-null-randread-qd1.fio"
want 2 && bench_pair 2 "null, randread 4k, qd 32, batch submit 16 / complete_min 16" \
	"$JOBS/2-null-randread-qd32-batch.fio"
want 3 && bench_pair 3 "null, randread 4k, qd 1, zipf:1.2" \
	"$JOBS/3-null-randread-zipf.fio"
want 4 && bench_pair 4 "null, randrw 70/30, bssplit 4k/30:8k/30:64k/40, pareto:0.8" \
	"$JOBS/4-null-randrw-bssplit-pareto.fio"

if want 5 || want 6 || want 7; then
	echo
	if setup_loop; then
		export BENCH_DEV=$LOOPDEV
		want 5 && bench_pair 5 "io_uring, randread 4k, qd 32, direct, loop dev on tmpfs" \
			"$JOBS/5-uring-randread-qd32.fio"
		want 6 && bench_pair 6 "libaio, randread 4k, qd 32, direct, loop dev on tmpfs" \
			"$JOBS/6-libaio-randread-qd32.fio"
		want 7 && bench_pair 7 "psync, randread 4k, qd 1, direct, loop dev on tmpfs" \
			"$JOBS/7-psync-randread-qd1.fio"
	fi
	detach_loop
fi

if want 8; then
	DESC[8]="SNIA hot band (jobs/snia-hotband.ini), null engine, iowl only"
	echo
	echo "== 8: ${DESC[8]}"
	truncate -s 16g "$WORK/hotband.img"
	for ((r = 1; r <= ROUNDS; r++)); do
		IOWL_DEV=$WORK/hotband.img run_one 8 iowl "$r" --set ioengine=null --set direct=0 \
			--set ramp_time=0 --set runtime="$RUNTIME" "$ROOT/jobs/snia-hotband.ini" || break
	done
fi

if want 9; then
	DESC[9]="null, randread 4k, qd 1: 2 threads (numjobs=2, group_reporting) vs 1"
	echo
	echo "== 9: ${DESC[9]}"
	DESC[9.1]="null, 1 thread"
	DESC[9.2]="null, 2 threads"
	for ((r = 1; r <= ROUNDS; r++)); do
		NUMJOBS=1 run_one 9.1 iowl "$r" "$JOBS/9-null-threads.fio" || break
		NUMJOBS=1 run_one 9.1 fio "$r" "$JOBS/9-null-threads.fio" || break
		NUMJOBS=2 run_one 9.2 iowl "$r" "$JOBS/9-null-threads.fio" || break
		NUMJOBS=2 run_one 9.2 fio "$r" "$JOBS/9-null-threads.fio" || break
	done
	same_meaning 9.1
	same_meaning 9.2
fi

# ---------------------------------------------------------------- results
med() { median <<<"${V[$1]:-}"; }
peak() { maxof <<<"${V[$1]:-}"; }

TABLE=()
CHECKS=()
check() # label value op target unit
{
	local ok=MISS
	case $3 in
	'>=') ge "$2" "$4" && ok=PASS ;;
	'<=') le "$2" "$4" && ok=PASS ;;
	esac
	local m="$(fmt_f "$2" %.2f)$5"
	[ "$2" = nan ] && ok="no data" m=-
	CHECKS+=("$(printf '| %s | %s | %s %s%s | %s |' "$1" "$m" "$3" "$4" "$5" "$ok")")
}

for key in 1 2 3 4 5 6 7 9.1 9.2; do
	want "${key%%.*}" || continue
	[ -n "${V[$key.iowl.iops]:-}${V[$key.fio.iops]:-}" ] || continue
	ii=$(med "$key.iowl.iops") fi=$(med "$key.fio.iops")
	ic=$(med "$key.iowl.cpu") fc=$(med "$key.fio.cpu")
	ir=$(peak "$key.iowl.rss") fr=$(peak "$key.fio.rss")
	ri=$(ratio "$ii" "$fi") rc=$(ratio "$ic" "$fc") rr=$(ratio "$ir" "$fr")
	TABLE+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' "$key" "${DESC[$key]}" \
		"$(fmt_iops "$ii")" "$(fmt_iops "$fi")" "$(fmt_f "$ri" %.2fx)" \
		"$(fmt_f "$ic" %.3f)" "$(fmt_f "$fc" %.3f)" "$(fmt_f "$rc" %.2fx)" \
		"$(fmt_rss "$ir")" "$(fmt_rss "$fr")")")
	case $key in
	1 | 2 | 3 | 4) check "$key IOPS iowl/fio" "$ri" '>=' 3 x ;;
	5 | 6) check "$key IOPS iowl/fio" "$ri" '>=' 1.1 x
		check "$key CPU per IO iowl/fio" "$rc" '<=' 0.8 x ;;
	7) check "$key IOPS iowl/fio" "$ri" '>=' 1.0 x ;;
	esac
	check "$key peak RSS iowl/fio" "$rr" '<=' 0.5 x
done

SCALING=()
if want 9 && [ -n "${V[9.1.iowl.iops]:-}" ]; then
	for t in iowl fio; do
		s=$(ratio "$(med "9.2.$t.iops")" "$(med "9.1.$t.iops")")
		V[9.$t.scaling]=$s
		SCALING+=("$(printf '| %s | %s | %s | %s |' "$t" "$(fmt_iops "$(med "9.1.$t.iops")")" \
			"$(fmt_iops "$(med "9.2.$t.iops")")" "$(fmt_f "$s" %.2fx)")")
	done
	check "9 iowl 2 threads / 1 thread" "${V[9.iowl.scaling]}" '>=' 1.9 x
fi

HOT=
if want 8 && [ -n "${V[8.iowl.iops]:-}" ]; then
	hi=$(med 8.iowl.iops)
	threads=${V[8.iowl.jobs]:-1}
	per=$(awk -v i="$hi" -v t="$threads" 'BEGIN { printf "%.0f\n", i / t }')
	ns=$(awk -v p="$per" 'BEGIN { printf "%.1f\n", (p > 0 ? 1e9 / p : 0) }')
	cns=$(awk -v c="$(med 8.iowl.cpu)" 'BEGIN { printf "%.1f\n", c * 1e3 }')
	HOT=$(printf '| 8 | %s | %s | %s | %s | %s | %s |' "${DESC[8]}" "$(fmt_iops "$hi")" "$threads" \
		"$ns" "$cns" "$(fmt_rss "$(peak 8.iowl.rss)")")
	check "8 hot band M IOs/s per thread" "$(awk -v p="$per" 'BEGIN { print p / 1e6 }')" '>=' 15 M
fi

echo
echo "================================================================ results (Markdown)"
echo
echo "$DATE, Linux $(uname -r), $CPU_MODEL, $(nproc) CPUs; $FIO_VERSION; iowl $IOWL_VERSION git $IOWL_REV."
echo "$ROUNDS rounds of ${RUNTIME}s per tool, alternating; medians of the rounds; peak RSS is the largest."
echo "CPU: $TIMER; CPU/M IO = (user + sys) s per million IOs."
echo
if [ ${#TABLE[@]} -gt 0 ]; then
	echo "| # | workload | iowl IOPS | fio IOPS | iowl/fio | iowl CPU s/M IO | fio CPU s/M IO | CPU iowl/fio | iowl peak RSS | fio peak RSS |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	printf '%s\n' "${TABLE[@]}"
	echo
fi
if [ -n "$HOT" ]; then
	echo "| # | workload | iowl IOPS | threads | ns per IO per thread | CPU ns per IO | peak RSS |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	echo "$HOT"
	echo
fi
if [ ${#SCALING[@]} -gt 0 ]; then
	echo "| 9: tool | 1 thread IOPS | 2 threads IOPS | 2 threads / 1 thread |"
	echo "|---|---:|---:|---:|"
	printf '%s\n' "${SCALING[@]}"
	echo
fi
if [ ${#CHECKS[@]} -gt 0 ]; then
	echo "| target | measured | target | verdict |"
	echo "|---|---:|---:|---|"
	printf '%s\n' "${CHECKS[@]}"
	echo
fi
if [ $FAILED != 0 ]; then
	echo "Tool failures (see above for their messages):"
	printf '  %s\n' "${FAILS[@]}"
	[ -n "$KEEP" ] && echo "Outputs kept in $KEEP"
	exit 1
fi
[ -n "$KEEP" ] && echo "Outputs kept in $KEEP"
exit 0
