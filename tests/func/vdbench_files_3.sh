#!/bin/sh
# vdbench parameter files (tests/vdbench) written from vdbench's documented examples: rhpct= hit
# areas, streams=, a fixed iorate, default= inheritance, name ranges and wildcards.
# Each runs for 2 s on sparse scratch luns and is checked against its "* check" lines
# (tests/vdbench/lib.sh) from the IO log and the JSON results.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/lib.sh"
vdb_cases 13-rhpct 14-streams 15-iorate-mixed 20-defaults 21-name-ranges
echo "vdbench parameter files ok: 13-rhpct 14-streams 15-iorate-mixed 20-defaults 21-name-ranges"
