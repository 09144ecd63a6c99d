#!/bin/sh
# The corpus of bad job files under tests/bad: one mistake per case, each with the one line iowl
# must print for it (the case's directory written as @DIR@). Both --parse-only and a plain run of
# every case must exit 1 within 10 s, print that line and nothing else, print no results, leave no
# sanitizer report and create no file.  vdbench_bad.sh runs the same over tests/vdbench/bad.
. "$(dirname "$0")/../lib.sh"
: "${BAD_CORPUS:=bad}" "${BAD_FILE:=job.ini}" "${BAD_MIN:=40}"
bad=$(cd "$(dirname "$0")/../$BAD_CORPUS" && pwd) || fail "no tests/$BAD_CORPUS directory"
# Cases may name files as ${IOWL_BAD_DIR}/x; IOWL_BAD_SURELY_UNSET must stay unset.
unset IOWL_BAD_SURELY_UNSET
mkdir "$SCRATCH/cases" || fail "mkdir"

# Replaces every occurrence of the directory $1 in stdin by @DIR@ (no regex: the path is literal).
at_dir() {
	awk -v d="$1" '{
		out = ""
		while ((i = index($0, d)) > 0) {
			out = out substr($0, 1, i - 1) "@DIR@"
			$0 = substr($0, i + length(d))
		}
		print out $0
	}'
}

# The loop below starts as few processes as it can (they were most of its CPU, 19 a case): a
# case's files are listed by one ls, files are read and compared by the shell.
listing() { ls -AR "$1"; }
# text FILE: FILE's text in $text, exactly (a last line without its newline too)
text() {
	text=""
	while IFS= read -r _l; do
		text="$text$_l
"
	done < "$1"
	text="$text$_l"
}
# in_dir DIR: $text with every @DIR@ replaced by DIR (literally), in $text
in_dir() {
	_t=$text text=""
	while :; do
		case $_t in
		*@DIR@*) text="$text${_t%%@DIR@*}$1" _t=${_t#*@DIR@} ;;
		*) break ;;
		esac
	done
	text="$text$_t"
}

n=0
nbad=0
failed=""
for src in "$bad"/*/; do
	[ -d "$src" ] || continue
	name=${src%/}
	name=${name##*/}
	n=$((n + 1))
	if [ ! -f "$src/$BAD_FILE" ] || [ ! -f "$src/expected" ]; then
		echo "--- $name: needs $BAD_FILE and expected"
		nbad=$((nbad + 1)); failed="$failed $name"
		continue
	fi
	dir="$SCRATCH/cases/$name"
	cp -R "$src" "$dir" || fail "copy $name"
	before=$(listing "$dir")
	text "$src/expected"
	in_dir "$dir"
	expected=$text
	export IOWL_BAD_DIR="$dir"
	problems=""
	cd "$dir" || fail "cd $dir"
	for mode in --parse-only run; do
		set -- "$dir/$BAD_FILE"
		[ "$mode" = run ] || set -- "$mode" "$@"
		timeout 10 "$IOWL" "$@" > "$SCRATCH/out" 2> "$SCRATCH/err.raw"
		rc=$?
		what="iowl $mode"
		case $rc in
		1) ;;
		124) problems="$problems
$what: timed out after 10 s" ;;
		0) problems="$problems
$what: exited 0 (the job was accepted)" ;;
		*) problems="$problems
$what: exited $rc, expected 1" ;;
		esac
		text "$SCRATCH/err.raw"
		# (stderr that is the expected line holds no sanitizer report)
		if [ "$text" != "$expected" ]; then
			at_dir "$dir" < "$SCRATCH/err.raw" > "$SCRATCH/err"
			if grep -Eq 'Sanitizer|runtime error:|core dumped' "$SCRATCH/err"; then
				problems="$problems
$what: sanitizer report or crash"
			fi
		fi
		if [ -s "$SCRATCH/out" ]; then
			problems="$problems
$what: printed on stdout: $(head -c 200 "$SCRATCH/out")"
		fi
		if [ "$text" != "$expected" ]; then
			problems="$problems
$what: stderr differs from expected:
$(diff -u "$src/expected" "$SCRATCH/err" | sed '1,2d')"
		fi
		after=$(listing "$dir")
		if [ "$after" != "$before" ]; then
			echo "$before" > "$SCRATCH/before"
			echo "$after" > "$SCRATCH/after"
			problems="$problems
$what: changed the files of the case:
$(diff "$SCRATCH/before" "$SCRATCH/after" | grep '^[<>]')"
			cd "$SCRATCH" && rm -rf "$dir" && cp -R "$src" "$dir" && cd "$dir" || fail "copy $name"
		fi
	done
	cd "$SCRATCH" || fail "cd"
	if [ -n "$problems" ]; then
		echo "--- $name$problems"
		nbad=$((nbad + 1)); failed="$failed $name"
	fi
done
[ "$n" -ge "$BAD_MIN" ] || fail "expected at least $BAD_MIN bad files under tests/$BAD_CORPUS, found $n"
[ "$nbad" -eq 0 ] || fail "$nbad of $n bad files under tests/$BAD_CORPUS not handled as expected:$failed"
echo "$n bad files under tests/$BAD_CORPUS refused as expected"
