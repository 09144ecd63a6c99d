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
#include <stdint.h>
#include <stdio.h>

#include "iowl/err.h"

struct ivl_view;
struct job;
struct run_ctl;
struct run_outcome;
struct worker;

/*
 * What the ranks act on of a run (the run hands it over): they stop its workers, say why it
 * ended, mark and merge its jobs and print the sums of its intervals.  The pointers stay the
 * run's: jobs for as long as its phases run, ctl and ended_by for the whole run.
 */
struct ranks_run {
	struct run_ctl *ctl;	/* ctl->stop is set when another rank stops this one */
	char *ended_by;		/* IOWL_ERR_LEN bytes: why another rank ended the run */
	struct job *jobs;
	unsigned njobs;
	int signal;		/* the signal that stopped this rank's run, 0: none */
	FILE *ivl_out;		/* where rank 0 prints the intervals (NULL: stdout) */
	bool ivl_json;		/* ... as JSON lines */
};

/* True when this run has several ranks. */
bool ranks_on(void);

/*
 * Starts the heartbeat (ranks_tick()) of a run whose workers stop through ctl, timeout: the
 * --rank-timeout.  Ranks other than 0 report nothing themselves: their standard output goes
 * to /dev/null here and, when this returns true, the caller drops the rest of their reporting
 * (no --output or --report file, no --metrics, no --assert: rank 0 does those on the totals).
 */
bool ranks_quiet(struct run_ctl *ctl, uint64_t timeout);

/*
 * --rank-jobs=RANKS[:JOB,...] (the n strings of spec): marks the jobs of rr this rank does not
 * run (job->off_rank).  A job named in no --rank-jobs runs on every rank.  Returns 0, or
 * -EINVAL with err set (a bad rank list, a rank beyond the run's, an unknown job).
 */
int ranks_filter(const struct ranks_run *rr, char *const *spec, unsigned n, struct iowl_err *err);

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
int ranks_phase_sync(const struct ranks_run *rr, unsigned phase, int ret, struct iowl_err *err);

/* This rank does not run phase phase (a signal, an earlier failure): the others are told. */
void ranks_phase_skip(const struct ranks_run *rr, unsigned phase);

/*
 * Looks between the workers' progress: tells the other ranks when a worker of this rank failed,
 * and stops this rank's workers when another rank failed.
 */
void ranks_watch(const struct ranks_run *rr, struct worker *const *w, unsigned n);

/*
 * After the phases: every rank sends its results to rank 0, which merges them into o (units of
 * the same job and clone add up) and keeps each rank's own figures for the reports (o->r.ranks).
 * Returns 0 or -errno.
 */
int ranks_reduce(const struct ranks_run *rr, struct run_outcome *o);

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
void ranks_live_phase(const struct ranks_run *rr, unsigned phase);
void ranks_live_emit(void *ctx, const struct ivl_view *view, bool last);
void ranks_live_poll(void);
void ranks_live_flush(unsigned phase);

/* True when a rank was lost (died, killed): leave without waiting for it (cluster_end(false)). */
bool ranks_lost(void);

#endif
