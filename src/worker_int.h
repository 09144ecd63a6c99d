/* SPDX-License-Identifier: MIT */
/*
 * Private to the worker's files: worker.c (the per-IO loop), worker_main.c (set-up, the thread's
 * life, the end), worker_rate.c (rate, rate_min, latency limits, replay pacing), worker_think.c
 * (thinktime), worker_flow.c (flow=), worker_files.c (openfiles) and worker_steps.c (ramp_time's end, worker_ramp's steps,
 * bw and iops samples).
 */
#ifndef IOWL_WORKER_INT_H
#define IOWL_WORKER_INT_H

#include "iowl/clock.h"
#include "iowl/worker.h"

#define SAMPLE_NS 500000000ULL /* how often a ramp_time's end is looked for */
#define IO_RETRY 1U	       /* io_u flag: resubmission of a short or EAGAIN IO */
#define IO_QUEUED 2U	       /* io_u flag: went through the queue (it has a slat) */
#define IO_FLIGHT 4U	       /* io_u flag: serialize_overlap: issued and not yet put back */
/* longest wait for a completion between looks at a stop and io_timeout */
#define REAP_SLICE_NS 250000000ULL
#define SYS_WAIT 2ULL /* sys_ns: a wait for completions, which stalled() times itself */

static inline bool stopping(const struct worker *w)
{
	return __atomic_load_n(&w->ctl->stop, __ATOMIC_RELAXED);
}

/*
 * Answers the run's request for an interval snapshot, if there is a new one: one load of a
 * line the main thread writes once per interval, checked once per completion batch.
 */
static inline void answer_snap(struct worker *w)
{
	unsigned req = __atomic_load_n(&w->ctl->snap_req, __ATOMIC_ACQUIRE);

	if (req == w->snap_seen)
		return;
	if (w->cfill.base)
		cfill_publish(&w->cfill, &w->stats.cfill);
	snap_take(&w->snap, &w->stats, !w->ramp_end_ns);
	w->snap.inflight = w->inflight;
	__atomic_store_n(&w->snap.seq, req, __ATOMIC_RELEASE);
	w->snap_seen = req;
	if (__atomic_load_n(&w->halt, __ATOMIC_RELAXED))
		w->no_more = true;	/* steady state reached: finish as at the deadline */
}

/*
 * Around an engine call that may block (a synchronous IO, a commit, a wait for completions):
 * the run's main thread may seize a worker blocked in one (worker_seize()).  since is when the
 * wait began; the call costs one store and one compare-and-swap, against a system call.
 */
static inline uint64_t sys_enter(struct worker *w, const struct io_u *io, uint64_t since,
				 uint64_t wait)
{
	w->sys_io = io;
	since = (since & ~3ULL) | 1 | wait;
	__atomic_store_n(&w->sys_ns, since, __ATOMIC_RELEASE);
	return since;
}

static inline void sys_leave(struct worker *w, uint64_t since)
{
	if (__builtin_expect(!__atomic_compare_exchange_n(&w->sys_ns, &since, 0, false,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED),
			     0))
		pthread_exit(NULL); /* the run took this worker's figures: touch nothing more */
}

/* Records one issued IO in the job's write_iolog. */
static inline void iolog_add(struct worker *w, const struct io_u *io)
{
	iolog_w_add(&w->iolog, w->plan.files[io->file].path, io->op, io->offset, io->len);
}

/* The count thinktime_blocks applies to: completed IOs (fio's io_blocks) or issued ones (io_issues). */
static inline uint64_t think_count(const struct worker *w)
{
	return w->job->o.thinktime_blocks_type ? w->issued_ios : w->done_ios;
}

/* True when a thinktime stall is due: thinktime_iotime of IO since the last, or thinktime_blocks IOs. */
static inline bool think_due(const struct worker *w)
{
	if (w->verifying) /* the read-back after the workload does not think (nor does fio's) */
		return false;
	if (w->think.io_at != UINT64_MAX && clock_ns() >= w->think.io_at)
		return true;
	return w->think.blocks && think_count(w) >= w->think.last + w->think.blocks;
}

/* worker.c: the per-IO loop */
int worker_commit(struct worker *w);
int worker_reap_wait(struct worker *w, unsigned min, uint64_t wait_ns);
int worker_reap(struct worker *w, unsigned min);
int worker_run_loop(struct worker *w);
void worker_record_error(struct worker *w, const struct io_u *io, int err);
/* openfiles: closes the open files whose pass is over (the writes' end, before their read-back). */
int worker_close_done(struct worker *w);
/* openfiles: closes the files open at the end (as fio's job does), each with its iolog line. */
void worker_close_files(struct worker *w);
/* openfiles: opens file f for the IO about to be issued on it (worker_files.c).  0 or -errno. */
int worker_open_file(struct worker *w, unsigned f);
/* Counts bad verified units as errors (EILSEQ, the first failure's place), as fio. */
void worker_record_verify(struct worker *w, unsigned bad);

/* worker_main.c */
int worker_setup(struct worker *w);

/* worker_rate.c */
void worker_rate_start(struct worker *w, uint64_t now);
void worker_rate_check(struct worker *w, uint64_t now);
int worker_pace(struct worker *w, struct io_u *io, uint64_t *now);
int worker_rate_report(struct worker *w);
bool worker_lt_quiesced(struct worker *w);
void worker_lat_limits(struct worker *w, const struct io_u *io, uint64_t lat, uint64_t now);

/* worker_flow.c */
int worker_flow_wait(struct worker *w);
void worker_flow_leave(struct worker *w);

/* worker_think.c */
void worker_think_start(struct worker *w, uint64_t now);
int worker_think(struct worker *w);

/* worker_steps.c */
void worker_samples_restart(struct worker *w, uint64_t now);
void worker_take_sample(struct worker *w, uint64_t now);
void worker_start_logs(struct worker *w, uint64_t now);
void worker_end_ramp(struct worker *w, uint64_t now);
void worker_steps_start(struct worker *w, uint64_t now);
void worker_step_close(struct worker *w, uint64_t now);

#endif
