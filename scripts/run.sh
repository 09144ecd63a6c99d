#!/bin/sh
# SPDX-License-Identifier: MIT
# make run: jobs/quick.ini on a scratch file in the current directory, with O_DIRECT where the
# filesystem allows it (so the figures are the device's, not the page cache's), else buffered and
# said so. The scratch file is removed afterwards, also when the run is interrupted.
iowl=${1:-./iowl}
scratch=iowl-quick.scratch
probe=iowl-direct-probe.scratch
trap 'rm -f "$scratch" "$probe"' EXIT
trap 'exit 130' INT TERM
direct=0
if dd if=/dev/zero of="$probe" bs=4096 count=1 oflag=direct status=none 2>/dev/null; then
	direct=1
else
	echo "make run: the filesystem of $(pwd) does not support O_DIRECT; measuring through the page cache (direct=0)" >&2
fi
rm -f "$probe"
echo "make run: $iowl --set direct=$direct --set filename=$scratch jobs/quick.ini" >&2
"$iowl" --set direct=$direct --set filename="$scratch" jobs/quick.ini
