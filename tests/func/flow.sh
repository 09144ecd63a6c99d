#!/bin/sh
# SPDX-License-Identifier: MIT
# flow, flow_id, flow_sleep (fio 3.33's flow control): the jobs running together with the same
# flow_id keep their IO counts in the ratio of their flow weights.  Measured from the JSON
# totals, for fio as well where it is installed; a job whose partner ended goes on alone; flows of
# different ids do not hold each other.
. "$(dirname "$0")/../lib.sh"
# ratio FILE: the second job's IOs over the first's
ratio() {
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
n = [j["read"]["total_ios"] + j["write"]["total_ios"] for j in d["jobs"]]
print("%.4f" % (n[1] / n[0]))' "$1"
}
cat > "$SCRATCH/flow.fio" <<'EOT'
[global]
ioengine=null
size=1g
bs=4k
time_based
runtime=1
flow_id=3
[light]
rw=write
flow=1
[heavy]
rw=randread
flow=3
EOT
"$IOWL" --output-format=json "$SCRATCH/flow.fio" > "$SCRATCH/i.json" 2> "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "iowl flow run"; }
r=$(ratio "$SCRATCH/i.json")
approx "$r" 3 15 || fail "flow=1 and flow=3: the IO ratio is $r, expected 3 (within 15 %: the clones start and end apart under load, and the one left runs on alone; without flow it is 1)"
# (fio's answer, its ratio 3 within 15 %, is kept once given: tests/lib.sh's fio_kept; its two
# jobs spin a CPU each for the second)
if have_fio && ! fio_kept flow.fio "ratio 3 within 15 %"; then
	fio --output-format=json --output="$SCRATCH/f.json" "$SCRATCH/flow.fio" > /dev/null 2>&1 ||
		fail "fio flow run"
	fr=$(ratio "$SCRATCH/f.json")
	# fio's held job spins on the CPU its partner needs: on a loaded machine its ratio strays
	# (46, 0.63 and 1.04 seen at a load of 60-90; 3.00 alone), so it is shown, not judged
	if approx "$fr" 3 15; then
		echo "fio's ratio: $fr"
		fio_keep flow.fio "ratio 3 within 15 %"
	else
		echo "note: fio's ratio is $fr, not 3 (its held job spins; the machine is loaded)"
	fi
fi
# flow_sleep: the same shares, with waits of 100 us between retries
"$IOWL" --output-format=json --flow_sleep=100 "$SCRATCH/flow.fio" > "$SCRATCH/i.json" 2> "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "iowl flow_sleep run"; }
r=$(ratio "$SCRATCH/i.json")
approx "$r" 3 15 || fail "flow_sleep=100: the IO ratio is $r, expected 3 (within 15 %)"
# a job whose partner has ended is no longer held: the run ends with all of both done
cat > "$SCRATCH/end.fio" <<'EOT'
[global]
ioengine=null
bs=4k
flow=1
[short]
rw=read
size=4m
[long]
rw=read
size=64m
EOT
timeout 60 "$IOWL" --output-format=json "$SCRATCH/end.fio" > "$SCRATCH/e.json" 2> "$SCRATCH/err" ||
	{ cat "$SCRATCH/err"; fail "a flow job left alone was held (or the run failed)"; }
n=$(jget "$SCRATCH/e.json" jobs.1.read.total_ios)
[ "$n" = 16384 ] || fail "the long job did $n IOs, expected 16384"
# different flow_ids: each job alone in its flow, never held; a weight above fio's 1000 is refused
printf '[a]\nioengine=null\nsize=1m\nflow=1\nflow_id=1\n[b]\nioengine=null\nsize=1m\nflow=1000\nflow_id=2\n' > "$SCRATCH/ids.fio"
timeout 60 "$IOWL" "$SCRATCH/ids.fio" > /dev/null 2> "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "two flow ids"; }
printf '[a]\nioengine=null\nsize=1m\nflow=1001\n' > "$SCRATCH/big.fio"
expect_status 1 "$IOWL" --parse-only "$SCRATCH/big.fio"
grep -q "big.fio:4: flow=1001" "$SCRATCH/err" || fail "flow=1001: $(cat "$SCRATCH/err")"
exit 0
