#!/bin/sh
# SPDX-License-Identifier: MIT
# The differential suite against fio: runs each job file of tests/fio-diff/cases with iowl and with
# fio 3 on the same fresh target and compares what the two did (see tests/fio-diff/README.md).
#   run.sh [--ref] [--shard K/N] [CASE...]   (CASE: a name or a path; default every case, or the Kth
#   of N)
# fio's side of a case comes from tests/fio-diff/ref/CASE.kv when that holds fio's summary of the
# same case file run by the same fio version and summarised by the same run.sh and fdsum (its key);
# otherwise, with FD_LIVE=1, and before any case is called failed, fio runs live.  --ref writes the
# reference files instead of comparing: fio runs each case twice, and a case whose compared keys
# differ between the two runs is marked to run live always (make fio-diff-ref).
# Exit 0 when every case passed (or failed while pending), 1 when one failed, 77 without fio.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
FDSUM=$(cd "$HELPERS" && pwd)/fdsum
shard=1/1 mkref=""
[ "$1" = --ref ] && { mkref=1; shift; }
[ "$1" = --shard ] && { shard=$2; shift 2; }
have_fio || skip "fio 3 is not installed (apt-get install fio; make test installs it as root)"
[ -x "$FDSUM" ] || fail "no $FDSUM (make func builds it)"
# The part of a reference's key that all cases share: fio's version, this driver, the summariser
# and the files cases include.
FIOV=$(fio --version)
BASEKEY=$({ echo "$FIOV"; cat "$0" "$HERE/../helpers/fdsum.c" "$HERE"/cases/*.inc 2>/dev/null; } |
	md5sum | cut -c1-32)

if [ $# -gt 0 ]; then
	cases=""
	for c in "$@"; do
		case $c in */*) cases="$cases $c" ;; *) cases="$cases $HERE/cases/${c%.fio}.fio" ;; esac
	done
else
	k=${shard%/*} n=${shard#*/} i=0 cases=""
	for c in "$HERE"/cases/*.fio; do
		[ $((i % n + 1)) = "$k" ] && cases="$cases $c"
		i=$((i + 1))
	done
fi

# parse_header CASE: splits the "# KEY: value" lines at the top of a case into $HDR/KEY, one value
# a line, once per case (header() below then reads them without starting a process).
parse_header() {
	HDR=${1##*/} HDR=$SCRATCH/${HDR%.fio}.hdr
	rm -rf "$HDR" && mkdir -p "$HDR"
	awk -v h="$HDR" '/^[ \t]*\[/ { exit }
		/^# [a-z-]+:/ { k = substr($0, 3, index($0, ":") - 3); v = substr($0, length(k) + 4)
			sub(/^[ \t]+/, "", v); print v > (h "/" k) }' "$1"
}

# header CASE KEY: the values of KEY of the case parse_header read last, one per line.
header() {
	[ -f "$HDR/$2" ] || return 0
	while IFS= read -r _hl; do printf '%s\n' "$_hl"; done < "$HDR/$2"
}

# words CASE KEY [SEP]: the same values on one line, each followed by SEP (a space).
words() {
	[ -f "$HDR/$2" ] || return 0
	_hw=""
	while IFS= read -r _hl; do _hw="$_hw$_hl${3:- }"; done < "$HDR/$2"
	printf '%s' "$_hw"
}

# iolog_summary DIR OUT BUCKETS SPAN [NBLOCKS]: the key/value lines of every DIR/JOB.iolog, and OUT/seq.JOB,
# OUT/set.JOB with the IOs of each job in issue order and sorted.  Paths lose $FD_DIR/ and $FD_DEV
# is called DEV; syncs keep only their op (fio logs the offset of the last write, iowl none).
iolog_summary() {
	for l in "$1"/*.iolog; do
		[ -f "$l" ] || continue
		job=${l##*/} job=${job%.iolog}
		: > "$2/seq.$job"
		: > "$2/offs.$job"
		awk -v job="$job" -v dir="$FD_DIR/" -v dev="$FD_DEV" -v nb="$3" -v span="$4" \
			-v seq="$2/seq.$job" -v offs="$2/offs.$job" '
			/^fio version/ { v3 = /version 3/; next }
			{ if (v3) { $1 = ""; sub(/^ /, "") }
			  f = $1; op = $2
			  if (index(f, dir) == 1) f = substr(f, length(dir) + 1)
			  if (dev != "" && f == dev) f = "DEV"
			  if (op == "add" || op == "open" || op == "close") next
			  n[op]++
			  if (op == "sync" || op == "datasync") { print f, op > seq; line[++ns] = f " " op; next }
			  off = $3 + 0; len = $4 + 0
			  print f, op, off, len > seq
			  line[++ns] = f " " op " " off " " len
			  b[op] += len; sz[len]++; fn[f]++
			  if (!(op in lo) || off < lo[op]) lo[op] = off
			  if (off + len > hi[op]) hi[op] = off + len
			  print f, off, len > offs
			  for (k = int(off / 4096); k * 4096 < off + len; k++)
				if (++cov[f, k] == 1) cover++; else if (cov[f, k] == 2) over++
			  if (((f, op) in end) && end[f, op] != off) jumps++
			  end[f, op] = off + len
			  if (!((f, off) in seen)) { seen[f, off] = 1; distinct++ }
			  g = gcd(g, off)
			  if (nb > 0) { k = int(off * nb / span); if (k >= nb) k = nb - 1; bk[k]++; tot++ } }
			function gcd(a, b) { while (b > 0) { t = a % b; a = b; b = t } return a }
			END {
			  split("read write trim sync datasync", ops, " ")
			  for (i = 1; i <= 5; i++) {
				printf "io.%s.%s.n %d\n", job, ops[i], n[ops[i]]
				if (i <= 3) printf "io.%s.%s.bytes %d\n", job, ops[i], b[ops[i]]
			  }
			  for (o in lo) printf "io.%s.%s.lo %d\nio.%s.%s.hi %d\n", job, o, lo[o], job, o, hi[o]
			  for (s in sz) { printf "size.%s.%d %d\n", job, s, sz[s]; nsz++ }
			  printf "sizes.%s %d\ncover.%s %d\nover.%s %d\n", job, nsz, job, cover, job, over
			  for (f in fn) printf "file.%s.%s %d\n", job, f, fn[f]
			  for (k = 0; k < nb; k++) printf "dist.%s.%d %.1f\n", job, k, tot ? 100 * bk[k] / tot : 0
			  printf "distinct.%s %d\ngcd.%s %d\njumps.%s %d\n", job, distinct, job, g, job, jumps
			  if (n["sync"] + n["datasync"])
				printf "io.%s.wps %.2f\n", job, n["write"] / (n["sync"] + n["datasync"])
			  # the second half of the IOs repeats the first (a second pass or loop drew the same)
			  h = int(ns / 2); half = h > 0
			  for (i = 1; half && i <= h; i++) if (line[i] != line[h + i]) half = 0
			  printf "half.%s %d\n", job, half
			}' "$l"
		sort "$2/seq.$job" > "$2/set.$job"
		sort -o "$2/offs.$job" "$2/offs.$job"
		# the share of the IOs on the hottest 1 % and 10 % of the region's blocks
		if [ -n "$5" ]; then
			cut -d' ' -f1,2 "$2/offs.$job" | uniq -c | sort -rn | awk -v nb="$5" -v job="$job" '
				{ c[NR] = $1; t += $1 }
				END { split("1 10 50", ps, " ")
				  for (i = 1; i <= 3; i++) { k = int((nb * ps[i] + 99) / 100); s = 0
					for (j = 1; j <= k && j <= NR; j++) s += c[j]
					printf "hot.%s.%d %.1f\n", job, ps[i], t ? 100 * s / t : 0 } }'
		fi
		# count and hash of each: "seq.JOB LINES:MD5" (md5sum and wc once for the three)
		(cd "$2" && wc -l "seq.$job" "set.$job" "offs.$job" && md5sum "seq.$job" "set.$job" \
			"offs.$job") | awk 'length($1) != 32 { n[$2] = $1; next }
			{ printf "%s %s:%s\n", $2, n[$2], substr($1, 1, 12) }'
	done
}

# devstat DEV: read IOs (merged ones counted), read sectors, write IOs, write sectors, discards
devstat() {
	awk '{ print $1 + $2, $3, $5 + $6, $7, $12 + $13, $14 }' "/sys/block/$(basename "$1")/stat"
}

# invoke JSON ARGS...: runs $tool on $W/job.fio in $W with the case's environment
invoke() {
	out=$1
	shift
	if [ $tool = iowl ]; then
		(cd "$W" && eval "env $envs FD_LOG=\"\$FD_LOG\" \"\$IOWL\" --eta=never --output-format=json \
			--output=\"\$out\" \"\$@\" job.fio")
	else
		(cd "$W" && eval "env $envs FD_LOG=\"\$FD_LOG\" fio --output-format=json --output=\"\$out\" \
			\"\$@\" job.fio")
	fi
}

# run_tool TOOL CASE: one run in a fresh target; leaves $W/kv (key/value lines) and $W/rc
run_tool() {
	tool=$1 c=$2
	W=${c##*/} W=$SCRATCH/${W%.fio}/$tool
	mkdir -p "$W/log" "$W/sum"
	FD_DIR=$(mktemp -d /dev/shm/iowl-fd.XXXXXX) || fail "mktemp on /dev/shm"
	on_exit "rm -rf $FD_DIR"
	FD_DEV=""
	set -- $(header "$c" target)
	if [ "$1" = dev ]; then
		back=$FD_DIR.img
		truncate -s "$2" "$back" || fail "truncate $back"
		on_exit "rm -f $back"
		FD_DEV=$(losetup -f --show ${3:+--sector-size "$3"} "$back") || return 77
		on_exit "losetup -d $FD_DEV"
		command -v udevadm >/dev/null 2>&1 && udevadm settle >/dev/null 2>&1
	fi
	FD_LOG=$W/log
	export FD_DIR FD_DEV FD_LOG
	header "$c" setup | while IFS= read -r s; do (cd "$FD_DIR" && eval "$s") || exit 1; done ||
		fail "$(basename "$c"): setup failed"
	inject=yes
	[ "$(header "$c" iolog)" = no ] && inject=no
	awk -v inject=$inject '{ print }
		inject == "yes" && /^[ \t]*\[[^]]*\]/ { s = $0; sub(/^[ \t]*\[/, "", s); sub(/\].*/, "", s)
			if (s != "global") print "write_iolog=${FD_LOG}/" s ".iolog" }' "$c" > "$W/job.fio"
	for inc in "$HERE"/cases/*.inc; do [ -f "$inc" ] && cp "$inc" "$W/"; done
	[ -n "$FD_DEV" ] && d0=$(devstat "$FD_DEV")
	eval "set -- $(words "$c" args)"
	envs=$(words "$c" env)
	invoke "$W/out.json" "$@" > "$W/stdout" 2> "$W/stderr"
	rc=$?
	echo $rc > "$W/rc"
	# "again": a second run with more environment, its IOs as again.seq.JOB and again.set.JOB
	again=$(header "$c" again)
	if [ -n "$again" ]; then
		mkdir -p "$W/log2" "$W/sum2"
		envs="$envs $again" FD_LOG=$W/log2 invoke "$W/out2.json" "$@" > /dev/null 2>&1
	fi
	FD_LOG=$W/log
	# mounts a case's setup made under its directory go before the summary looks at files
	awk -v d="$FD_DIR/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r |
		while read -r m; do umount "$m"; done
	{
		echo "rc $rc"
		[ -s "$W/out.json" ] && "$FDSUM" json "$W/out.json" > "$W/sum/json"
		cat "$W/sum/json" 2>/dev/null
		nb=$(header "$c" buckets)
		iolog_summary "$FD_LOG" "$W/sum" ${nb:-0 1} $(header "$c" hot) > "$W/sum/kv.iolog"
		cat "$W/sum/kv.iolog"
		[ -n "$again" ] && iolog_summary "$W/log2" "$W/sum2" 0 1 | grep '^se[qt]\.' | sed 's/^/again./'
		# every job together (clones of one job share its log)
		awk '$1 ~ /^io\..*\.[a-z]+\.(n|bytes)$/ { n = split($1, p, ".")
			s[p[n - 1] "." p[n]] += $2 } END { for (k in s) print "io.all." k, s[k] }' "$W/sum/kv.iolog"
		find "$FD_DIR" -type f -printf '%P %s\n' | awk '{ print "files." $0; t += $2; n++
			odd += $2 % 4096 != 0 } END { printf "files.total %d\nfiles.unaligned %d\nfiles.n %d\n",
			t, odd, n }'
		echo "stderr.lines $(wc -l < "$W/stderr")"
		header "$c" post | while IFS= read -r s; do
			(cd "$W" && if [ $tool = iowl ]; then FD_TOOL="$IOWL --eta=never"; else FD_TOOL=fio; fi &&
				eval "$s")
		done
		ubs=$(header "$c" unique)
		if [ -n "$ubs" ]; then
			if [ -n "$FD_DEV" ]; then
				"$FDSUM" unique "$FD_DEV" "$ubs" | sed 's/^/uniq.DEV./'
			fi
			for f in $(cd "$FD_DIR" && find . -type f | sort); do
				"$FDSUM" unique "$FD_DIR/$f" "$ubs" | sed "s|^|uniq.${f#./}.|"
			done
		fi
		if [ -n "$FD_DEV" ]; then
			set -- $d0 $(devstat "$FD_DEV")
			own=$(awk '$1 == "own.reads" { r = $2 } $1 == "own.read_bytes" { b = $2 }
				END { print r + 0, int(b / 512) }' "$W/sum/json" 2>/dev/null)
			set -- "$@" ${own:-0 0}
			echo "dev.read.ios $(($7 - $1 - ${13}))"
			echo "dev.read.sectors $(($8 - $2 - ${14}))"
			echo "dev.write.ios $(($9 - $3))"
			echo "dev.write.sectors $((${10} - $4))"
			echo "dev.trim.ios $((${11} - $5))"
			echo "dev.trim.sectors $((${12} - $6))"
		fi
	} | sed "s|$FD_LOG|LOG|g; s|$FD_DIR|D|g" > "$W/kv"
}

# refkey CASE: the key of the case's reference: BASEKEY and the case file.
refkey() { { echo "$BASEKEY"; cat "$1"; } | md5sum | cut -c1-32; }

# stored CASE REF: puts fio's summary from the reference file REF into $F/kv when REF holds the
# summary of this case file under this key; fails (fio must run live) otherwise.
stored() {
	[ -z "$FD_LIVE" ] && [ -f "$2" ] || return 1
	IFS= read -r _rl < "$2"
	[ "$_rl" = "# fio-diff reference $FIOV $(refkey "$1")" ] || return 1
	mkdir -p "$F" && tail -n +2 "$2" > "$F/kv"
}

# mkref CASE: runs fio twice on the case and writes tests/fio-diff/ref/CASE.kv: fio's summary, or
# a line saying that a key the case compares or asserts on varied between the runs (it runs live).
mkref() {
	c=$1 name=${1##*/} name=${name%.fio}
	parse_header "$c"
	set -- $(header "$c" target)
	if [ "$1" = dev ] && { [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; }; then
		echo "SKIP $name: needs root and losetup for a loop device"
		return 0
	fi
	F=$SCRATCH/$name/fio
	run_tool fio "$c" || { echo "SKIP $name: no loop device"; return 0; }
	mv "$F/kv" "$SCRATCH/$name.kv1" && rm -rf "$F"
	run_tool fio "$c" || { echo "SKIP $name: no loop device"; return 0; }
	mkdir -p "$HERE/ref"
	varied=$(awk -v cmp="$(words "$c" compare)" -v asserts="$(words "$c" assert ';')" '
		function glob(p) { gsub(/\./, "\\.", p); gsub(/\*/, "[^ ]*", p); return "^" p "$" }
		function num(s) { return s ~ /^-?[0-9.]+$/ }
		{ k = $1; $1 = ""; sub(/^ /, ""); v[FILENAME == ARGV[1], k] = $0; all[k] = 1 }
		END {
		  # a key compared with a tolerance may vary within it: the stored run is then one
		  # sample of fio as good as a live one; any other key the case looks at must not vary
		  n = split(cmp, pats, " ")
		  for (i = 1; i <= n; i++) {
			tol = ""; p = pats[i]
			if (p ~ /~/) { tol = substr(p, index(p, "~") + 1); p = substr(p, 1, index(p, "~") - 1) }
			ref[glob(p)] = 1; if (tol != "") tols[glob(p)] = tol
		  }
		  m = split(asserts, as, ";")
		  for (i = 1; i <= m; i++) if (split(as[i], w, " ") == 4) {
			ref[glob(w[2])] = 1; sub(/^(self|iowl|fio):/, "", w[4]); ref[glob(w[4])] = 1 }
		  ref["^rc$"] = 1
		  for (k in all) {
			a = v[0, k]; b = v[1, k]
			if (a == b && ((0, k) in v) && ((1, k) in v)) continue
			for (r in ref) if (k ~ r) {
				if ((r in tols) && num(a) && num(b)) {
					t = tols[r]; d = a - b; if (d < 0) d = -d
					lim = (t ~ /%$/) ? (b < 0 ? -b : b) * substr(t, 1, length(t) - 1) / 100 : t + 0
					if (d <= lim) continue
				}
				print k; break
			}
		  }
		}' "$SCRATCH/$name.kv1" "$F/kv" | sort | head -n 3 | tr '\n' ' ')
	if [ -n "$varied" ]; then
		echo "# fio-diff live $FIOV $(refkey "$c"): varied between fio's runs: $varied" \
			> "$HERE/ref/$name.kv"
		echo "LIVE $name: $varied"
	else
		{ echo "# fio-diff reference $FIOV $(refkey "$c")"; sort "$F/kv"; } > "$HERE/ref/$name.kv"
		echo "REF $name"
	fi
}

# check CASE: runs both tools and judges; prints one verdict line (and details) per case
check() {
	c=$1 name=${1##*/} name=${name%.fio}
	parse_header "$c"
	pending=$(header "$c" pending)
	set -- $(header "$c" target)
	if [ "$1" = dev ] && { [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; }; then
		echo "SKIP $name: needs root and losetup for a loop device"
		return 0
	fi
	I=$SCRATCH/$name/iowl F=$SCRATCH/$name/fio
	run_tool iowl "$c" || { echo "SKIP $name: no loop device"; return 0; }
	fio_run=stored
	if ! stored "$c" "$HERE/ref/$name.kv"; then
		fio_run=live nlive=$((nlive + 1))
		run_tool fio "$c" || { echo "SKIP $name: no loop device"; return 0; }
	fi
	judge "$c"
	# a difference from fio's stored result is confirmed by a live run before it counts
	if [ -n "$why" ] && [ $fio_run = stored ] && [ -z "$pending" ]; then
		run_tool fio "$c" || { echo "SKIP $name: no loop device"; return 0; }
		nlive=$((nlive + 1))
		judge "$c"
		[ -z "$why" ] && echo "NOTE $name: fio's stored result differs from a live run" \
			"(make fio-diff-ref)"
	fi
	[ -n "$FD_KEEP" ] && cp -r "$SCRATCH/$name" "$FD_KEEP/"
	if [ -z "$why" ]; then
		if [ -n "$pending" ]; then
			echo "XPASS $name (pending $pending): passes now, make it a hard case"
		else
			echo "PASS $name"
		fi
		return 0
	fi
	if [ -n "$pending" ]; then
		echo "XFAIL $name (pending $pending):"
	else
		echo "FAIL $name: $(header "$c" fio-diff)"
	fi
	printf '%s\n' "$why" | head -n "$([ -n "$pending" ] && echo 4 || echo 20)" | sed 's/^/    /'
	printf '%s\n' "$why" | grep -o '^seq\.[^:]*\|^set\.[^:]*' | head -n 2 | while read -r k; do
		[ -f "$I/sum/$k" ] && [ -f "$F/sum/$k" ] &&
			diff "$I/sum/$k" "$F/sum/$k" | head -n 8 | sed "s/^/    $k (< iowl, > fio) /"
	done
	[ -n "$pending" ] && return 0
	for t in iowl fio; do
		[ -s "$SCRATCH/$name/$t/stderr" ] && tail -n 5 "$SCRATCH/$name/$t/stderr" | sed "s/^/    $t: /"
	done
	return 1
}

# judge CASE: compares $I/kv with $F/kv as the case says; sets why (empty: the same)
judge() {
	c=$1
	want=$(header "$c" status)
	why=$(awk -v want="${want:-0}" -v cmp="$(words "$c" compare)" \
		-v asserts="$(words "$c" assert ';')" '
		function num(s) { return s ~ /^-?[0-9.]+$/ }
		function val(t, k) { if ((t, k) in kv) return kv[t, k]; return "0" }
		function glob(p) { gsub(/\./, "\\.", p); gsub(/\*/, "[^ ]*", p); return "^" p "$" }
		FNR == 1 { t = (FILENAME ~ /\/iowl\/kv$/) ? "iowl" : "fio"; tl[t] = 1 }
		{ k = $1; $1 = ""; sub(/^ /, ""); kv[t, k] = $0; all[k] = 1 }
		END {
		  nw = split(want, ws, " ")
		  for (t in tl) {
			w1 = ws[1]
			for (i = 1; i <= nw; i++) if (index(ws[i], t "=") == 1) w1 = substr(ws[i], length(t) + 2)
			if (kv[t, "rc"] != w1) printf "%s exited %s, expected %s\n", t, kv[t, "rc"], w1
		  }
		  n = split(cmp, pats, " ")
		  for (i = 1; i <= n; i++) {
			p = pats[i]; tol = ""
			if (p ~ /~/) { tol = substr(p, index(p, "~") + 1); p = substr(p, 1, index(p, "~") - 1) }
			re = glob(p); hit = 0
			for (k in all) if (k ~ re) {
				hit++
				a = (("iowl", k) in kv) ? kv["iowl", k] : "(none)"
				b = (("fio", k) in kv) ? kv["fio", k] : "(none)"
				if (a == b) continue
				if (tol != "" && num(a) && num(b)) {
					d = a - b; if (d < 0) d = -d
					lim = (tol ~ /%$/) ? (b < 0 ? -b : b) * substr(tol, 1, length(tol) - 1) / 100 : tol + 0
					if (d <= lim) continue
				}
				printf "%s: iowl %s, fio %s%s\n", k, a, b, tol != "" ? " (tolerance " tol ")" : ""
			}
			if (!hit) printf "compare %s: no such key for either tool (a check that cannot fail)\n", pats[i]
		  }
		  m = split(asserts, as, ";")
		  for (i = 1; i <= m; i++) {
			if (split(as[i], w, " ") != 4) { if (as[i] != "") printf "bad assert: %s\n", as[i]; continue }
			tools = (w[1] == "both") ? "iowl fio" : w[1]
			split(tools, ts, " ")
			for (j in ts) {
				x = val(ts[j], w[2]); y = w[4]
				if (y ~ /^self:/) y = val(ts[j], substr(y, 6))
				else if (y ~ /^(iowl|fio):/) y = val(substr(y, 1, index(y, ":") - 1), substr(y, index(y, ":") + 1))
				ok = 0
				if (num(x) && num(y)) { x += 0; y += 0 }
				if (w[3] == "==") ok = x == y; else if (w[3] == "!=") ok = x != y
				else if (w[3] == "<") ok = x < y; else if (w[3] == "<=") ok = x <= y
				else if (w[3] == ">") ok = x > y; else if (w[3] == ">=") ok = x >= y
				else { printf "bad assert operator: %s\n", as[i]; continue }
				if (!ok) printf "assert %s %s %s %s: %s has %s\n", ts[j], w[2], w[3], w[4], ts[j], x
			}
		  }
		}' "$I/kv" "$F/kv" || echo "the comparison failed (awk)")
}

failed=0 n=0 nlive=0
for c in $cases; do
	[ -f "$c" ] || fail "no case $c"
	n=$((n + 1))
	if [ -n "$mkref" ]; then
		mkref "$c"
	else
		check "$c" || failed=$((failed + 1))
	fi
done
[ -n "$mkref" ] && exit 0
echo "fio-diff: $n cases, $failed failed; fio ran live for $nlive, the others compared with its" \
	"stored results (tests/fio-diff/ref)"
[ "$failed" = 0 ]
