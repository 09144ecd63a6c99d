#!/bin/sh
# One job has one hot set (fio's meaning): the reads and writes of randrw draw from one mapping, so
# pareto:0.8 puts 80 % of all the IOs on the hottest 20 % of the blocks; streams share the job's hot
# set unless one asks for its own (random_hotset=stream), and numjobs clones each have their own.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
# The share of the IOs on the hottest pct % of the blocks.
hot() { jget "$1" "analysis.0.concentration.hottest_pct.$2"; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
# 1000 blocks, 200 IOs a block: the empirical shares lie within ~1 pp of the law's.
A="--analyze=200000 --output-format=json --ioengine=null --size=4000k --bs=4k --norandommap"
# fio's pareto:0.8 puts 80 % of the IOs on the hottest 20 % of the ranks.
"$IOWL" $A --name=p --rw=randrw --rwmixread=70 --random_distribution=pareto:0.8 > p.json || fail "pareto run"
within "$(hot p.json 20)" 78.5 82 || fail "randrw pareto:0.8: $(hot p.json 20) % on the hottest 20 %, not 80 %"
# zipf:1.2 over n = 1000: the hottest 20 % (200 ranks) get H(200, 1.2) / H(1000, 1.2) of the IOs.
zshare=$(awk 'BEGIN { for (k = 1; k <= 1000; k++) { w = k ^ -1.2; t += w; if (k <= 200) h += w }
	printf "%.2f", 100 * h / t }')
"$IOWL" $A --name=z --rw=randrw --random_distribution=zipf:1.2 > z.json || fail "zipf run"
within "$(hot z.json 20)" "$(echo "$zshare" | awk '{ print $1 - 1.5 }')" \
	"$(echo "$zshare" | awk '{ print $1 + 1.5 }')" ||
	fail "randrw zipf:1.2: $(hot z.json 20) % on the hottest 20 %, the law says $zshare %"
# Two streams over the same range share the job's hot set ...
printf '[s]\nioengine=null\nsize=4000k\nbs=4k\nnorandommap\nrandom_distribution=pareto:0.8\nstream=a\nrw=randread\nstream=b\nrw=randwrite\n' > s.ini
"$IOWL" --analyze=200000 --output-format=json s.ini > s.json || fail "streams run"
within "$(hot s.json 20)" 78.5 82 || fail "two streams: $(hot s.json 20) % on the hottest 20 %, not 80 %"
# ... unless one opts into its own: two independent hot sets of 20 % each hold ~68 % of the IOs
# on the hottest 20 % (each stream's 80 % spread over 40 % of the blocks).
printf '[s]\nioengine=null\nsize=4000k\nbs=4k\nnorandommap\nrandom_distribution=pareto:0.8\nstream=a\nrw=randread\nstream=b\nrw=randwrite\nrandom_hotset=stream\n' > o.ini
"$IOWL" --analyze=200000 --output-format=json o.ini > o.json || fail "own hot set run"
within "$(hot o.json 20)" 55 75 || fail "random_hotset=stream: $(hot o.json 20) % on the hottest 20 %"
"$IOWL" --analyze=200000 --output-format=json --name=d --ioengine=null --size=4000k --bs=4k \
	--norandommap --rw=randrw --random_distribution=pareto:0.8 --random_hotset=direction > d.json ||
	fail "per-direction run"
within "$(hot d.json 20)" 55 75 || fail "random_hotset=direction: $(hot d.json 20) %"
printf '[s]\nrandom_hotset=bogus\n' > bad.ini
"$IOWL" --parse-only bad.ini > out 2>&1 && fail "random_hotset=bogus accepted"
grep -q "bad.ini:2" out || { cat out; fail "bad random_hotset: no FILE:LINE"; }
echo "hotset ok"
