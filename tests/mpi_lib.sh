# SPDX-License-Identifier: MIT
# For the MPI tests (tests/func/mpi_*.sh), after lib.sh: finds the launcher and the MPI build, or
# skips.  MPI_FLAVOUR=openmpi (the default: iowl-mpi under Open MPI's mpirun) or mpich (iowl-mpich,
# built with mpicc.mpich, under MPICH's Hydra mpirun.mpich); tests/func/mpich_*.sh are the same
# tests with MPICH.
# mpirun_np NP [-x VAR[=VALUE]]... ARGS...: the launcher on this one machine (as root where the
# test runs as root, more ranks than CPUs allowed), output to $SCRATCH/out and $SCRATCH/err,
# status in $rc.  -x is Open MPI's: with MPICH (which passes the whole environment on), -x VAR is
# dropped and -x VAR=VALUE becomes -genv VAR VALUE.
MPI_FLAVOUR=${MPI_FLAVOUR:-openmpi}
if [ "$MPI_FLAVOUR" = mpich ]; then
	IOWL_MPI=${IOWL_MPICH:-$(dirname "$IOWL")/iowl-mpich}
	MPIRUN=mpirun.mpich
	MPI_LIB=libmpich
	MPI_PKG=libmpich-dev
else
	IOWL_MPI=${IOWL_MPI:-$(dirname "$IOWL")/iowl-mpi}
	MPIRUN=mpirun.openmpi
	command -v $MPIRUN >/dev/null 2>&1 || MPIRUN=mpirun
	MPI_LIB=libmpi
	MPI_PKG=libopenmpi-dev
fi
# The machine's hwloc topology, found once (lstopo) and read from XML by every launcher and rank
# after: each discovered it anew, a third of a launch's CPU (np 4 iowl-mpi: 0.56 -> 0.40 s).
if command -v lstopo-no-graphics >/dev/null 2>&1 &&
	lstopo-no-graphics --of xml > "$SCRATCH/hwloc.xml" 2>/dev/null; then
	export HWLOC_XMLFILE="$SCRATCH/hwloc.xml" HWLOC_THISSYSTEM=1
fi
# The ranks' signals 1.5 s into their IO (tests/mpi_signal.sh), for the ranks' scripts too.
MPI_SIGNAL=$(cd "$(dirname "$0")/.." && pwd)/mpi_signal.sh
export MPI_SIGNAL
# Open MPI's own settings for its mpirun (run as root, oversubscribe a 2-CPU machine, quiet).
ompi_export() {
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_base_warn_component_unused=0
}
need_mpi() {
	command -v $MPIRUN >/dev/null 2>&1 || skip "$MPIRUN not found (apt-get install $MPI_PKG)"
	if [ "$MPI_FLAVOUR" = mpich ]; then
		$MPIRUN --version 2>/dev/null | grep -q HYDRA || skip "$MPIRUN is not MPICH's Hydra"
	else
		$MPIRUN --version 2>/dev/null | grep -q 'Open MPI\|OpenRTE' || skip "$MPIRUN is not Open MPI's (the tests use its options)"
	fi
	[ -x "$IOWL_MPI" ] || skip "no MPI build ($IOWL_MPI): apt-get install $MPI_PKG; make $(basename "$IOWL_MPI") (not built under ASan/TSan)"
	ldd "$IOWL_MPI" 2>/dev/null | grep -q "$MPI_LIB\.so" || skip "$IOWL_MPI is not linked with $MPI_LIB"
}
mpirun_np() {
	np=$1
	shift
	if [ "$MPI_FLAVOUR" = mpich ]; then
		set -- "$@" --mpi-end--
		while [ "$1" != --mpi-end-- ]; do
			if [ "$1" = -x ]; then
				case $2 in
				*=*) set -- "$@" -genv "${2%%=*}" "${2#*=}" ;;
				esac
				shift 2
				continue
			fi
			set -- "$@" "$1"
			shift
		done
		shift
		timeout 120 $MPIRUN -np "$np" "$@" > "$SCRATCH/out" 2> "$SCRATCH/err"
	else
		(ompi_export && exec timeout 120 $MPIRUN -np "$np" "$@") > "$SCRATCH/out" 2> "$SCRATCH/err"
	fi
	rc=$?
}
# mpi_record: writes $SCRATCH/record.sh R CMD...: runs CMD for rank R in the background, its output
# in $SCRATCH/out.R and err.R, its pid in pid.R, then its status and when it ended (/proc/uptime)
# in status.R.  Started with setsid by a rank's wrapper, it outlives the launcher's signals.
mpi_record() {
	cat > "$SCRATCH/record.sh" <<'SH'
r=$1
shift
"$@" > "$SCRATCH/out.$r" 2> "$SCRATCH/err.$r" &
echo $! > "$SCRATCH/pid.$r.new"
mv "$SCRATCH/pid.$r.new" "$SCRATCH/pid.$r"
wait $!
st=$?
read up _ < /proc/uptime
echo "$st $up" > "$SCRATCH/status.$r"
SH
}
# mpi_await R: waits up to 10 s for rank R's status (its record.sh may outlast mpirun a moment).
mpi_await() {
	n=0
	while [ ! -f "$SCRATCH/status.$1" ] && [ $n -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
}
# ms_since A B: milliseconds from uptime A to uptime B.
ms_since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", (b - a) * 1000 }'; }
