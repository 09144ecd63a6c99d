#!/bin/sh
# The JSON "global options" and "job options" are fio 3.33's: options as written, in order, a
# command-line job's starting with its name, and valueless flags (time_based, norandommap) left
# out.  Where fio is installed, both tools run every case and their objects must be equal.
. "$(dirname "$0")/../lib.sh"
cd "$SCRATCH" || fail "cd"
cat > jo.fio <<'EOF'
[global]
ioengine=null
size=1m
group_reporting
thread=1

[x]
norandommap
number_ios=10
direct=0
rw=randread
EOF
printf '[global]\nioengine=null\nsize=1m\n\n[a]\nrw=read\n' > j1.fio

# The options objects of a JSON document, one key=value a line, each object ended by "--".
opts() {
	jget "$1" 'global options=' 2>/dev/null
	echo "-- global"
	n=$(jget "$1" jobs)
	i=0
	while [ "$i" -lt "$n" ]; do
		jget "$1" "jobs.$i.job options=" 2>/dev/null
		echo "-- job $i"
		i=$((i + 1))
	done
}

same_as_fio opts "-- global;name=x;ioengine=null;size=1m;rw=randread;-- job 0" \
	--name=x --ioengine=null --size=1m --norandommap --rw=randread --group_reporting
same_as_fio opts "ioengine=null;size=1m;-- global;name=x;rw=read;-- job 0;name=y;number_ios=4;-- job 1" \
	--ioengine=null --size=1m --thread --name=x --rw=read --norandommap --name=y --number_ios=4
same_as_fio opts "ioengine=null;size=1m;thread=1;-- global;number_ios=10;direct=0;rw=randread;-- job 0" jo.fio
same_as_fio opts "bs=64k;ioengine=null;size=1m;-- global;rw=read;-- job 0" --bs=64k j1.fio
echo "JSON options ok"
