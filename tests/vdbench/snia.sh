# SPDX-License-Identifier: MIT
# Sourced by tests/func/vdbench_snia*.sh after tests/lib.sh: the SNIA script ($vdb), its copy with
# the placeholders fixed and the times shortened (snia.vdb) and its lun (--vdbench-lun in $map),
# in $SCRATCH; the hot band's expected shape and the checks of it.
vdb=$(cd "$(dirname "$0")/../vdbench" && pwd)/snia-hotband.vdb || fail "no tests/vdbench"
cd "$SCRATCH" || fail "cd"
truncate -s 500m hotband1 || fail "truncate"
map="--vdbench-lun=e:\\junk\\hotband1=$SCRATCH/hotband1"
sed -e 's/HOTwd\*/wd_*/' -e 's/th=XX/th=8/' -e 's/elapsed=6H/elapsed=3/' -e 's/warmup=30/warmup=1/' \
	-e 's/interval=10/interval=1/' "$vdb" > snia.vdb

# What each workload is, in the order of the file: name, skew, read %, sizes (r: the 12-size
# table of the random workloads, s: the 7-size one of the walkers).
cat > streams.txt <<'EOF'
wd_uniform 6 50 r
wd_hot1 28 70 r
wd_hot2 14 70 r
wd_hot3 7 70 r
wd_hot4 5 70 r
wd_99rseq1 5 100 s
wd_99rseq2 5 100 s
wd_99rseq3 5 100 s
wd_99rseq4 5 100 s
wd_99rseq5 5 100 s
wd_99wseq1 5 0 s
wd_99wseq2 5 0 s
wd_99wseq3 5 0 s
EOF
# size, % in the random workloads' table, % in the walkers'
cat > sizes.txt <<'EOF'
512 2 0
1024 2 0
4096 27 29
8192 31 33
16384 5 6
32768 5 5
49152 1 0
57344 1 0
61440 2 0
65536 20 22
131072 2 3
262144 2 2
EOF
# band: low and high byte of the 500 MiB lun, and the hot workload's skew
cat > bands.txt <<'EOF'
52428800 94371840 28
167772160 209715200 14
288358400 356515840 7
419430400 461373440 5
EOF

# tol P N: points of sampling error allowed for a share of P % among N IOs (4 sigma, 1 at least)
tol() { awk -v p="$1" -v n="$2" 'BEGIN { q = p / 100; s = n ? 400 * sqrt(q * (1 - q) / n) : 100;
	printf "%.3f", (s > 1 ? s : 1) }'; }
close_to() { # WHAT GOT WANT TOL
	awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { d = g - w; exit !(d <= t && -d <= t) }' ||
		fail "$1: $2 %, expected $3 % within $4"
}

# Shares of the random IOs (those not continuing one of the last 64 of their direction) in
# each band: the band's workload plus its width of the uniform workload and the walkers' 1 %
# seeks (6.4 % of the IOs spread over the lun), out of the 60.4 % that seek.
check_bands() { # IOLOG FIXED_TOL
	awk '$2 == "read" || $2 == "write" {
		k = $2; seq = (k SUBSEP $3) in e
		i = c[k]++ % 64; if ((k, i) in r) delete e[k, r[k, i]]; r[k, i] = $3 + $4; e[k, $3 + $4] = 1
		if (seq) next
		n++; for (b = 1; b <= nb; b++) if ($3 >= lo[b] && $3 < hi[b]) in_b[b]++
	} BEGIN { while ((getline l < "bands.txt") > 0) { split(l, f, " "); nb++; lo[nb] = f[1]; hi[nb] = f[2]; sk[nb] = f[3] } }
	END { for (b = 1; b <= nb; b++) printf "%d %.3f %.3f %d\n", b, 100 * in_b[b] / n,
		100 * (sk[b] + 6.4 * (hi[b] - lo[b]) / 524288000) / 60.4, n }' "$1" > bands.out
	while read -r b got want pool; do
		t=${2:-$(tol "$want" "$pool")}
		close_to "random IOs in hot band $b" "$got" "$want" "$t"
	done < bands.out
}

