#!/bin/sh
# fsync=N and fdatasync=N by fio's rule: while the writes issued are a multiple of N, the next IO
# is a sync unless the last one was, so in randrw a read after the sync brings another (fio 3.33:
# 61 fsyncs for 124 writes with randrw fsync=4).  Both tools' iologs are checked against the rule,
# IO by IO.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
truncate -s 1m f
# rule LOG FSYNC FDATASYNC: prints "writes syncs datasyncs", or fails at the first IO off the rule
rule() {
	awk -v fs="$2" -v fd="$3" '
		{ a = ""; for (i = 1; i <= 3 && i <= NF; i++) if ($i ~ /^(read|write|sync|datasync)$/) { a = $i; break } }
		a == "" { next }
		{
			want = "data"
			if (w && !last) {
				if (fs && w % fs == 0) want = "sync"
				else if (fd && w % fd == 0) want = "datasync"
			}
			got = (a == "read" || a == "write") ? "data" : a
			if (got != want) { printf "IO %d: %s after %d writes, expected %s\n", NR, a, w, want; bad = 1; exit 1 }
			last = got != "data"
			if (a == "write") w++
			if (a == "sync") s++
			if (a == "datasync") d++
		}
		END { if (!bad) print w + 0, s + 0, d + 0 }' "$1"
}
check() { # FSYNC FDATASYNC ARGS...
	fs=$1 fd=$2
	shift 2
	rm -f i.log
	"$IOWL" --name=x --filename=f --size=1m --write_iolog=i.log --eta=never --fsync="$fs" \
		--fdatasync="$fd" "$@" > /dev/null 2> err || { cat err; fail "iowl $*"; }
	got=$(rule i.log "$fs" "$fd") || fail "iowl fsync=$fs fdatasync=$fd $*: $got"
	echo "iowl fsync=$fs fdatasync=$fd $*: writes syncs datasyncs $got"
	echo "$got" | awk -v n=$((fs ? fs : fd)) '{ exit !($1 > 0 && $2 + $3 >= int(($1 - 1) / n)) }' ||
		fail "too few syncs: $got"
	# (fio's answer, its iolog on the rule, kept once given: tests/lib.sh's fio_kept)
	if have_fio && ! fio_kept "$fs" "$fd" "$@" "on the rule"; then
		rm -f f.log
		fio --name=x --filename=f --size=1m --write_iolog=f.log --fsync="$fs" --fdatasync="$fd" \
			"$@" > /dev/null 2> err || { cat err; fail "fio $*"; }
		fgot=$(rule f.log "$fs" "$fd") || fail "fio fsync=$fs fdatasync=$fd $*: $fgot"
		echo "fio  fsync=$fs fdatasync=$fd $*: writes syncs datasyncs $fgot"
		fio_keep "$fs" "$fd" "$@" "on the rule"
	fi
}
check 4 0 --rw=randrw
check 4 0 --rw=randrw --rwmixread=20
check 0 3 --rw=randrw --bs=8k
check 4 2 --rw=randrw
check 4 0 --rw=write --bs=16k
check 2 0 --rw=randwrite --ioengine=libaio --iodepth=4
echo "fsync rule ok"
