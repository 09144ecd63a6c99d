#!/bin/sh
# SPDX-License-Identifier: MIT
# The tools the test suite compares iowl with or drives (fio and its examples, a browser and python3
# for the HTML report, Prometheus, MPI).  Installs the missing ones when run as root on Debian; otherwise says which tests will skip.
# Never fails: a test whose tool is missing skips (77) and says why.
pkgs=""
want() { # command-or-path, debian package
	case $1 in
	/*) [ -e "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac || pkgs="$pkgs $2"
}
want fio fio
want /usr/share/doc/fio/examples fio-examples
want chromium chromium
want python3 python3
want promtool prometheus
want prometheus-node-exporter prometheus-node-exporter
want mpirun openmpi-bin
want groff groff-base
want curl curl
want strace strace
[ -z "$pkgs" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "$IOWL_NO_INSTALL" ]; then
	echo "iowl: installing the test tools:$pkgs" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >/dev/null 2>&1; } ||
		echo "iowl: apt-get install$pkgs failed: the tests that need them will skip" >&2
	exit 0
fi
echo "iowl: the tests that need$pkgs will skip (as root: apt-get install$pkgs)" >&2
exit 0
