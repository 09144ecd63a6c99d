#!/bin/sh
# SPDX-License-Identifier: MIT
# file_service_type=zipf, pareto and normal (gauss) choose each IO's file by that law over the
# files, with fio's parameter after ':', and a full random map starts again (as fio resets it) so
# the hot files keep their share.  The shares of the files, hottest first, are compared with fio's
# for pareto and normal; fio 3.33's zipf over a few files is its approximation's (README), so
# iowl's is checked against the exact law.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"

# shares TOOL TYPE: the percentage of the IOs of each of 8 files, hottest first
shares() {
	rm -rf d log && mkdir d
	set -- --name=z --directory=d --nrfiles=8 --size=8m --rw=randread --file_service_type="$2" \
		--write_iolog=log
	if [ "$tool" = fio ]; then fio --output=/dev/null "$@"; else "$IOWL" --eta=never "$@"; fi \
		> out 2>&1 || { cat out; fail "$tool: the run failed"; }
	awk '$2 == "read" { print $1 } $3 == "read" { print $2 }' log | sort | uniq -c | sort -rn |
		awk '{ n[NR] = $1; t += $1 } END { for (i = 1; i <= 8; i++) printf "%.1f ", 100 * n[i] / t }'
}
# close A B TOL: every share within TOL percentage points
close() {
	echo "$1|$2" | awk -F'|' -v tol="$3" '{ split($1, a, " "); split($2, b, " ")
		for (i = 1; i <= 8; i++) { d = a[i] - b[i]; if (d < 0) d = -d; if (d > tol) exit 1 } }'
}

for t in pareto normal gauss pareto:0.3; do
	i=$(tool=iowl shares iowl "$t")
	sum=$(echo "$i" | awk '{ for (k = 1; k <= NF; k++) s += $k; printf "%.0f", s }')
	[ "$sum" = 100 ] || fail "$t: the shares add up to $sum"
	# (fio's answer kept once given, with iowl's shares in the question: tests/lib.sh's fio_kept)
	if have_fio && ! fio_kept "$t" "iowl's shares $i"; then
		f=$(tool=fio shares fio "$t")
		close "$i" "$f" 6 || fail "file_service_type=$t: iowl's shares $i, fio's $f"
		fio_keep "$t" "iowl's shares $i"
	fi
done
# zipf:1.1 over 8 files: rank k has k^-1.1 / H(8, 1.1), 39.9 % for the hottest
i=$(tool=iowl shares iowl zipf)
want=$(awk 'BEGIN { for (k = 1; k <= 8; k++) h += k ^ -1.1; for (k = 1; k <= 8; k++) printf "%.1f ", 100 * k ^ -1.1 / h }')
close "$i" "$want" 4 || fail "file_service_type=zipf: shares $i, the law gives $want"
i=$(tool=iowl shares iowl zipf:2)
want=$(awk 'BEGIN { for (k = 1; k <= 8; k++) h += k ^ -2; for (k = 1; k <= 8; k++) printf "%.1f ", 100 * k ^ -2 / h }')
close "$i" "$want" 4 || fail "file_service_type=zipf:2: shares $i, the law gives $want"

# bad parameters are refused with the law's reason, as random_distribution's are
expect_status 1 "$IOWL" --name=z --nrfiles=4 --size=4m --file_service_type=zipf:0 --parse-only
grep -q "file_service_type=zipf:0" "$SCRATCH/err" || fail "zipf:0: $(cat "$SCRATCH/err")"
expect_status 1 "$IOWL" --name=z --nrfiles=4 --size=4m --file_service_type=pareto:1:2 --parse-only
echo "file_service_type: pareto and normal as fio's, zipf as its law"
exit 0
