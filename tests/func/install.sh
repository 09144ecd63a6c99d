#!/bin/sh
# SPDX-License-Identifier: MIT
# make install puts the binary, the man page, the bash completion and the example jobs under
# DESTDIR/PREFIX, the installed binary runs and its completion completes; make uninstall removes
# every file it installed.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v make >/dev/null 2>&1 || skip "make not found"
command -v bash >/dev/null 2>&1 || skip "bash not found (the completion is a bash script)"
root=$SCRATCH/root
unset MAKEFLAGS MFLAGS MAKELEVEL
# -o: install the binary under test as it is; never rebuild it while other tests run it
make -s -C "$top" O="$(dirname "$IOWL")" -o "$IOWL" DESTDIR="$root" PREFIX=/usr install > "$SCRATCH/make.out" 2>&1 ||
	{ cat "$SCRATCH/make.out"; fail "make install"; }
for f in bin/iowl share/man/man1/iowl.1 share/bash-completion/completions/iowl share/iowl/jobs/quick.ini \
	share/iowl/jobs/snia-hotband.ini; do
	[ -f "$root/usr/$f" ] || fail "make install did not install /usr/$f"
done
[ -x "$root/usr/bin/iowl" ] || fail "the installed binary is not executable"
"$root/usr/bin/iowl" --version > /dev/null || fail "the installed binary does not run"
"$root/usr/bin/iowl" --parse-only --set filename="$SCRATCH/q" --set direct=0 "$root/usr/share/iowl/jobs/quick.ini" \
	> /dev/null 2>&1 ||
	fail "the installed example job does not parse"
n=$(ls "$top"/jobs/*.ini | wc -l)
[ "$(ls "$root"/usr/share/iowl/jobs/*.ini | wc -l)" = "$n" ] || fail "not all $n example jobs installed"

# the completion asks the installed binary for its flags and options
got=$(PATH="$root/usr/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(iowl --outp); COMP_CWORD=1; _iowl; echo "${COMPREPLY[*]}"' \
	sh "$root/usr/share/bash-completion/completions/iowl")
[ "$got" = "--output --output-format" ] || fail "completion of --outp gave '$got'"
got=$(PATH="$root/usr/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(iowl --name=a --rwmix); COMP_CWORD=2; _iowl; echo "${COMPREPLY[*]}"' \
	sh "$root/usr/share/bash-completion/completions/iowl")
[ "$got" = "--rwmixread --rwmixwrite" ] || fail "completion of a --name= job's option gave '$got'"
got=$(PATH="$root/usr/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(iowl --rwmix); COMP_CWORD=1; _iowl; echo "${COMPREPLY[*]}"' \
	sh "$root/usr/share/bash-completion/completions/iowl")
[ -z "$got" ] || fail "job options completed outside a --name= job: '$got'"

make -s -C "$top" O="$(dirname "$IOWL")" DESTDIR="$root" PREFIX=/usr uninstall > "$SCRATCH/make.out" 2>&1 ||
	{ cat "$SCRATCH/make.out"; fail "make uninstall"; }
left=$(find "$root" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -d "$root/usr/share/iowl" ] || fail "make uninstall left the directory share/iowl"
echo "ok: make install / uninstall ($n jobs, completion works)"
