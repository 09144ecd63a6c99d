// SPDX-License-Identifier: MIT
/*
 * The cluster over MPI (iowl-mpi only; the plain build links single.c).  Only the main thread
 * calls MPI (MPI_THREAD_FUNNELED).  Every message is point to point on a private communicator
 * whose errors are returned, not fatal; receives poll (MPI_Iprobe) so a wait can be given up
 * when a rank has died, instead of hanging in a collective or calling MPI_Abort.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "cluster_int.h"
#include "iowl/clock.h"

/* A send not yet known to be complete, with its copy of the bytes. */
struct pending {
	MPI_Request req;
	void *buf;
};

static MPI_Comm comm = MPI_COMM_NULL;
static unsigned me, nranks = 1;
static char host[256];
static char library[128];
static char (*hosts)[256]; /* every rank's host name */
static struct pending *sends;
static unsigned nsends, capsends;

int cluster_init(int *argc, char ***argv, struct iowl_err *err)
{
	int provided, r, n, len;
	char v[MPI_MAX_LIBRARY_VERSION_STRING];

	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return err_set(err,
			       "MPI_Init_thread failed: is this process started by mpirun or srun?");
	if (MPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS)
		return err_set(err, "MPI_Comm_dup failed");
	MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	MPI_Comm_rank(comm, &r);
	MPI_Comm_size(comm, &n);
	me = (unsigned)r;
	nranks = (unsigned)n;
	if (MPI_Get_library_version(v, &len) == MPI_SUCCESS) {
		v[strcspn(v, ",\n")] = '\0';
		for (char *c = v; *c; c++) /* MPICH's "MPICH Version:\t4.0.2" */
			if (*c == '\t')
				*c = ' ';
		snprintf(library, sizeof(library), "%.127s", v);
	}
	if (cluster_env(me, nranks, host, sizeof(host)))
		return err_set(err, "cannot set IOWL_RANK in the environment: out of memory");
	/* Every rank's host, once at the start (vdbench's hd= are matched to them). */
	if (!(hosts = calloc(nranks, sizeof(*hosts))) ||
	    MPI_Allgather(host, sizeof(*hosts), MPI_CHAR, hosts, sizeof(*hosts), MPI_CHAR, comm) !=
		    MPI_SUCCESS)
		return err_set(err, "cannot learn the ranks' host names (MPI_Allgather)");
	return 0;
}

/* Forgets the sends that have completed. */
static void sends_reap(void)
{
	unsigned k = 0;

	for (unsigned i = 0; i < nsends; i++) {
		int done = 0;

		if (MPI_Test(&sends[i].req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done) {
			free(sends[i].buf);
			continue;
		}
		sends[k++] = sends[i];
	}
	nsends = k;
}

static int take(const MPI_Status *st, void **buf, size_t *len);

/*
 * At the end (the ranks stopped their heartbeats before the verdict, ranks.c): reads what is
 * still unread until nothing came for 5 ms, or MPI_Finalize may complain of it (UCX, under
 * MPICH, prints "unexpected tag-receive descriptor" on standard output).
 */
static void drain(void)
{
	uint64_t quiet = clock_gettime_ns();

	while (clock_gettime_ns() - quiet < 5000000ULL) {
		MPI_Status st;
		int flag = 0;
		void *buf;
		size_t len;

		if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st) != MPI_SUCCESS)
			break;
		if (!flag) {
			clock_nap(200000);
			continue;
		}
		if (take(&st, &buf, &len))
			break;
		free(buf);
		quiet = clock_gettime_ns();
	}
}

void cluster_end(bool clean)
{
	uint64_t until = clock_gettime_ns() + 1000000000ULL;

	if (comm == MPI_COMM_NULL)
		return;
	/* The last sends (the verdict) get a second to leave; a dead receiver never takes them. */
	while (clean && nsends && clock_gettime_ns() < until) {
		sends_reap();
		clock_nap(100000);
	}
	for (unsigned i = 0; i < nsends; i++) {
		MPI_Cancel(&sends[i].req);
		MPI_Request_free(&sends[i].req);
		free(sends[i].buf);
	}
	free(sends);
	sends = NULL;
	nsends = capsends = 0;
	/* MPI_Finalize waits for every rank: not when one is known to be gone. */
	if (clean) {
		drain();
		MPI_Comm_free(&comm);
		MPI_Finalize();
	}
	comm = MPI_COMM_NULL;
}

unsigned cluster_rank(void)
{
	return me;
}

unsigned cluster_size(void)
{
	return nranks;
}

const char *cluster_host(void)
{
	return host;
}

const char *cluster_host_of(unsigned r)
{
	return hosts && r < nranks ? hosts[r] : "";
}

const char *cluster_library(void)
{
	return library;
}

int cluster_send(unsigned to, enum cluster_tag tag, const void *buf, size_t len)
{
	struct pending *p;

	sends_reap();
	if (len > INT32_MAX)
		return -EMSGSIZE;
	if (nsends == capsends) {
		unsigned cap = capsends ? 2 * capsends : 16;

		if (!(p = realloc(sends, cap * sizeof(*p))))
			return -ENOMEM;
		sends = p;
		capsends = cap;
	}
	p = &sends[nsends];
	if (!(p->buf = malloc(len ? len : 1)))
		return -ENOMEM;
	memcpy(p->buf, buf, len);
	if (MPI_Isend(p->buf, (int)len, MPI_BYTE, (int)to, (int)tag, comm, &p->req) !=
	    MPI_SUCCESS) {
		free(p->buf);
		return -EIO;
	}
	nsends++;
	return 0;
}

/* Takes the message st announced. */
static int take(const MPI_Status *st, void **buf, size_t *len)
{
	int n = 0;

	if (MPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
		return -EIO;
	if (!(*buf = malloc(n ? (size_t)n : 1)))
		return -ENOMEM;
	if (MPI_Recv(*buf, n, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, comm, MPI_STATUS_IGNORE) !=
	    MPI_SUCCESS) {
		free(*buf);
		*buf = NULL;
		return -EIO;
	}
	*len = (size_t)n;
	return 0;
}

int cluster_recv(unsigned from, enum cluster_tag tag, void **buf, size_t *len,
		 cluster_give_up_fn give_up)
{
	uint64_t t0 = clock_gettime_ns();

	for (;;) {
		MPI_Status st;
		int flag = 0;

		if (MPI_Iprobe((int)from, (int)tag, comm, &flag, &st) != MPI_SUCCESS)
			return -EIO;
		if (flag)
			return take(&st, buf, len);
		sends_reap();
		if (give_up && give_up())
			return -ETIMEDOUT;
		/* Short naps first (a barrier's release is seen within tens of microseconds). */
		clock_nap(clock_gettime_ns() - t0 < 20000000ULL ? 20000 : 500000);
	}
}

int cluster_poll(enum cluster_tag tag, unsigned *from, void **buf, size_t *len)
{
	MPI_Status st;
	int flag = 0;

	sends_reap();
	if (MPI_Iprobe(MPI_ANY_SOURCE, (int)tag, comm, &flag, &st) != MPI_SUCCESS || !flag)
		return 0;
	*from = (unsigned)st.MPI_SOURCE;
	return take(&st, buf, len) ? 0 : 1;
}
