#!/bin/sh
# vdbench parameter files (tests/vdbench): compratio=, openflags=o_direct, local hosts, $host
# repetition and count=.
# Each runs for 2 s on sparse scratch luns and is checked against its "* check" lines
# (tests/vdbench/lib.sh) from the IO log and the JSON results.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vdbench/lib.sh"
vdb_cases 29-compratio 30-openflags 31-localhost 32-host-repeat 33-count
echo "vdbench parameter files ok: 29-compratio 30-openflags 31-localhost 32-host-repeat 33-count"
