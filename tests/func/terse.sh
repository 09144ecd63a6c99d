#!/bin/sh
# SPDX-License-Identifier: MIT
# fio's terse output (--minimal, --output-format=terse, --terse-version 2 to 5, --append-terse).
# The writer works from the JSON document, so it is held to fio itself: fio prints terse lines and
# JSON for one run, and iowl's writer must turn fio's JSON into fio's lines, field for field
# (floating-point fields within a millionth: fio's JSON rounds to six decimals).  Then iowl's own
# runs: field counts per version, the figures against iowl's JSON, formats together in fio's order.
. "$(dirname "$0")/../lib.sh"
T2J=$(cd "$HELPERS" && pwd)/json2terse
KEPT=$(cd "$(dirname "$0")/../data" && pwd)/fio-terse-bw-agg.out
# The writer's code (iowl's terse writer and the helper around it): fio's agreement with it is kept
# once given (tests/lib.sh's fio_kept), and asked of fio again when the writer changes.
WRITER=$(cd "$(dirname "$0")/../.." && cat src/report/terse.c src/report/terse.h \
	tests/helpers/json2terse.c | md5sum)
cd "$SCRATCH" || fail "cd"

# same_fields A B: the terse lines of files A and B agree (numbers within 1e-6 relative).
same_fields() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		while ((getline la < a) > 0) {
			if ((getline lb < b) <= 0) { print "fewer lines in " b; exit 1 }
			na = split(la, fa, ";"); nb = split(lb, fb, ";")
			if (na != nb) { print "line " NR ": " na " fields against " nb; exit 1 }
			for (i = 1; i <= na; i++) {
				if (fa[i] == fb[i]) continue
				x = fa[i]; y = fb[i]; sub(/%$/, "", x); sub(/%$/, "", y)
				if (x ~ /^-?[0-9.]+$/ && y ~ /^-?[0-9.]+$/) {
					d = x - y; if (d < 0) d = -d; m = x < 0 ? -x : x
					if (d <= 1e-6 * m + 1e-6) continue
				}
				print "field " i ": \"" fa[i] "\" against \"" fb[i] "\""; exit 1
			}
		}
		if ((getline lb < b) > 0) { print "more lines in " b; exit 1 }
	}'
}

# fio's terse bandwidth share divides by the group's aggregate in whole KiB/s (its JSON by the
# exact figure): a run of fio 3.33 whose shares are under 100 % (91.859242 % terse, 91.858567 %
# in JSON for reads), kept so the check does not depend on how busy the machine was.
awk '/^[{]/ { exit } { print }' "$KEPT" > agg.fio
"$T2J" 5 "$KEPT" > agg.mine || fail "json2terse on the kept fio run"
why=$(same_fields agg.fio agg.mine) || fail "terse v5 of the kept fio run differs from fio's: $why"

if have_fio; then
	for v in 2 3 4 5; do
		for job in "--name=rw --filename=$SCRATCH/f --size=4m --bs=4k --rw=randrw --description=two_words --continue_on_error=all" \
			   "--name=g --ioengine=null --size=8m --bs=8k --rw=randread --numjobs=2 --group_reporting" \
			   "--name=a --ioengine=null --size=2m --bs=4k --rw=write --name=b --ioengine=null --size=2m --bs=16k --rw=read --percentile_list=50:99"; do
			fio_kept terse v$v "$job" "writer $WRITER" && continue
			# shellcheck disable=SC2086
			fio $job --output-format=terse,json --terse-version=$v > fio.out 2> err ||
				{ cat err; fail "fio $job"; }
			awk '/^[{]/ { exit } /^[2-5];/ || /^;/ { print }' fio.out > fio.terse
			"$T2J" $v fio.out > mine.terse || fail "json2terse $v"
			why=$(same_fields fio.terse mine.terse) ||
				fail "terse v$v from fio's JSON differs from fio's own ($job): $why"
			fio_keep terse v$v "$job" "writer $WRITER"
		done
	done
	echo "fio's JSON gives fio's terse lines, versions 2 to 5"
else
	echo "fio not installed: terse lines not compared with fio's"
fi

# iowl's own runs: one line per reported unit, fio's field counts per version.
for v in 2 3 4 5; do
	"$IOWL" --name=t --filename="$SCRATCH/f" --size=1m --bs=4k --rw=randrw --output-format=terse \
		--terse-version=$v > t.out 2> err || { cat err; fail "terse v$v run"; }
	[ "$(wc -l < t.out)" = 1 ] || fail "v$v: $(wc -l < t.out) lines for one job"
	ndisk=$(awk -F';' '{ print NF }' t.out)
	case $v in 2) want=$((4 + 3 * 41 + 5 + 29)) ;; 3) want=$((5 + 2 * 41 + 5 + 29)) ;;
		   4) want=$((5 + 3 * 41 + 5 + 29)) ;; 5) want=$((5 + 3 * 47 + 5 + 29)) ;; esac
	# plus nine fields per disk from version 3 on
	[ $v = 2 ] && [ "$ndisk" != $want ] && fail "v2: $ndisk fields, expected $want"
	[ $v != 2 ] && [ $(( (ndisk - want) % 9 )) != 0 ] && fail "v$v: $ndisk fields, expected $want + 9 per disk"
	[ "$(cut -d';' -f1 t.out)" = "$v" ] || fail "v$v: first field $(cut -d';' -f1 t.out)"
done
# The figures are the JSON's: the same run printed both ways.
"$IOWL" --name=t --filename="$SCRATCH/f" --size=2m --bs=4k --rw=randread --output-format=terse,json \
	> both.out 2> err || { cat err; fail "terse,json run"; }
[ "$(head -c 2 both.out)" = "3;" ] || fail "terse does not come first: $(head -c 40 both.out)"
"$T2J" 3 both.out > again.terse || fail "json2terse on iowl's JSON"
head -n 1 both.out > first.terse
why=$(same_fields first.terse again.terse) || fail "terse and JSON of one run disagree: $why"
[ "$(cut -d';' -f6 first.terse)" = 2048 ] || fail "read KiB: $(cut -d';' -f6 first.terse), expected 2048"
# --minimal alone prints only the line; --append-terse adds it to normal output.
"$IOWL" --name=m --ioengine=null --size=1m --minimal > m.out 2> err || fail "--minimal"
[ "$(wc -l < m.out)" = 1 ] && grep -q "^3;iowl-[^;]*;m;0;0;1024;" m.out || fail "--minimal: $(cat m.out)"
"$IOWL" --name=m --ioengine=null --size=1m --append-terse > a.out 2> err || fail "--append-terse"
grep -q "^3;iowl-" a.out && grep -q "^m: (groupid=0" a.out || fail "--append-terse: $(cat a.out)"
# Refused: what has no terse form.
"$IOWL" --name=m --ioengine=null --size=1m --minimal --sweep bs=4k,8k 2> err && fail "--minimal --sweep ran"
grep -q "terse output" err || fail "--minimal --sweep: $(cat err)"
"$IOWL" --name=m --ioengine=null --size=1m --minimal --terse-version=6 2> err && fail "terse version 6 ran"
exit 0
