#!/bin/sh
# --analyze's LRU hit-ratio curve equals an LRU cache simulated on the same IO stream (the
# stream --analyze writes with write_iolog), at every cache size it reports; a large region
# says it is sampled (SHARDS, 1 %).  (tests/unit/test_lru compares SHARDS with a simulation.)
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
"$IOWL" --analyze=5000 --output-format=json --name=z --ioengine=null --rw=randread \
	--random_distribution=zipf:0.8 --bs=4k --size=2000k --write_iolog=io.log > a.json 2> err ||
	{ cat err; fail "analyze"; }
[ "$(jget a.json analysis.0.lru.method)" = exact ] || fail "method $(jget a.json analysis.0.lru.method)"
approx "$(jget a.json analysis.0.lru.sampling_rate)" 1 0 || fail "sampling rate"
n=$(jget a.json analysis.0.lru.points)
i=0 sizes=""
while [ $i -lt "$n" ]; do
	sizes="$sizes $(jget a.json analysis.0.lru.points.$i.blocks)"
	i=$((i + 1))
done
# LRU of c blocks: a re-access hits when fewer than c other blocks were touched since (each
# access's stack distance counted once, then judged at every size)
awk -v sizes="$sizes" '$2 == "read" {
	k = int($3 / 4096); t++
	if (k in last) { d = 0; for (j in last) if (last[j] > last[k]) d++; dist[t] = d }
	last[k] = t
} END {
	ns = split(sizes, c, " ")
	for (i = 1; i <= ns; i++) {
		hits = 0
		for (x in dist) if (dist[x] < c[i] + 0) hits++
		printf "%s %.9f\n", c[i], hits / t
	}
}' io.log > want
[ "$(wc -l < want)" = "$n" ] || fail "no simulation for $n sizes"
i=0
while read -r c want; do
	got=$(jget a.json analysis.0.lru.points.$i.hit_ratio)
	approx "$got" "$want" 0.0001 || fail "cache of $c blocks: curve $got, simulated $want"
	i=$((i + 1))
done < want
"$IOWL" --analyze=20000 --output-format=json --name=z --ioengine=null --rw=randread --bs=4k \
	--size=64g > b.json 2> err || { cat err; fail "analyze large"; }
[ "$(jget b.json analysis.0.lru.method)" = shards ] && approx "$(jget b.json analysis.0.lru.sampling_rate)" 0.01 0 ||
	fail "large region: $(jget b.json analysis.0.lru.method) at $(jget b.json analysis.0.lru.sampling_rate)"
echo "LRU curve ok ($n sizes)"
