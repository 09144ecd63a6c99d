# SPDX-License-Identifier: MIT
# Sourced by tests/func/vdbench_*.sh after tests/lib.sh: runs the parameter files of tests/vdbench
# on sparse scratch files (every lun= mapped with --vdbench-lun) and checks what each file's
# "* check" lines say it does, from the IO log (iowl's write_iolog) and the JSON results:
#   * lunsize SIZE               scratch luns of SIZE (default 64m)
#   * sdsize SIZE                the SD's own size, for the percentages below (default the lun's)
#   * lun NAME                   a lun name to map that the file builds ($host, !var)
#   * var NAME=VALUE             a --vdbench-var
#   * check reads PCT TOL        reads are PCT % of the IOs, within TOL points
#   * check sizes B:PCT,... TOL  transfer sizes in bytes and their shares
#   * check seq PCT TOL          IOs that start where one of the last 64 of their direction ended
#   * check within LO HI         every IO inside LO..HI % of the SD
#   * check band LO HI PCT TOL   IOs that start in LO..HI % of the SD
#   * check bytes LO HI PCT TOL  IOs that start in bytes LO..HI
#   * check ios N                exactly N IOs
#   * check iops RATE TOLPCT     the jobs' IOPS add up to RATE within TOLPCT %
#   * check jobs N               N job results
#   * check stream J NAME PCT T  stream NAME has PCT % of job J's IOs
#   * check opt J KEY VALUE      job J's option KEY is VALUE
#   * check points N             a sweep of N points (or a curve of N runs)
VDB_DIR=$(cd "$(dirname "$0")/../vdbench" && pwd) || fail "no tests/vdbench"

vdb_directives() { # FILE WORD: the arguments of "* WORD" lines
	sed -n "s/^\* $2 //p" "$1"
}

# Maps every literal lun= of $1 (and every "* lun" name) to a sparse file in $2; prints the flags.
vdb_luns() {
	size=$(vdb_directives "$1" lunsize | head -n 1)
	{ grep -o 'lun=[^, "]*' "$1" | sed 's/^lun=//' | grep -v '[$!]'; vdb_directives "$1" lun; } |
		sort -u | {
		k=0
		while IFS= read -r l; do
			k=$((k + 1))
			truncate -s "${size:-64m}" "$2/lun$k" || exit 1
			printf '%s\n' "--vdbench-lun=$l=$2/lun$k"
		done
	}
}

# Runs tests/vdbench/$1.vdb: results in $SCRATCH/$1/{out.json,io.log,err}; returns iowl's status.
# A run at iorate=max (or a curve's maximum) is held to 3000 IOs per second per direction: the
# checks are of shapes, and a suite of them at full speed would starve the tests beside them.
vdb_run() {
	f=$VDB_DIR/$1.vdb
	d=$SCRATCH/$1
	mkdir -p "$d" || return 1
	vdb_luns "$f" "$d" > "$d/flags" || return 1
	vdb_directives "$f" var | sed 's/^/--vdbench-var=/' >> "$d/flags"
	grep -qiE '^rd=.*,io[a-z]*=(max|curve)' "$f" && echo "--set=rate_iops=3000" >> "$d/flags"
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done < "$d/flags"
	(cd "$d" && timeout 120 "$IOWL" --eta=never --output-format=json --output=out.json \
		--set write_iolog="$d/io.log" "$@" "$f") > "$d/stdout" 2> "$d/err"
}

# awk over the IO log's first 50000 IOs (plenty for shares within a point or two: vdb_check
# cuts them once into io.head): $1 the program, the rest -v assignments
vdb_log() {
	prog=$1; shift
	awk "$@" '$2 == "read" || $2 == "write" { '"$prog"' }' "$d/io.head"
}

vdb_size() { # SIZE in bytes: 64m -> 67108864
	echo "$1" | awk '{ n = $0 + 0; u = tolower(substr($0, length($0)));
		m = u == "k" ? 1024 : u == "m" ? 1048576 : u == "g" ? 1073741824 : 1;
		printf "%.0f\n", n * m }'
}

near() { # WHAT GOT WANT TOL
	awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }' ||
		{ echo "$name: $1 is $2, expected $3 within $4"; return 1; }
}

# share WHAT GOT WANT TOL: a share (%) of the logged IOs, each drawn at random: within TOL, or
# within four binomial standard deviations where the run logged too few IOs for TOL (a slow
# machine or TSan: 14-streams had 28.12 % for 25 +-3); $vdb_n: the IOs of io.head
share() {
	near "$1" "$2" "$3" "$(awk -v n="$vdb_n" -v w="$3" -v t="$4" 'BEGIN { p = w / 100
		s = n ? 400 * sqrt(p * (1 - p) / n) : 0; printf "%.2f", (s > t ? s : t) }')"
}

vdb_check_one() { # the words of one "* check" line
	what=$1; shift
	case $what in
	reads)
		share "read share (%)" "$(vdb_log 'n++; r += $2 == "read" } END { printf "%.2f", n ? 100 * r / n : -1')" "$1" "$2" ;;
	sizes)
		for p in $(echo "$1" | tr ',' ' '); do
			share "share of ${p%%:*}-byte IOs (%)" "$(vdb_log 'n++; c += $4 == s } END { printf "%.2f", n ? 100 * c / n : -1' -v s="${p%%:*}")" "${p#*:}" "$2" || return 1
		done ;;
	seq)
		# walkers interleave: an IO continues one of the last 64 of its file and direction
		near "sequential share (%)" "$(vdb_log 'n++; k = $1 " " $2; if ((k SUBSEP $3) in e) s++;
			i = c[k]++ % 64; if ((k, i) in r) delete e[k, r[k, i]]; r[k, i] = $3 + $4; e[k, $3 + $4] = 1
			} END { printf "%.2f", n ? 100 * s / n : -1')" "$1" "$2" ;;
	within)
		# vdbench rounds a range's ends down to whole transfers: allow an IO's length
		bad=$(vdb_log 'if ($3 + $4 < lo * sz / 100 || $3 + $4 > hi * sz / 100) b++ } END { print b + 0' -v lo="$1" -v hi="$2" -v sz="$sdsize")
		[ "$bad" = 0 ] || { echo "$name: $bad IOs outside $1-$2 % of $sdsize bytes"; return 1; } ;;
	band)
		share "share in $1-$2 % (%)" "$(vdb_log 'n++; if ($3 >= lo * sz / 100 && $3 < hi * sz / 100) c++ } END { printf "%.2f", n ? 100 * c / n : -1' -v lo="$1" -v hi="$2" -v sz="$sdsize")" "$3" "$4" ;;
	bytes)
		share "share in bytes $1-$2 (%)" "$(vdb_log 'n++; if ($3 >= lo && $3 < hi) c++ } END { printf "%.2f", n ? 100 * c / n : -1' -v lo="$(vdb_size "$1")" -v hi="$(vdb_size "$2")")" "$3" "$4" ;;
	ios)
		[ "$vdb_n" = "$1" ] || { echo "$name: $vdb_n IOs, expected $1"; return 1; } ;;
	iops)
		n=$(jget "$d/out.json" jobs) || return 1
		tot=0 i=0
		while [ "$i" -lt "$n" ]; do
			tot=$(awk -v t="$tot" -v r="$(jget "$d/out.json" jobs.$i.read.iops)" \
				-v w="$(jget "$d/out.json" jobs.$i.write.iops)" 'BEGIN { print t + r + w }')
			i=$((i + 1))
		done
		tol=$(awk -v r="$1" -v p="$2" 'BEGIN { print r * p / 100 }')
		# Below the rate only counts when the jobs kept their schedule (mean lateness of
		# their IOs under 2 ms): a machine too busy to run them on time says nothing.
		late=0 i=0
		while [ "$i" -lt "$n" ]; do
			for dir in read write; do
				l=$(jget "$d/out.json" "jobs.$i.iowl.sched_lat_ns_$dir.mean" 2>/dev/null)
				[ -n "$l" ] && awk -v l="$l" 'BEGIN { exit !(l >= 2000000) }' && late=$l
			done
			i=$((i + 1))
		done
		if [ "$late" != 0 ] && awk -v g="$tot" -v w="$1" 'BEGIN { exit !(g < w) }'; then
			echo "note: $name: IOPS $tot under $1, run behind its schedule (mean $late ns late): not judged"
		else
			near "IOPS" "$tot" "$1" "$tol"
		fi ;;
	jobs)
		[ "$(jget "$d/out.json" jobs)" = "$1" ] ||
			{ echo "$name: $(jget "$d/out.json" jobs) jobs, expected $1"; return 1; } ;;
	stream)
		ns=$(jget "$d/out.json" "jobs.$1.iowl.streams") || return 1
		i=0 all=0 mine=-1
		while [ "$i" -lt "$ns" ]; do
			c=$(awk -v r="$(jget "$d/out.json" jobs.$1.iowl.streams.$i.read.ios)" \
				-v w="$(jget "$d/out.json" jobs.$1.iowl.streams.$i.write.ios)" 'BEGIN { print r + w }')
			all=$((all + c))
			[ "$(jget "$d/out.json" jobs.$1.iowl.streams.$i.name)" = "$2" ] && mine=$c
			i=$((i + 1))
		done
		[ "$mine" -ge 0 ] || { echo "$name: job $1 has no stream $2"; return 1; }
		near "stream $2's share of job $1 (%)" "$(awk -v m="$mine" -v a="$all" 'BEGIN { printf "%.2f", a ? 100 * m / a : -1 }')" "$3" "$4" ;;
	opt)
		got=$(jget "$d/out.json" "jobs.$1.job options.$2") || return 1
		[ "$got" = "$3" ] || { echo "$name: job $1 has $2=$got, expected $3"; return 1; } ;;
	points)
		got=$(jget "$d/out.json" points 2>/dev/null || jget "$d/out.json" curve) || return 1
		[ "$got" = "$1" ] || { echo "$name: $got points, expected $1"; return 1; } ;;
	*)
		echo "$name: unknown check '$what'"; return 1 ;;
	esac
}

# Checks a file's results (after vdb_run).  Returns 0 or 1 with the reason printed.
vdb_check() {
	name=$1
	d=$SCRATCH/$1
	sdsize=$(vdb_size "$(vdb_directives "$VDB_DIR/$1.vdb" sdsize | head -n 1)")
	[ "$sdsize" != 0 ] || sdsize=$(vdb_size "$(vdb_directives "$VDB_DIR/$1.vdb" lunsize | head -n 1)")
	[ "$sdsize" != 0 ] || sdsize=67108864
	vdb_directives "$VDB_DIR/$1.vdb" check > "$d/checks"
	[ -s "$d/checks" ] || { echo "$name: no '* check' lines"; return 1; }
	head -n 50003 "$d/io.log" > "$d/io.head" 2> /dev/null
	vdb_n=$(vdb_log 'n++ } END { print n + 0')
	while read -r c; do
		# shellcheck disable=SC2086
		vdb_check_one $c || return 1
	done < "$d/checks"
}

# Runs every case named, six at a time, then checks each; fails with every problem listed.
vdb_cases() {
	problems=""
	while [ $# -gt 0 ]; do
		batch=""
		for k in 1 2 3 4 5 6; do
			[ $# -gt 0 ] || break
			[ -f "$VDB_DIR/$1.vdb" ] || fail "no tests/vdbench/$1.vdb"
			(vdb_run "$1"; echo $? > "$SCRATCH/$1.rc") &
			batch="$batch $1"
			shift
		done
		wait
		for c in $batch; do
			rc=$(cat "$SCRATCH/$c.rc")
			if [ "$rc" != 0 ]; then
				problems="$problems
$c: iowl exited $rc: $(tail -n 3 "$SCRATCH/$c/err")"
			elif ! out=$(vdb_check "$c"); then
				problems="$problems
$out"
			fi
		done
	done
	[ -z "$problems" ] || fail "vdbench parameter files:$problems"
}
