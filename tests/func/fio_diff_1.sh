#!/bin/sh
# The differential suite against fio (tests/fio-diff/README.md), part 1 of 8 of its cases.
exec sh "$(dirname "$0")/../fio-diff/run.sh" --shard 1/8
