# SPDX-License-Identifier: MIT
# Shared helpers for the functional tests: each test sources this, exits 0 pass, 1 fail, 77 skip.
: "${IOWL:=build/iowl}"
: "${HELPERS:=build/helpers}"
: "${SHIMS:=build/shim}"
IOWL=$(cd "$(dirname "$IOWL")" && pwd)/$(basename "$IOWL")
JGET=$(cd "$HELPERS" && pwd)/jget
SHIMS=$(cd "$SHIMS" 2>/dev/null && pwd)
SCRATCH=$(mktemp -d "${TMPDIR:-/var/tmp}/iowl-test.XXXXXX")
trap 'cleanup' EXIT
# A signal would end the shell without its EXIT trap (a test stopped by run-one.sh's timeout left
# its loop devices attached): exit with the signal's status instead, which runs the cleanups.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cleanups=""
# Cleanups run last registered first (a mount inside the scratch directory goes before it).
cleanup() {
	printf '%s\n' "$cleanups" | while IFS= read -r c; do
		[ -n "$c" ] && eval "$c" >/dev/null 2>&1
	done
	rm -rf "$SCRATCH"
}
on_exit() { cleanups="$1
$cleanups"; }
# python3: Debian's where installed (the package scripts/test-deps.sh installs), not a shim
# found first on PATH (pyenv's took 0.7 s and 0.15 s of CPU to start, against 0.03 s)
[ -x /usr/bin/python3 ] && python3() { /usr/bin/python3 "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }
jget() { "$JGET" "$@"; }
# check "description" command...: the command must succeed
expect_status() { # expected-status command...
	want=$1; shift
	"$@" > "$SCRATCH/out" 2> "$SCRATCH/err"
	got=$?
	[ "$got" = "$want" ] || { cat "$SCRATCH/err"; fail "'$*' exited $got, expected $want"; }
}
# within a relative tolerance: approx A B PCT
approx() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (b < 0 ? -b : b); exit !(d <= m * p / 100) }'
}
# loop_device SIZE [SECTOR]: a loop device over a sparse file of SIZE on /dev/shm, with SECTOR-byte
# logical blocks when given (losetup --sector-size), detached and removed on exit; sets $dev
# (/dev/loopN) and $name (loopN), or skips the test where that is not possible.
loop_device() {
	[ "$(id -u)" = 0 ] || skip "needs root to create a loop device"
	command -v losetup >/dev/null 2>&1 || skip "losetup not found (apt-get install mount)"
	back=/dev/shm/iowl-loop.$$.$(date +%s%N)
	truncate -s "$1" "$back" || skip "cannot create a backing file on /dev/shm"
	on_exit "rm -f $back"
	dev=$(losetup -f --show ${2:+--sector-size "$2"} "$back" 2>/dev/null) ||
		skip "no loop device available${2:+ with $2-byte sectors}"
	on_exit "losetup -d $dev"
	name=$(basename "$dev")
	command -v udevadm >/dev/null 2>&1 && udevadm settle >/dev/null 2>&1
	return 0
}
# tsan_build: $IOWL is built with ThreadSanitizer (make tsan), which slows it 5-15x and grows RSS
# catches_sigint PID: waits until process PID has installed its SIGINT handler (/proc/PID/status
# SigCgt), up to 120 s: a signal sent before is lost, as a shell script's background job starts
# with SIGINT ignored, and start-up takes seconds under a sanitizer on a loaded machine.  Fails
# when PID ended or the time is up.
catches_sigint() {
	_ci=0
	while kill -0 "$1" 2>/dev/null && [ $_ci -lt 1200 ]; do
		case $(awk '/^SigCgt:/ { print substr($2, length($2)) }' "/proc/$1/status" 2>/dev/null) in
		[2367abefABEF]) return 0 ;;
		esac
		_ci=$((_ci + 1))
		sleep 0.1
	done
	return 1
}
tsan_build() { grep -q __tsan_init "$IOWL" 2>/dev/null; }
# hung PID MARK: waits until the fault shim's IOWL_FAULT_HANG_MARK file MARK exists (a worker of
# PID is stuck in its hung call), up to 120 s: a fixed sleep is too short under a sanitizer on a
# busy machine.  Fails when PID ended or the time is up.
hung() {
	_hg=0
	until [ -e "$2" ]; do
		kill -0 "$1" 2>/dev/null && [ $_hg -lt 1200 ] || return 1
		_hg=$((_hg + 1))
		sleep 0.1
	done
}
# strace_traced: runs of this test go under strace, which LeakSanitizer fails (a ptraced process):
# no leak check here under make asan (the other tests check leaks)
strace_traced() { export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; }
# asan_build: $IOWL is built with AddressSanitizer (make asan), whose mlock(2) does nothing
asan_build() { grep -q __asan_init "$IOWL" 2>/dev/null; }
# fault_shim: sets $shim to the LD_PRELOAD fault injector (tests/shim/faultshim.c), failing if it was
# not built, and lets sanitizer builds load it before their runtimes (which check the link order).
fault_shim() {
	shim="$SHIMS/faultshim.so"
	[ -f "$shim" ] || fail "fault shim not built ($shim)"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
}
# have_fio: fio 3 is installed to compare with.  fio --version is asked once (30 ms of CPU a start):
# make test asks it for every test and passes it on in IOWL_FIO_VERSION (empty: no fio).
have_fio() {
	[ -n "${IOWL_FIO_VERSION+set}" ] || IOWL_FIO_VERSION=$(fio --version 2>/dev/null)
	case $IOWL_FIO_VERSION in fio-3*) return 0 ;; *) return 1 ;; esac
}
# fio's answers kept: where a test asks fio a question whose answer it knows (the blocks of an
# iolog, a summary of fio's JSON: the answer expected of iowl), that fio gave that answer is kept
# in tests/data/fio-kept.ref, a line per question: the MD5 of fio's version, the test's own text
# and the question (its scratch directory's name left out), then the test's name.  A fio start
# costs ~0.15 s of CPU (its clock calibration); a kept answer is not asked again.  A change of
# fio or of the test asks fio live again, until make fio-ref (IOWL_FIO_KEEP=1) keeps the answers
# anew.  if have_fio && ! fio_kept QUESTION...; then ask fio, check; fio_keep QUESTION...; fi
FIO_KEPT=$(cd "$(dirname "$0")/../data" 2> /dev/null && pwd)/fio-kept.ref
FIO_TEST=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
fio_key() {
	{ echo "$IOWL_FIO_VERSION"; md5sum < "$FIO_TEST"; printf '%s\n' "$@" | sed "s|$SCRATCH|SCRATCH|g"; } |
		md5sum | cut -c1-32
}
fio_kept() {
	[ -z "$IOWL_FIO_KEEP" ] && [ -f "$FIO_KEPT" ] && grep -q "^$(fio_key "$@") " "$FIO_KEPT" &&
		echo "fio's answer kept (tests/data/fio-kept.ref): $*"
}
fio_keep() {
	[ -z "$IOWL_FIO_KEEP" ] || echo "$(fio_key "$@") $(basename "$FIO_TEST" .sh)" >> "$FIO_KEPT"
}
# same_as_fio SUMMARY EXPECTED ARGS...: runs iowl with ARGS and JSON output, and fio too where
# have_fio (unless its answer is kept); SUMMARY (a function printing lines from a JSON file) must
# give EXPECTED (its lines joined by ';') for iowl, and the same for fio.
same_as_fio() {
	sum=$1 want=$2
	shift 2
	"$IOWL" --output-format=json --eta=never "$@" > "$SCRATCH/i.json" 2> "$SCRATCH/i.err" ||
		{ cat "$SCRATCH/i.err"; fail "iowl $*"; }
	got=$("$sum" "$SCRATCH/i.json" | paste -sd ';' -)
	[ "$got" = "$want" ] || fail "iowl $*: got '$got', expected '$want'"
	have_fio || return 0
	fio_kept same_as_fio "$sum" "$want" "$@" && return 0
	fio --output-format=json --output="$SCRATCH/f.json" "$@" > /dev/null 2> "$SCRATCH/f.err" ||
		{ cat "$SCRATCH/f.err"; fail "fio $*"; }
	fgot=$("$sum" "$SCRATCH/f.json" | paste -sd ';' -)
	[ "$fgot" = "$got" ] || fail "$*: fio gave '$fgot', iowl '$got'"
	fio_keep same_as_fio "$sum" "$want" "$@"
	echo "same as fio: $* -> $got"
}
