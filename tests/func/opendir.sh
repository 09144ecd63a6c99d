#!/bin/sh
# SPDX-License-Identifier: MIT
# opendir, fio's meaning: every regular file below the directory, recursively, is one of the
# job's files, in readdir order with each subdirectory walked where it is met; symbolic links and
# FIFOs are left out.  Files of 16, 32, 48 and 64 KiB: a randread without size reads all 160 KiB,
# with size=64k 64 KiB split over them; the write_iolog's "add" lines name the files in fio's order.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
d="$SCRATCH/od"
mkdir -p "$d/a/b" "$d/c" "$d/empty/sub" || fail "mkdir"
truncate -s 16k "$d/x" && truncate -s 32k "$d/a/y" && truncate -s 48k "$d/a/b/z" &&
	truncate -s 64k "$d/c/w" || fail "truncate"
ln -s x "$d/link" && mkfifo "$d/fifo" || fail "link, fifo"
# the files in the order the log added them
added() { sed -n 's/^\([0-9]* \)\{0,1\}\(.*\) add$/\2/p' "$1"; }
# run TOOL SIZE: read bytes of the job; its iolog in TOOL.log
run() {
	printf '[od]\nopendir=%s\nrw=randread\nbs=4k\nwrite_iolog=%s.log\n%s\n' "$d" "${1##*/}" "$2" > od.fio
	rm -f "${1##*/}.log"
	"$1" --output-format=json od.fio 2> run.err | sed -n '/^{/,$p' > run.json || { cat run.err; fail "$1 opendir ($2) failed"; }
	jget run.json jobs.0.read.io_bytes
}
got=$(run "$IOWL" "")
[ "$got" = 163840 ] || fail "opendir without size read $got bytes, expected 163840 (16+32+48+64 KiB)"
added iowl.log | sort > files
printf '%s\n' "$d/a/b/z" "$d/a/y" "$d/c/w" "$d/x" > want
cmp -s files want || fail "opendir took the files $(tr '\n' ' ' < files), expected $(tr '\n' ' ' < want)"
# readdir order, depth first: as ls -U shows it
order() { for e in $(ls -U "$1"); do
	if [ -f "$1/$e" ] && [ ! -L "$1/$e" ]; then echo "$1/$e"; elif [ -d "$1/$e" ] && [ ! -L "$1/$e" ]; then order "$1/$e"; fi
done; }
order "$d" > want_order
added iowl.log > files
cmp -s files want_order || fail "opendir's order $(tr '\n' ' ' < files), readdir's $(tr '\n' ' ' < want_order)"
got=$(run "$IOWL" size=64k)
[ "$got" = 65536 ] || fail "opendir with size=64k read $got bytes, expected 65536"
if have_fio; then
	for sz in "" size=64k; do
		f=$(run fio "$sz") i=$(run "$IOWL" "$sz")
		[ "$f" = "$i" ] || fail "opendir ($sz): fio read $f bytes, iowl $i"
		added fio.log > ff
		added iowl.log > fi
		cmp -s ff fi || fail "opendir ($sz): fio added $(tr '\n' ' ' < ff), iowl $(tr '\n' ' ' < fi)"
	done
fi
# errors: a directory with no regular file, one that does not exist
printf '[e]\nopendir=%s\nrw=read\n' "$d/empty" > e.fio
expect_status 1 "$IOWL" --parse-only e.fio
grep -q "e.fio:2:.*no regular file" "$SCRATCH/err" || fail "empty opendir: $(cat "$SCRATCH/err")"
printf '[e]\nopendir=%s\nrw=read\n' "$d/none" > e.fio
expect_status 1 "$IOWL" --parse-only e.fio
grep -q "e.fio:2:.*cannot open directory" "$SCRATCH/err" || fail "missing opendir: $(cat "$SCRATCH/err")"
exit 0
