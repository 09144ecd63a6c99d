#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/report.sh: how long `iowl report` takes to draw a one-hour run with 1 s intervals, and how
# large the page is.  Target: under 1 s and under 2 MiB.  A short real run (2 jobs, randrw, json+)
# is stretched to 3600 intervals per job (python3), then drawn ROUNDS times; prints the fastest
# (CPU and wall time) and PASS/MISS.  A report, not a test: exit 0, or 1 when a step failed to run.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
IOWL=${IOWL:-$ROOT/build/iowl}
ROUNDS=${ROUNDS:-5}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "bench/report.sh needs python3"; exit 1; }

"$IOWL" --eta=never --ioengine=null --size=1g --bs=4k --rw=randrw --time_based --runtime=2 \
	--name=a --name=b --output-format=json+ --output="$DIR/short.json" || exit 1
python3 - "$DIR/short.json" "$DIR/hour.json" <<'EOF' || exit 1
import json, math, random, sys
doc = json.load(open(sys.argv[1]))
random.seed(1)
for job in doc["jobs"]:
    pts = job["iowl"]["intervals"]["points"]
    base = pts[len(pts) // 2]
    out = []
    for i in range(3600):
        p = json.loads(json.dumps(base))
        p["t_ms"], p["ms"] = 1000 * (i + 1), 1000
        f = 1 + 0.2 * math.sin(i / 300) + 0.05 * random.random()
        for d in ("read", "write"):
            if d in p:
                for k in ("total_ios", "io_bytes", "iops", "bw_bytes"):
                    p[d][k] = p[d][k] * f
                for k in ("clat_p50_ns", "clat_p99_ns", "clat_p999_ns"):
                    p[d][k] = int(p[d][k] * (1 + 3 * random.random() ** 8))
        out.append(p)
    job["iowl"]["intervals"]["points"] = out
json.dump(doc, open(sys.argv[2], "w"))
EOF
# CPU seconds (user + system) of each drawing, and its wall time: on a busy machine the wall time
# waits for the CPU, the CPU time does not.
times=$(python3 - "$IOWL" "$DIR" "$ROUNDS" <<'EOF'
import resource, subprocess, sys, time
iowl, d, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
best_cpu = best_wall = None
for _ in range(rounds):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run([iowl, "report", d + "/hour.json", "-o", d + "/hour.html"], check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    best_wall = wall if best_wall is None else min(best_wall, wall)
print("%d %d" % (best_cpu * 1000, best_wall * 1000))
EOF
) || exit 1
cpu=${times% *}
wall=${times#* }
size=$(wc -c < "$DIR/hour.html")
json=$(wc -c < "$DIR/hour.json")
echo "iowl report, 2 jobs x 2 directions x 3600 intervals ($json bytes of JSON):"
echo "  fastest of $ROUNDS: $cpu ms of CPU, $wall ms of wall time (target < 1000 ms): $([ "$cpu" -lt 1000 ] && echo PASS || echo MISS)"
echo "  page: $size bytes (target < 2 MiB): $([ "$size" -lt 2097152 ] && echo PASS || echo MISS)"
