#!/bin/sh
# The corpus of bad vdbench parameter files under tests/vdbench/bad, checked as bad_jobs.sh checks
# tests/bad: exit 1, the one expected line naming the file, line and vdbench's parameter, no
# output, no file created.
BAD_CORPUS=vdbench/bad BAD_FILE=param.vdb BAD_MIN=30 exec sh "$(dirname "$0")/bad_jobs.sh"
