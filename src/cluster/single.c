// SPDX-License-Identifier: MIT
/* The plain build's cluster: one process, rank 0 of 1 (iowl-mpi links mpi.c instead). */
#include <errno.h>

#include "cluster_int.h"

static char host[256];

int cluster_init(int *argc, char ***argv, struct iowl_err *err)
{
	unsigned n = cluster_launched_size();

	if (n)
		return err_set(err,
			       "started as one of %u processes (mpirun, srun), but this iowl was built without MPI, so each would run the whole job alone; build iowl-mpi (apt-get install libopenmpi-dev; make iowl-mpi) and launch that",
			       n);
	if (cluster_env(0, 1, host, sizeof(host)))
		return err_set(err, "cannot set IOWL_RANK in the environment: out of memory");
	return 0;
}

void cluster_end(bool clean)
{
}

unsigned cluster_rank(void)
{
	return 0;
}

unsigned cluster_size(void)
{
	return 1;
}

const char *cluster_host(void)
{
	return host;
}

const char *cluster_host_of(unsigned r)
{
	return r ? "" : host;
}

const char *cluster_library(void)
{
	return "";
}

int cluster_send(unsigned to, enum cluster_tag tag, const void *buf, size_t len)
{
	return -ENOSYS;
}

int cluster_recv(unsigned from, enum cluster_tag tag, void **buf, size_t *len,
		 cluster_give_up_fn give_up)
{
	return -ENOSYS;
}

int cluster_poll(enum cluster_tag tag, unsigned *from, void **buf, size_t *len)
{
	return 0;
}
