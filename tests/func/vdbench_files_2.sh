#!/bin/sh
# vdbench parameter files (tests/vdbench) written from vdbench's documented examples: the OLTP
# mix, transfer size distributions and ranges, range=, hotband= and a range across the end of
# the lun.
# Each runs for 2 s on sparse scratch luns and is checked against its "* check" lines
# (tests/vdbench/lib.sh) from the IO log and the JSON results.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/lib.sh"
vdb_cases 07-mixed 08-xfersize-distribution 09-xfersize-range 10-range 11-hotband 12-range-wrap
echo "vdbench parameter files ok: 07-mixed 08-xfersize-distribution 09-xfersize-range 10-range 11-hotband 12-range-wrap"
