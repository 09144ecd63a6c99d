#!/bin/sh
# vdbench parameter files (tests/vdbench) written from vdbench's documented examples: random
# and sequential reads and writes, two disks, skew= and seekpct=.
# Each runs for 2 s on sparse scratch luns and is checked against its "* check" lines
# (tests/vdbench/lib.sh) from the IO log and the JSON results.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/lib.sh"
vdb_cases 01-random-read 02-two-disks 03-skew 04-seq-read 05-seq-write 06-seekpct
echo "vdbench parameter files ok: 01-random-read 02-two-disks 03-skew 04-seq-read 05-seq-write 06-seekpct"
