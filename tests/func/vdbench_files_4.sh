#!/bin/sh
# vdbench parameter files (tests/vdbench) as real files are written: abbreviated keywords,
# comments and continued lines, two run definitions, $NAME substitutions and include=,
# seekpct=eof.
# Each runs for 2 s on sparse scratch luns and is checked against its "* check" lines
# (tests/vdbench/lib.sh) from the IO log and the JSON results.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/lib.sh"
vdb_cases 22-abbreviations 23-syntax 24-two-runs 27-substitution 28-eof
echo "vdbench parameter files ok: 22-abbreviations 23-syntax 24-two-runs 27-substitution 28-eof"
