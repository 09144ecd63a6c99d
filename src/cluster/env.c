// SPDX-License-Identifier: MIT
/* What both cluster builds share: the IOWL_* variables for the job files, and the launchers' environment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster_int.h"

/* A variable of the launcher's environment as a count; 0 when unset or not a number. */
static unsigned env_count(const char *name)
{
	const char *v = getenv(name);
	char *end;
	unsigned long n;

	if (!v || !*v)
		return 0;
	n = strtoul(v, &end, 10);
	return *end || n > 1000000 ? 0 : (unsigned)n;
}

unsigned cluster_launched_size(void)
{
	unsigned n = env_count("OMPI_COMM_WORLD_SIZE"); /* Open MPI's mpirun */

	if (!n)
		n = env_count("PMI_SIZE"); /* MPICH's Hydra, Slurm's PMI-2 */
	/* PMIx (srun --mpi=pmix) names the rank only: a rank above 0 means several processes. */
	if (!n && env_count("PMIX_RANK") > 0)
		n = env_count("PMIX_RANK") + 1;
	return n > 1 ? n : 0;
}

int cluster_env(unsigned rank, unsigned size, char *host, size_t hostlen)
{
	char num[16];

	if (gethostname(host, hostlen))
		snprintf(host, hostlen, "localhost");
	host[hostlen - 1] = '\0';
	snprintf(num, sizeof(num), "%u", rank);
	if (setenv("IOWL_RANK", num, 1))
		return -1;
	snprintf(num, sizeof(num), "%u", size);
	if (setenv("IOWL_RANKS", num, 1) || setenv("IOWL_HOST", host, 1))
		return -1;
	return 0;
}
