# SPDX-License-Identifier: MIT
# For the MPI tests (tests/func/mpi_*.sh), after lib.sh: finds mpirun and iowl-mpi, or skips.
# mpirun NP ARGS...: Open MPI's mpirun on this one machine (as root where the test runs as root,
# more ranks than CPUs allowed), output to $SCRATCH/out and $SCRATCH/err, status in $rc.
IOWL_MPI=${IOWL_MPI:-$(dirname "$IOWL")/iowl-mpi}
need_mpi() {
	command -v mpirun >/dev/null 2>&1 || skip "mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
	mpirun --version 2>/dev/null | grep -q 'Open MPI' || skip "mpirun is not Open MPI's (the tests use its options)"
	[ -x "$IOWL_MPI" ] || skip "no MPI build ($IOWL_MPI): apt-get install libopenmpi-dev; make iowl-mpi (not built under ASan/TSan)"
}
mpirun_np() {
	np=$1
	shift
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
		OMPI_MCA_btl_base_warn_component_unused=0 \
		timeout 120 mpirun -np "$np" "$@" > "$SCRATCH/out" 2> "$SCRATCH/err"
	rc=$?
}
