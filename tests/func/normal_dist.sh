#!/bin/sh
# random_distribution=normal:dev is fio's law (12 uniforms plus a dev % jitter): iowl's offsets, and
# fio's own where fio is installed, against that law computed exactly (tests/helpers/normlaw).
. "$(dirname "$0")/../lib.sh"
NORMLAW=$(cd "$HELPERS" && pwd)/normlaw
cd "$SCRATCH" || fail "cd"
for dev in 0 10 50; do
	"$IOWL" --name=g --ioengine=null --filename=x --size=4m --io_size=400m --bs=4k --rw=randread \
		--random_distribution=normal:$dev --random_scatter=0 --write_iolog=i$dev.log \
		--eta=never > /dev/null || fail "iowl normal:$dev"
	"$NORMLAW" 1024 $dev plain 4096 i$dev.log || fail "iowl's normal:$dev is not fio's law"
done
# normal_sd keeps iowl's old law: a standard deviation of dev %, which is not fio's.
"$IOWL" --name=g --ioengine=null --filename=x --size=4m --io_size=400m --bs=4k --rw=randread \
	--random_distribution=normal_sd:10 --random_scatter=0 --write_iolog=sd.log \
	--eta=never > /dev/null || fail "iowl normal_sd:10"
"$NORMLAW" 1024 10 plain 4096 sd.log > /dev/null && fail "normal_sd:10 should not be fio's normal:10"
have_fio || { echo "normal_dist ok (fio not installed: its own offsets not compared)"; exit 0; }
for dev in 10 50; do
	fio --name=g --ioengine=null --filename=x --size=4m --io_size=400m --bs=4k --rw=randread \
		--random_distribution=normal:$dev --write_iolog=f$dev.log --output=/dev/null ||
		fail "fio normal:$dev"
	"$NORMLAW" 1024 $dev fio 4096 f$dev.log || fail "fio's normal:$dev is not the law the test computes"
done
echo "normal_dist ok"
