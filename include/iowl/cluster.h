/* SPDX-License-Identifier: MIT */
/*
 * The processes of one run (MPI ranks) and the messages between them.  The plain build links
 * src/cluster/single.c: one process, rank 0 of 1.  iowl-mpi links src/cluster/mpi.c instead; no
 * other file sees MPI.  Messages are point to point and every wait can be given up (a rank that
 * died never answers), so no rank hangs on a dead one and nothing needs MPI_Abort.
 */
#ifndef IOWL_CLUSTER_H
#define IOWL_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "iowl/err.h"

/* What a message is for: each kind is its own stream between two ranks, kept in order. */
enum cluster_tag {
	CLUSTER_UP = 1, /* a rank to rank 0: its arrival at a barrier, its results */
	CLUSTER_DOWN,	/* rank 0 to a rank: the barrier's outcome, the verdict */
	CLUSTER_NOTICE, /* any rank to all: "I failed", read between looks at the workers */
	CLUSTER_BEAT,	/* the ranks to rank 0 and back: "I am alive", every 250 ms */
	CLUSTER_LIVE,	/* a rank to rank 0: an interval's figures for --status-interval */
};

/* Called while a wait lasts: true gives the wait up. */
typedef bool (*cluster_give_up_fn)(void);

/*
 * Joins the run's processes (MPI_Init) and sets IOWL_RANK, IOWL_RANKS and IOWL_HOST in the
 * environment for the job files.  The plain build started as one of several processes by a
 * launcher (mpirun, srun) says what to rebuild.  Returns 0, or -EINVAL with err set.
 */
int cluster_init(int *argc, char ***argv, struct iowl_err *err);

/* Leaves the run (MPI_Finalize); clean is false after a rank was lost (no collective then). */
void cluster_end(bool clean);

unsigned cluster_rank(void);
unsigned cluster_size(void);
const char *cluster_host(void);

/* Rank r's host name (every rank's is known from the start), "" beyond the run's ranks. */
const char *cluster_host_of(unsigned r);

/* The message library, for the reports: "" in the plain build. */
const char *cluster_library(void);

/* Sends len bytes to rank to without waiting (the bytes are copied).  Returns 0 or -errno. */
int cluster_send(unsigned to, enum cluster_tag tag, const void *buf, size_t len);

/*
 * Receives the next message of kind tag from rank from into *buf (malloc'd, *len bytes).  Waits
 * until it comes, or until give_up() returns true (-ETIMEDOUT).  Returns 0 or -errno.
 */
int cluster_recv(unsigned from, enum cluster_tag tag, void **buf, size_t *len,
		 cluster_give_up_fn give_up);

/*
 * A message of kind tag from any rank if one has come, without waiting: 1 (with *from, *buf,
 * *len), 0 none.
 */
int cluster_poll(enum cluster_tag tag, unsigned *from, void **buf, size_t *len);

/*
 * The number of processes a launcher started when this build cannot join them (environment of
 * Open MPI, MPICH/Hydra or PMIx), 0 when not started by one, or started as the only process.
 */
unsigned cluster_launched_size(void);

#endif
