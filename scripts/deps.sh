#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the libraries iowl builds against; installs them when run as root, otherwise names the command.
pkgs=""
need() { # header, debian package
	printf '#include <%s>\nint main(void){return 0;}\n' "$1" |
		${CC:-cc} -x c -o /dev/null - >/dev/null 2>&1 || pkgs="$pkgs $2"
}
need liburing.h liburing-dev
need libaio.h libaio-dev
need jansson.h libjansson-dev
need blkid/blkid.h libblkid-dev
need microhttpd.h libmicrohttpd-dev
need nettle/sha3.h nettle-dev
need xxhash.h libxxhash-dev
need numa.h libnuma-dev
need zlib.h zlib1g-dev
printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' |
	${CC:-cc} -x c -o /dev/null - >/dev/null 2>&1 || pkgs="$pkgs libcmocka-dev"
# Optional: MPI for iowl-mpi (make iowl-mpi; make test builds it when found).  Installed as root
# where apt-get can, never required: the plain build needs no MPI.
if ! printf '#include <mpi.h>\nint main(void){return 0;}\n' |
	${MPICC:-mpicc} -x c -o /dev/null - >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "$IOWL_NO_INSTALL" ]; then
		echo "iowl: installing the optional MPI library (libopenmpi-dev) for iowl-mpi" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q libopenmpi-dev >/dev/null 2>&1 ||
			echo "iowl: apt-get install libopenmpi-dev failed: iowl-mpi will not be built" >&2
	fi
fi
# Optional too: MPICH beside Open MPI (iowl-mpich, for the MPI tests with MPICH's mpirun.mpich;
# Debian keeps Open MPI the default mpicc and mpirun: its alternatives have the higher priority).
if ! printf '#include <mpi.h>\nint main(void){return 0;}\n' |
	${MPICC_MPICH:-mpicc.mpich} -x c -o /dev/null - >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "$IOWL_NO_INSTALL" ]; then
		echo "iowl: installing the optional MPICH (libmpich-dev) for iowl-mpich" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q libmpich-dev mpich >/dev/null 2>&1 ||
			echo "iowl: apt-get install libmpich-dev failed: iowl-mpich will not be built" >&2
	fi
fi
[ -z "$pkgs" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "iowl: installing missing build dependencies:$pkgs" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >&2 ||
		{ apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >&2; } ||
		{ echo "iowl: apt-get install$pkgs failed" >&2; exit 1; }
	exit 0
fi
echo "iowl: missing build dependencies; run as root:" >&2
echo "  apt-get install$pkgs" >&2
exit 1
