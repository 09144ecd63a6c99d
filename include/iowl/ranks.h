/* SPDX-License-Identifier: MIT */
/*
 * One run over several processes (MPI ranks, cluster.h): every rank runs the job file; barriers
 * before each phase start them together, a failing rank stops the others, and rank 0 gathers
 * every rank's results (histograms add, so merged percentiles are exact) and reports them all.
 * With one process (the plain build) every call here is a no-op.
 */
#ifndef IOWL_RANKS_H
#define IOWL_RANKS_H

#include <stdbool.h>

#include "iowl/err.h"
#include "iowl/run.h"

/* True when this run has several ranks. */
bool ranks_on(void);

/*
 * Ranks other than 0 report nothing themselves: their standard output goes to /dev/null and
 * they write no --output or --report file, serve no --metrics and check no --assert (rank 0
 * does, on the totals).
 */
void ranks_quiet(struct iowl_run *run);

/*
 * --rank-jobs=RANKS[:JOB,...]: marks the jobs this rank does not run (job->off_rank).  A job
 * named in no --rank-jobs runs on every rank.  Returns 0, or -EINVAL with err set (a bad rank
 * list, a rank beyond the run's, an unknown job).
 */
int ranks_filter(struct iowl_run *run, struct iowl_err *err);

/*
 * --sweep ranks=K: only ranks 0 to n-1 run the jobs from the next ranks_filter() on (the others
 * lay out nothing and do no IO, but still meet at every barrier); 0: every rank.
 */
void ranks_limit(unsigned n);

/*
 * Every rank has prepared its jobs (ret: this rank's outcome): returns the first failure of any
 * rank (err says which rank and why), else 0.  The plain build returns ret.
 */
int ranks_agree(int ret, struct iowl_err *err);

/* A run (one collection of phases) starts: forgets the previous run's. */
void ranks_begin(unsigned nphases);

/*
 * The barrier before phase phase's IO (after its layout and setup): ret is this rank's outcome.
 * Returns ret, or -ECANCELED when another rank stopped the run (err says which and why; the
 * workers are told to stop).  Records when this rank's phase started.
 */
int ranks_phase_sync(struct iowl_run *run, unsigned phase, int ret, struct iowl_err *err);

/* This rank does not run phase phase (a signal, an earlier failure): the others are told. */
void ranks_phase_skip(struct iowl_run *run, unsigned phase);

/*
 * Looks between the workers' progress: tells the other ranks when a worker of this rank failed,
 * and stops this rank's workers when another rank failed.
 */
void ranks_watch(struct iowl_run *run, struct worker *const *w, unsigned n);

/*
 * After the phases: every rank sends its results to rank 0, which merges them into o (units of
 * the same job and clone add up) and keeps each rank's own figures for the reports (o->r.ranks).
 * Returns 0 or -errno.
 */
int ranks_reduce(struct iowl_run *run, struct run_outcome *o);

/* The run's exit status on every rank: the worst of all ranks', decided by rank 0. */
int ranks_verdict(int status);

/*
 * The heartbeat, called from the main thread's loops and waits (a call from another thread does
 * nothing): every 250 ms rank 0 sends a beat to every rank and every rank one to rank 0.  A
 * rank that rank 0 has not heard of for --rank-timeout (or rank 0, for the others) hangs: it is
 * lost, this rank's workers stop, and rank 0 tells the others, so the run ends with status 2
 * naming it.
 */
void ranks_tick(void);

/* True when rank r was lost (died, killed, hangs). */
bool ranks_rank_lost(unsigned r);

/*
 * --status-interval over the ranks (ranks_live.c): ranks_live_emit() is the interval clock's
 * ivl_opts.emit (ctx unused); every rank sends rank 0 each interval's figures and histograms,
 * and rank 0 prints each interval's sum over the ranks once every rank in the phase has sent
 * it.  ranks_live_begin() drops what an earlier run left (ranks_begin() calls it),
 * ranks_live_phase() says which phase this rank runs, ranks_live_poll() (rank 0's run
 * loop and waits) takes what came and prints what is complete, ranks_live_flush(phase) prints
 * every interval of the phases before phase as it stands.
 */
void ranks_live_begin(void);
void ranks_live_phase(const struct iowl_run *run, unsigned phase);
void ranks_live_emit(void *ctx, const struct ivl_view *view, bool last);
void ranks_live_poll(void);
void ranks_live_flush(unsigned phase);

/* True when a rank was lost (died, killed): leave without waiting for it (cluster_end(false)). */
bool ranks_lost(void);

#endif
