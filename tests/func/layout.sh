#!/bin/sh
# How a job's files are made, with fio's options and meaning: fallocate (native by default: a
# write job's new file is preallocated, not written), create_on_open, overwrite, file_append,
# unlink and unlink_each_loop.  A layout that writes data leaves non-zero bytes; preallocated
# space reads as zeros.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
fallocate -l 4096 probe 2>/dev/null || skip "the scratch file system cannot fallocate"
size_of() { stat -c %s "$1"; }
blocks_of() { stat -c %b "$1"; }
# zeros_at FILE OFFSET: true when the 16 bytes at OFFSET are all zero
zeros_at() { [ -z "$(od -An -v -tx1 -j "$2" -N 16 "$1" | tr -d ' 0\n')" ]; }
w() { # NAME OPTIONS...: one 4 KiB write at offset 0 of a new 1 MiB file
	n=$1; shift
	rm -f "$n"
	"$IOWL" --eta=never --name="$n" --filename="$n" --rw=write --bs=4k --size=1m --number_ios=1 \
		"$@" > "$n.out" 2> "$n.err" || { cat "$n.err"; fail "$n: run failed"; }
}
w native
[ "$(size_of native)" = 1048576 ] && [ "$(blocks_of native)" -ge 2048 ] ||
	fail "default (fallocate=native): $(size_of native) bytes, $(blocks_of native) blocks"
zeros_at native 524288 || fail "a write job's new file was written before the job (fio preallocates it)"
w none --fallocate=none
[ "$(size_of none)" = 4096 ] || fail "fallocate=none: $(size_of none) bytes, expected 4096"
w trunc --fallocate=truncate
[ "$(size_of trunc)" = 1048576 ] && [ "$(blocks_of trunc)" -lt 2048 ] ||
	fail "fallocate=truncate: $(size_of trunc) bytes, $(blocks_of trunc) blocks (sparse 1 MiB expected)"
w keep --fallocate=keep
[ "$(size_of keep)" = 4096 ] && [ "$(blocks_of keep)" -ge 2048 ] ||
	fail "fallocate=keep: $(size_of keep) bytes, $(blocks_of keep) blocks"
w posix --fallocate=posix
[ "$(size_of posix)" = 1048576 ] || fail "fallocate=posix: $(size_of posix) bytes"
w one --fallocate=1
[ "$(size_of one)" = 1048576 ] || fail "fallocate=1 (posix): $(size_of one) bytes"
w zero --fallocate=0
[ "$(size_of zero)" = 4096 ] || fail "fallocate=0 (none): $(size_of zero) bytes"
w over --overwrite=1
zeros_at over 524288 && fail "overwrite=1: the file was not laid out before the writes"
w coo --create_on_open=1
[ "$(size_of coo)" = 4096 ] || fail "create_on_open=1: $(size_of coo) bytes (created by the job's open, not laid out)"
"$IOWL" --eta=never --name=r --filename=r --rw=read --bs=4k --size=1m --number_ios=1 > r.out 2> r.err ||
	{ cat r.err; fail "read job"; }
zeros_at r 524288 && fail "a read job's new file was not laid out with data"
"$IOWL" --eta=never --name=rc --filename=rc --rw=read --size=1m --create_on_open=1 --parse-only 2> rc.err &&
	fail "create_on_open with a read job on a missing file accepted (it would read nothing)"
grep -q "create_on_open" rc.err || { cat rc.err; fail "create_on_open refusal does not name it"; }
# fio makes the same files: size, and data or not in the middle (fio's answer kept once given,
# tests/lib.sh's fio_kept: the question is iowl's files)
files=$(for m in native none trunc keep posix over coo; do
	z=-
	[ "$(size_of $m)" = 1048576 ] && { zeros_at $m 524288 && z=zeros || z=data; }
	echo "$m $(size_of $m) $z"
done | paste -sd ';' -)
if have_fio && ! fio_kept "$files"; then
	for m in native none trunc keep posix over coo; do
		case $m in
		over) set -- --overwrite=1 ;;
		coo) set -- --create_on_open=1 ;;
		trunc) set -- --fallocate=truncate ;;
		*) set -- --fallocate=$m ;;
		esac
		rm -f "f$m"
		fio --name="f$m" --filename="f$m" --rw=write --bs=4k --size=1m --number_ios=1 "$@" \
			--output-format=terse > /dev/null 2>&1 || fail "fio $*"
		[ "$(size_of "f$m")" = "$(size_of $m)" ] || fail "$*: fio made $(size_of "f$m") bytes, iowl $(size_of $m)"
		[ "$(size_of $m)" = 1048576 ] || continue
		zeros_at "f$m" 524288 && fz=zeros || fz=data
		zeros_at "$m" 524288 && iz=zeros || iz=data
		[ "$fz" = "$iz" ] || fail "$*: the middle of fio's file is $fz, of iowl's $iz"
	done
	echo "same files as fio"
	fio_keep "$files"
fi
echo "fallocate, overwrite, create_on_open as fio"

# file_append: the region starts at the end of the file.
head -c 65536 /dev/zero | tr '\0' 'a' > app
"$IOWL" --eta=never --name=app --filename=app --rw=write --bs=4k --size=64k --file_append=1 \
	--write_iolog=app.log > app.out 2> app.err || { cat app.err; fail "file_append"; }
[ "$(size_of app)" = 131072 ] || fail "file_append: $(size_of app) bytes, expected 128 KiB"
[ "$(awk '$2 == "write" && $3 < 65536' app.log | wc -l)" = 0 ] || fail "file_append wrote before the old end"
[ "$(head -c 65536 app | tr -d a | wc -c)" = 0 ] || fail "file_append changed the file's old data"
# unlink: the file is gone after the job; unlink_each_loop: a new file for every loop after the first.
"$IOWL" --eta=never --name=ul --filename=ul --rw=write --bs=4k --size=64k --unlink=1 > ul.out 2> ul.err ||
	{ cat ul.err; fail "unlink"; }
[ -e ul ] && fail "unlink=1 left the file"
head -c 65536 /dev/zero | tr '\0' a > uel
ln uel uel.first || fail "ln"
"$IOWL" --eta=never --name=uel --filename=uel --rw=write --bs=4k --size=64k --loops=3 \
	--unlink_each_loop=1 --write_iolog=uel.log > uel.out 2> uel.err || { cat uel.err; fail "unlink_each_loop"; }
[ -e uel ] || fail "unlink_each_loop removed the file after the last loop (fio keeps it)"
[ "$(stat -c %i uel)" != "$(stat -c %i uel.first)" ] || fail "unlink_each_loop: still the first file"
[ "$(head -c 65536 uel.first | tr -cd a | wc -c)" -lt 4096 ] || fail "unlink_each_loop: the first loop did not write the first file"
[ "$(awk '$2 == "write"' uel.log | wc -l)" = 48 ] || fail "unlink_each_loop loops=3: $(awk '$2 == "write"' uel.log | wc -l) writes"
"$IOWL" --eta=never --name=uer --filename=uel --rw=read --size=64k --loops=2 --unlink_each_loop=1 \
	--parse-only 2> uer.err && fail "unlink_each_loop with a read job accepted (its second loop has nothing to read)"
echo "file_append, unlink, unlink_each_loop as fio"
