/* SPDX-License-Identifier: MIT */
/* Shared by the two cluster builds (single.c, mpi.c). */
#ifndef IOWL_CLUSTER_INT_H
#define IOWL_CLUSTER_INT_H

#include "iowl/cluster.h"

/* Finds the host name and sets IOWL_RANK, IOWL_RANKS and IOWL_HOST.  Returns 0 or -1. */
int cluster_env(unsigned rank, unsigned size, char *host, size_t hostlen);

#endif
