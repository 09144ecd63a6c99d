#!/bin/sh
# tests/func/mpi_vdbench.sh with MPICH (iowl-mpich under mpirun.mpich, Hydra) instead of Open MPI.
MPI_FLAVOUR=mpich
. "$(dirname "$0")/mpi_vdbench.sh"
