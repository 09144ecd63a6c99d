#!/bin/sh
# Command-line options beside job files, with fio's meaning: options before the first --name are
# defaults for every job (a job file may override them), before or after the file on the command
# line; --name jobs run first, in the first file's group, and see only the command-line defaults.
# Where fio 3.33 is installed, fio runs every case too and must do the same IO in the same groups.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
cat > j1.fio <<'EOF'
[global]
ioengine=null
size=1m

[a]
rw=read

[b]
rw=write
bs=8k
EOF
cat > j2.fio <<'EOF'
[c]
ioengine=null
size=1m
rw=randread
EOF
cat > j3.fio <<'EOF'
[global]
ioengine=null
size=1m
bs=8k

[d]
rw=read
EOF

# summary JSON: one line per job: name, group, reads, writes
summary() {
	n=$(jget "$1" jobs) || return 1
	i=0
	while [ "$i" -lt "$n" ]; do
		echo "$(jget "$1" jobs.$i.jobname) g=$(jget "$1" jobs.$i.groupid)" \
			"r=$(jget "$1" jobs.$i.read.total_ios) w=$(jget "$1" jobs.$i.write.total_ios)"
		i=$((i + 1))
	done
}

same_as_fio summary "a g=0 r=16 w=0;b g=0 r=0 w=128" --bs=64k j1.fio
same_as_fio summary "a g=0 r=16 w=0;b g=0 r=0 w=128" j1.fio --bs=64k
same_as_fio summary "z g=0 r=0 w=256;a g=0 r=256 w=0;b g=0 r=0 w=128" \
	--name=z --ioengine=null --size=1m --rw=write j1.fio
same_as_fio summary "z g=0 r=0 w=16;a g=0 r=16 w=0;b g=0 r=0 w=128" \
	--bs=64k --name=z --ioengine=null --size=1m j1.fio --rw=write
same_as_fio summary "z g=0 r=0 w=256;y g=1 r=256 w=0;d g=1 r=128 w=0" \
	--ioengine=null --size=1m --name=z --rw=write --name=y --rw=read j3.fio --stonewall
same_as_fio summary "a g=0 r=10 w=0;b g=0 r=0 w=10" --number_ios=10 j1.fio

# The IOs themselves: the iologs of a file job given --bs and --write_iolog on the command line.
truncate -s 256k f.dat
printf '[r]\nioengine=psync\nfilename=f.dat\nrw=read\n' > j4.fio
"$IOWL" --eta=never --bs=64k --write_iolog=i.log j4.fio > /dev/null 2> i.err || { cat i.err; fail "iolog run"; }
awk '{ for (k = 1; k < NF; k++) if ($k == "read") print $(k + 1), $(k + 2) }' i.log > i.ios
[ "$(paste -sd ' ' i.ios)" = "0 65536 65536 65536 131072 65536 196608 65536" ] ||
	fail "iolog: $(paste -sd ' ' i.ios)"
if have_fio; then
	fio --bs=64k --write_iolog=f.log j4.fio > /dev/null 2> f.err || { cat f.err; fail "fio iolog run"; }
	awk '{ for (k = 1; k < NF; k++) if ($k == "read") print $(k + 1), $(k + 2) }' f.log > f.ios
	cmp -s i.ios f.ios || fail "iologs differ: fio $(paste -sd ' ' f.ios), iowl $(paste -sd ' ' i.ios)"
	echo "same iolog as fio: $(paste -sd ' ' i.ios)"
fi

# The global options of the JSON: the command line's first, then the file's.
"$IOWL" --output-format=json --bs=64k j1.fio > g.json || fail "global options run"
[ "$(jget g.json 'global options.bs')" = 64k ] && [ "$(jget g.json 'global options.size')" = 1m ] ||
	{ cat g.json; fail "global options"; }

# runtime and time_based from the command line make the file's job run for a second.
"$IOWL" --output-format=json --eta=never --runtime=1 --time_based j2.fio > t.json ||
	fail "runtime from the command line"
rt=$(jget t.json jobs.0.job_runtime)
[ "$rt" -ge 900 ] && [ "$rt" -le 5000 ] || fail "job_runtime $rt ms with --runtime=1 --time_based"

# Deliberate difference: the defaults apply to every job file (fio 3.33 drops them for the
# second and later files: its c does 256 IOs of 4k).
case_x() {
	"$IOWL" --output-format=json --eta=never --bs=64k j1.fio j2.fio > x.json || fail "two files"
	got=$(summary x.json | paste -sd ';' -)
	[ "$got" = "a g=0 r=16 w=0;b g=0 r=0 w=128;c g=1 r=16 w=0" ] || fail "two files: '$got'"
}
case_x
echo "command-line options with job files ok"
