#!/bin/sh
# vdbench parameter files (tests/vdbench) with loops: forthreads and forxfersize (a --sweep of
# iodepth and bs), iorate=curve (--curve), a list of rates (one phase each), forrdpct and
# forseekpct.
# Each runs for 2 s on sparse scratch luns and is checked against its "* check" lines
# (tests/vdbench/lib.sh) from the IO log and the JSON results.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/lib.sh"
vdb_cases 16-forthreads 17-forxfersize 18-curve 19-foriorate 25-forrdpct 26-forseekpct
echo "vdbench parameter files ok: 16-forthreads 17-forxfersize 18-curve 19-foriorate 25-forrdpct 26-forseekpct"
