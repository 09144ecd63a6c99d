// SPDX-License-Identifier: MIT
/* A worker's life: set-up, the wait for the start, the workload, the verification after it, the end; and the run's hold on a blocked worker. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "iowl/flock.h"
#include "iowl/cgroup.h"
#include "iowl/ddir.h"
#include "iowl/hist.h"
#include "iowl/gen.h"
#include "iowl/verify.h"
#include "iowl/wlog.h"
#include "iowl/place.h"
#include "iowl/jobctl.h"
#include "iowl/lattarget.h"
#include "iowl/debug.h"
#include "iowl/iosched.h"
#include "iowl/profile.h"
#include "worker_int.h"

struct worker *worker_new(const struct job *job, unsigned clone, unsigned number,
			  struct run_ctl *ctl)
{
	struct worker *w = aligned_alloc(64, sizeof(*w));

	if (!w)
		return NULL;
	memset(w, 0, sizeof(*w));
	w->job = job;
	w->clone = clone;
	w->number = number;
	w->ctl = ctl;
	w->iolog.fd = -1;
	w->mem.fd = -1;
	w->deadline_ns = UINT64_MAX;
	w->steps.next_ns = UINT64_MAX;
	w->think.io_at = UINT64_MAX;
	w->rate.check_ns = UINT64_MAX;
	w->wlog_next = UINT64_MAX;
	return w;
}

static uint64_t max_bs(const struct job *job)
{
	uint64_t m = 0;

	for (unsigned d = 0; d < DDIR_NR; d++)
		if (job_does_dir(job, d) && job->max_bs[d] > m)
			m = job->max_bs[d];
	return m ? m : 4096;
}

/* The bytes of the worker's region, over all its files. */
static uint64_t region_bytes(const struct target_plan *plan)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < plan->nfiles; i++)
		sum += plan->files[i].size;
	return sum;
}

static int setup_engine(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct engine *e = &w->eng;
	uint64_t bufsz = (max_bs(w->job) + 4095) & ~4095ULL;
	int ret;

	e->ops = w->job->engine;
	e->depth = (e->ops->flags & ENGINE_F_SYNC) ? 1 : o->iodepth;
	if (o->io_submit_mode) { /* offload: iodepth threads run the engine, one IO each */
		e->inner = e->ops;
		e->ops = &engine_offload_ops;
		e->depth = o->iodepth;
	}
	e->params = (struct engine_params){
		.direct = o->direct,
		.fixedbufs = o->fixedbufs,
		.registerfiles = o->registerfiles,
		.sqthread_poll = o->sqthread_poll,
		.sqthread_poll_cpu = o->sqthread_poll_cpu,
		.hipri = o->hipri,
		.hipri_percentage = o->hipri_percentage,
		.uncached = o->uncached,
		.nowait = o->nowait,
		.userspace_reap = o->userspace_reap,
		.thp = o->thp,
		.nonvectored = o->nonvectored,
		.force_async = o->force_async,
		.batch_submit = o->iodepth_batch_submit ? o->iodepth_batch_submit : 1,
		.batch_complete_min = o->iodepth_batch_complete_min,
		.batch_complete_max = o->iodepth_batch_complete_max,
	};
	e->buf_size = bufsz;
	e->files = w->plan.files;
	e->nfiles = w->plan.nfiles;
	e->ios = calloc(e->depth, sizeof(*e->ios));
	w->free_idx = calloc(e->depth, sizeof(*w->free_idx));
	w->pend = calloc(e->depth, sizeof(*w->pend));
	w->requeue = calloc(e->depth, sizeof(*w->requeue));
	if (!e->ios || !w->free_idx || !w->pend || !w->requeue)
		return err_nomem(&w->err, "job '%s': out of memory for %u buffers of %llu bytes",
				 o->name, e->depth, (unsigned long long)bufsz);
	ret = iomem_alloc(&w->mem, o, bufsz * e->depth, &e->buf_base, &w->err);
	if (ret)
		return ret;
	dprint(DBG_MEM,
	       "job '%s' clone %u: %u buffers of %llu bytes (mem kind %u) at %p, area %zu bytes",
	       o->name, w->clone, e->depth, (unsigned long long)bufsz, w->mem.kind, e->buf_base,
	       w->mem.len);
	fill_init(&w->fill, w->job, w->number, region_bytes(&w->plan));
	if (w->dedupe_total)
		fill_share(&w->fill, w->job, w->dedupe_base, w->dedupe_total);
	for (unsigned i = 0; i < e->depth; i++) {
		e->ios[i].index = (uint16_t)i;
		e->ios[i].buf = (char *)e->buf_base + i * bufsz;
		/* After a stop the worker does no IO: the rest need not be filled. */
		if (!(e->ops->flags & ENGINE_F_NODATA) && !stopping(w))
			fill_buffer(&w->fill, e->ios[i].buf, bufsz);
		w->free_idx[i] = (uint16_t)(e->depth - 1 - i);
	}
	w->nfree = e->depth;
	if (cmdprio_active(&o->cmdprio)) {
		if (!(w->cmdprio = malloc(sizeof(*w->cmdprio))))
			return err_nomem(&w->err, "out of memory");
		cmdprio_init(w->cmdprio, &o->cmdprio, o->randseed ^ ((uint64_t)w->number << 40));
	}
	w->qd = e->depth;
	w->async = !(e->ops->flags & ENGINE_F_SYNC) && e->depth > 1;
	w->moves_data = !(e->ops->flags & ENGINE_F_NODATA);
	w->eof_empty = w->job->o.create_on_open && !(e->ops->flags & ENGINE_F_SYNC);
	return e->ops->init(e, &w->err);
}

static int setup_verify(struct worker *w)
{
	const struct job *job = w->job;
	struct verify_params vp;

	if (!job->o.verify)
		return 0;
	verify_params_of(job, w->clone, &vp);
	w->verify = verify_new(&vp, w->plan.files, w->plan.nfiles, w->eng.depth, w->eng.buf_size,
			       job->o.randseed ^ (uint64_t)w->number << 32, &w->err);
	if (w->verify && job->o.verify_state_load) {
		char path[PATH_MAX];

		if (verify_state_name(path, sizeof(path), job->o.name, w->number))
			return err_set(&w->err, "job '%s': verify state file name too long",
				       job->o.name);
		if (verify_state_load(w->verify, path, &w->err))
			return -EINVAL;
		dprint(DBG_VERIFY, "job '%s' clone %u: %llu written units loaded from '%s'",
		       job->o.name, w->clone, (unsigned long long)verify_state_loaded(w->verify),
		       path);
	}
	return w->verify ? 0 : -EINVAL;
}

/*
 * verify_state_save, as fio: at the end of a job that writes, also one stopped by a signal or
 * an error, its units' last completed writes.  verify_only makes no writes and saves nothing
 * (fio saves its dry run's, which a second verify-only run then reads wrongly).
 */
static void save_verify_state(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct iowl_err err = { "" };
	char path[PATH_MAX];
	int ret;

	if (!w->verify || !o->verify_state_save || o->verify_only ||
	    !job_does_dir(w->job, DDIR_WRITE))
		return;
	ret = verify_state_name(path, sizeof(path), o->name, w->number) ?
		      err_set(&err, "job '%s': verify state file name too long", o->name) :
		      verify_state_save(w->verify, path, &err);
	if (ret) /* as fio: a warning, the job's results stand (a read-only directory, say) */
		iowl_warn("%s", err.text);
}

/*
 * The directions a worker records: those it issues, and reads whenever it writes or trims (verify
 * and trim_verify_zero read back what it wrote).
 */
static unsigned stats_dirs(const struct job *job)
{
	unsigned dirs = job->dirs;

	return dirs & ((1U << DDIR_WRITE) | (1U << DDIR_TRIM)) ? dirs | 1U << DDIR_READ : dirs;
}

/*
 * fio's per-priority latency (cmdprio): a slot per priority each direction's IOs may have, the
 * thread's own first, made before the first IO.
 */
static int prio_slots(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	bool hist = o->clat_percentiles || o->lat_percentiles;
	uint16_t v[CMDPRIO_SPLIT_MAX];

	w->ioprio = place_ioprio(&o->place);
	w->prio_lat = o->lat_percentiles;
	if (!w->cmdprio || !o->stats || (w->prio_lat ? o->disable_lat : o->disable_clat))
		return 0;
	for (unsigned d = 0; d < 2; d++) {
		unsigned n = cmdprio_values(w->cmdprio, d, v);

		if (!(w->job->dirs & (1U << d)) || !n)
			continue;
		if (stats_prio_slot(&w->stats.dir[d], w->ioprio, hist))
			return -ENOMEM;
		for (unsigned i = 0; i < n; i++)
			if (stats_prio_slot(&w->stats.dir[d], v[i], hist))
				return -ENOMEM;
	}
	return 0;
}

/* --debug's traces of a clone's set-up: its seeds, rates and verify. */
/* lockfile=: the lock of each of the clone's files, shared with every job that locks it. */
static int worker_file_locks(struct worker *w)
{
	w->flocks = calloc(w->plan.nfiles, sizeof(*w->flocks));
	if (!w->flocks)
		return err_set(&w->err, "out of memory");
	for (unsigned i = 0; i < w->plan.nfiles; i++) {
		/* openfiles: a file not open yet is looked at through a path descriptor */
		int fd = w->plan.files[i].fd >= 0 ? w->plan.files[i].fd :
						    open(w->plan.files[i].path, O_PATH | O_CLOEXEC);

		w->flocks[i] = fd >= 0 ? file_lock_get(fd) : NULL;
		if (fd >= 0 && fd != w->plan.files[i].fd)
			close(fd);
		if (!w->flocks[i])
			return err_errno(&w->err, errno, "job '%s': lockfile: '%s'", w->job->o.name,
					 w->plan.files[i].path);
	}
	return 0;
}

static void debug_setup(const struct worker *w)
{
	const struct job_opts *o = &w->job->o;

	dprint(DBG_RANDOM,
	       "job '%s' clone %u: randseed=%llu, thread number %u (offsets, sizes and buffers are drawn from both)%s",
	       o->name, w->clone, (unsigned long long)o->randseed, w->number + 1,
	       w->cmdprio ? ", cmdprio draws from randseed ^ number << 40" : "");
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (o->rate[d] || o->rate_iops[d] || o->rate_min[d] || o->rate_iops_min[d])
			dprint(DBG_RATE,
			       "job '%s' clone %u %s: rate=%llu B/s rate_iops=%llu rate_min=%llu B/s rate_iops_min=%llu, rate_process %u",
			       o->name, w->clone, ddir_name(d), (unsigned long long)o->rate[d],
			       (unsigned long long)o->rate_iops[d],
			       (unsigned long long)o->rate_min[d],
			       (unsigned long long)o->rate_iops_min[d], o->rate_process);
	if (o->verify)
		dprint(DBG_VERIFY,
		       "job '%s' clone %u: verify=%s, do_verify=%d, depth %u, block %llu", o->name,
		       w->clone, verify_mode_name(o->verify), o->do_verify, w->eng.depth,
		       (unsigned long long)w->eng.buf_size);
	for (unsigned i = 0; i < w->plan.nfiles; i++)
		dprint(DBG_FILE,
		       "job '%s' clone %u: file %u '%s' fd %d%s, size %llu, region %llu+%llu, logical block %u",
		       o->name, w->clone, i, w->plan.files[i].path, w->plan.files[i].fd,
		       w->plan.files[i].is_bdev ? " (block device)" : "",
		       (unsigned long long)w->plan.files[i].real_size,
		       (unsigned long long)w->plan.files[i].start,
		       (unsigned long long)w->plan.files[i].size, w->plan.files[i].lbs);
}

int worker_setup(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	int ret;

	ret = 0;
	if (!(w->job->engine->flags & ENGINE_F_NODATA)) {
		if (w->layout_here) { /* create_serialize=0 */
			ret = target_layout(w->job, &w->plan, w->layout_info, &w->err);
			if (!ret && o->invalidate) /* best effort, as after a serialized layout */
				target_invalidate(&w->plan, false, NULL);
		}
		if (!ret)
			ret = target_open(w->job, &w->plan, &w->err);
		if (!ret && o->lockfile)
			ret = worker_file_locks(w);
		/* ioscheduler: each file's device, before the IO (fio switches the first file's) */
		for (unsigned i = 0; !ret && o->ioscheduler && i < w->plan.nfiles; i++)
			ret = iosched_switch(o->name, w->plan.files[i].path, o->ioscheduler,
					     &w->err);
		if (!ret && o->pre_read)
			ret = target_pre_read(w->job, &w->plan, &w->err);
	}
	if (!ret && o->sync_file_range_nr) {
		w->sfr_lo = malloc(w->plan.nfiles * sizeof(*w->sfr_lo));
		w->sfr_hi = calloc(w->plan.nfiles, sizeof(*w->sfr_hi));
		if (!w->sfr_lo || !w->sfr_hi)
			ret = err_set(&w->err, "out of memory");
		for (unsigned i = 0; !ret && i < w->plan.nfiles; i++)
			w->sfr_lo[i] = UINT64_MAX;
	}
	if (!ret)
		ret = setup_engine(w);
	if (!ret)
		ret = setup_verify(w);
	if (w->job->nreplays) {
		w->replay = &w->job->replays[w->clone % w->job->nreplays];
		w->rio = w->replay->io;
		w->rio_n = w->replay->chunked ? 0 : w->replay->n;
		if (!ret && w->replay->chunked &&
		    !(w->rreader = replay_reader_open(w->job, w->replay, &w->err)))
			ret = -ENOMEM;
	}
	if (!ret && o->latency_target && !(w->lt = calloc(1, sizeof(*w->lt))))
		ret = err_nomem(&w->err, "out of memory");
	if (!ret && act_count_init(&w->act, profile_act_slices(), ACT_SLICE_S * NSEC_PER_SEC))
		ret = err_nomem(&w->err, "out of memory");
	w->lat_limits =
		w->lt || o->max_latency[0] || o->max_latency[1] || o->max_latency[2] || w->act.n;
	if (!ret && !(w->gen = gen_new(w->job, w->clone, w->number, &w->plan, &w->err)))
		ret = -EINVAL;
	if (!ret && (stats_init(&w->stats, stats_dirs(w->job), o->slat_percentiles,
				o->clat_percentiles, o->lat_percentiles) ||
		     stats_streams_init(&w->stats, w->job->nstreams)))
		ret = err_nomem(&w->err, "out of memory");
	if (!ret && prio_slots(w))
		ret = err_nomem(&w->err, "out of memory");
	if (!ret)
		debug_setup(w);
	for (unsigned i = 0; !ret && o->clat_percentiles && i < w->job->nstreams; i++)
		for (unsigned d = 0; !ret && d < DDIR_NR; d++)
			if ((w->job->streams[i].dirs & (1U << d)) &&
			    stats_stream_hist(&w->stats, i, d))
				ret = err_nomem(&w->err, "out of memory");
	w->stats.setup = w->eng.setup;
	if (!ret && snap_init(&w->snap, &w->stats))
		ret = err_nomem(&w->err, "out of memory");
	if (!ret && w->ctl->fill_exact &&
	    cfill_init(&w->cfill, &w->plan, cfill_unit(w->job), w->ctl->fill_exact))
		ret = err_nomem(&w->err, "out of memory");
	if (!ret)
		ret = wlog_open(&w->wlog, w->job, w->number, &w->err);
	w->log_io = wlog_per_io(w->wlog);
	w->m_slat = !o->disable_slat && o->stats;
	w->m_clat = !o->disable_clat && o->stats;
	w->m_lat = !o->disable_lat && o->stats;
	w->bw_avg_ns = o->bwavgtime;
	w->iops_avg_ns = o->iopsavgtime;
	/* fio: a bw or iops log averaged over a shorter log_avg_msec samples that often */
	if (o->log_avg_msec && o->write_bw_log && o->log_avg_msec * NSEC_PER_MSEC < w->bw_avg_ns)
		w->bw_avg_ns = o->log_avg_msec * NSEC_PER_MSEC;
	if (o->log_avg_msec && o->write_iops_log &&
	    o->log_avg_msec * NSEC_PER_MSEC < w->iops_avg_ns)
		w->iops_avg_ns = o->log_avg_msec * NSEC_PER_MSEC;
	if (!ret && w->job->o.write_iolog)
		ret = iolog_w_open(&w->iolog, w->job->o.name, w->job->o.write_iolog, &w->err);
	for (unsigned d = 0; !ret && d < DDIR_NR && o->clat_percentiles; d++)
		if ((o->rate[d] || o->rate_iops[d]) && !(w->stats.dir[d].sched_hist = hist_alloc()))
			ret = err_nomem(&w->err, "out of memory");
	if (!ret && o->worker_ramp) {
		bool hist = o->clat_percentiles;

		if (stats_steps_init(&w->stats, o->numjobs, hist) ||
		    (hist &&
		     (!(w->steps.hist = hist_alloc()) || !(w->steps.scratch = hist_alloc()))))
			ret = err_nomem(&w->err, "out of memory");
	}
	return ret;
}

/* end_fsync: one fsync per file, in the iolog too (so a replay syncs at the end as the run did). */
static void end_fsync(struct worker *w)
{
	for (unsigned i = 0; i < w->plan.nfiles; i++) {
		struct io_u sync = { .op = DDIR_FSYNC, .file = i };

		if (w->plan.files[i].fd < 0)
			continue;
		if (w->iolog.fd >= 0)
			iolog_add(w, &sync);
		if (fsync(w->plan.files[i].fd) && !w->stats.errors)
			worker_record_error(w, &sync, errno);
		w->last_was_sync = true;
	}
}

/*
 * fsync_on_close: as fio's close of a file, an fsync of each file of a job that writes unless
 * its last IO was a sync (end_fsync's included); not in the iolog (fio logs none either).
 */
static void close_fsync(struct worker *w)
{
	if (!job_does_dir(w->job, DDIR_WRITE) || w->last_was_sync || w->stuck)
		return;
	for (unsigned i = 0; i < w->plan.nfiles; i++) {
		struct io_u sync = { .op = DDIR_FSYNC, .file = i };

		if (w->plan.files[i].fd >= 0 && fsync(w->plan.files[i].fd) && !w->stats.errors)
			worker_record_error(w, &sync, errno);
	}
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * 1000ULL;
}

static void account_cpu(struct worker *w, const struct rusage *a, const struct rusage *b)
{
	w->stats.usr_ns = tv_ns(&b->ru_utime) - tv_ns(&a->ru_utime);
	w->stats.sys_ns = tv_ns(&b->ru_stime) - tv_ns(&a->ru_stime);
	w->stats.ctx = (uint64_t)(b->ru_nvcsw - a->ru_nvcsw + b->ru_nivcsw - a->ru_nivcsw);
	w->stats.majf = (uint64_t)(b->ru_majflt - a->ru_majflt);
	w->stats.minf = (uint64_t)(b->ru_minflt - a->ru_minflt);
}

/* wait_for: waits until every clone of the waitee has finished.  Returns when (now). */
static uint64_t wait_waitee(struct worker *w)
{
	const struct job *ee = w->job - w->job->index + (w->job->wait_for - 1);
	const unsigned *done = &w->ctl->job_done[ee->index];

	if (ee->off_rank) /* --rank-jobs: it runs on another rank, which cannot be waited for */
		return clock_ns();
	while (__atomic_load_n(done, __ATOMIC_ACQUIRE) < ee->o.numjobs && !stopping(w))
		clock_nap(10000000);
	return clock_ns();
}

/*
 * Waits for the phase to start: on a futex, so thousands of clones do not poll (their wake-ups
 * slowed the start of numjobs=1024 to seconds).  Returns when this clone's IO is due: the
 * phase's start plus its startdelay and worker_ramp, from which its runtime counts, so a clone
 * the scheduler runs late still ends with the others.
 */
static uint64_t wait_start(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t delay = o->startdelay.lo + o->worker_ramp * w->clone, until, now;

	__atomic_add_fetch(&w->ctl->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->ctl->go, __ATOMIC_ACQUIRE))
		futex_wait(&w->ctl->go, 0, 100 * NSEC_PER_MSEC);
	if (o->startdelay.hi > o->startdelay.lo)	/* per clone, reproducible */
		delay += (o->startdelay.hi - o->startdelay.lo) *
			 ((w->number * 2654435761u) % 1001) / 1000;
	until = (w->job->wait_for ? wait_waitee(w) : w->ctl->start_ns) + delay;
	while ((now = clock_ns()) < until && !stopping(w)) {
		uint64_t ns = until - now < 20000000 ? until - now : 20000000;

		clock_nap(ns);
	}
	return until;
}

/*
 * What comes after the workload: the read-back of every unit written (do_verify), or the
 * writes left in the verify_backlog.  runtime does not bound it; a signal, or an error that
 * ended the job, skips it, and so does time_based (fio: the runtime leaves no time for it).
 * Its reads count as reads, over the job's time for reads plus its own (fio's read runtime).
 * Returns 0 or -errno of the engine.
 */
static int verify_after_writes(struct worker *w, uint64_t work_ns)
{
	uint64_t submit[STATS_BUCKETS], complete[STATS_BUCKETS], t0 = clock_ns();
	int ret;

	if (stopping(w) || w->error_stop || w->job->o.time_based ||
	    !verify_finish_writes(w->verify))
		return 0;
	ret = worker_close_done(w); /* fio's writes end closing the last file */
	if (ret)
		return ret;
	memcpy(submit, w->stats.submit, sizeof(submit));
	memcpy(complete, w->stats.complete, sizeof(complete));
	w->verifying = true;
	w->no_more = false;
	w->deadline_ns = UINT64_MAX;
	w->next_sample_ns = UINT64_MAX; /* no bandwidth samples either */
	ret = worker_run_loop(w);
	w->stats.read_runtime_ns =
		(job_does_dir(w->job, DDIR_READ) ? work_ns : 0) + clock_ns() - t0;
	memcpy(w->stats.submit, submit, sizeof(submit));
	memcpy(w->stats.complete, complete, sizeof(complete));
	return ret;
}

/*
 * The error of a job whose IOs in flight saw no completion for io_timeout: the IOs, oldest
 * first as far as the message holds them.  Returns -ETIMEDOUT.
 */
static int stuck_report(struct worker *w, uint64_t now)
{
	struct engine *e = &w->eng;
	char *idle = calloc(e->depth, 1), *t = w->err.text;
	size_t room = sizeof(w->err.text), len;
	unsigned shown = 0, n = 0;
	uint64_t after = 0;

	/* In flight: every IO that is not free, waiting to be committed, requeued or blocked. */
	for (unsigned i = 0; idle && i < w->nfree; i++)
		idle[w->free_idx[i]] = 1;
	for (unsigned i = 0; idle && i < w->pending; i++)
		idle[w->pend[i]->index] = 1;
	for (unsigned i = 0; idle && i < w->nrequeue; i++)
		idle[w->requeue[(w->rq_head + i) % e->depth]->index] = 1;
	if (idle && w->blocked)
		idle[w->blocked->index] = 1;
	snprintf(t, room,
		 "job '%s': no IO completed for %.1f s (io_timeout=%.1f s); %u IOs in flight are stuck:",
		 w->job->o.name, (double)(now - w->progress_ns) / 1e9,
		 (double)w->job->o.io_timeout / 1e9, w->inflight);
	for (;;) { /* the oldest IO not yet listed, until the message is full */
		const struct io_u *old = NULL;

		for (unsigned i = 0; idle && i < e->depth; i++)
			if (!idle[i] && e->ios[i].issue_ns >= after &&
			    (!old || e->ios[i].issue_ns < old->issue_ns))
				old = &e->ios[i];
		len = strlen(t);
		if (!old || room - len < 200 || shown == w->inflight)
			break;
		idle[old->index] = 1;
		after = old->issue_ns;
		snprintf(t + len, room - len, "%s %s offset=%llu size=%u file '%s' for %.1f s",
			 shown ? ";" : "", ddir_name(old->op), (unsigned long long)old->offset,
			 old->len, w->plan.files[old->file].path,
			 (double)(now - old->issue_ns) / 1e9);
		shown++;
	}
	n = w->inflight - shown;
	if (n)
		snprintf(t + len, room - len, "; and %u more", n);
	free(idle);
	return -ETIMEDOUT;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job_opts *o = &w->job->o;
	struct rusage ru0, ru1;
	struct iowl_err log_err = { "" };
	uint64_t now, work_end, due;
	int log_ret = 0;
	unsigned bad;

	/* placement first, so the buffers come from the job's NUMA policy, as fio; then the IDs */
	dprint(DBG_PROCESS, "job '%s' clone %u: thread %u started", o->name, w->clone,
	       w->number + 1);
	if (o->cgroup) /* first: the threads the worker starts are in its group too */
		w->status = cgroup_join(o->cgroup, o->cgroup_nodelete, o->name, &w->err);
	if (!w->status)
		w->status = place_apply(&o->place, w->number, o->name, &w->err);
	if (!w->status &&
	    (job_opt_is_set(w->job, OPT_ID_uid) || job_opt_is_set(w->job, OPT_ID_gid)))
		w->status = jobctl_set_ids(job_opt_is_set(w->job, OPT_ID_uid) ? (long)o->uid : -1,
					   job_opt_is_set(w->job, OPT_ID_gid) ? (long)o->gid : -1,
					   o->name, &w->err);
	if (!w->status)
		w->status = worker_setup(w);
	__atomic_store_n(&w->state, WORKER_READY, __ATOMIC_RELEASE); /* read by the run */
	due = wait_start(w);
	if (!w->status && o->exec_prerun && !stopping(w) && !o->create_only) {
		w->status = jobctl_exec(o->exec_prerun, o->name, "prerun", &w->err);
		/* the runtime starts after it, as fio's */
		due = clock_ns() > due ? clock_ns() : due;
	}
	if (w->status || stopping(w) || o->create_only) /* create_only: the layout was all */
		goto out;
	getrusage(RUSAGE_THREAD, &ru0);
	now = clock_ns();
	w->start_ns = now;
	act_count_start(&w->act, now);
	worker_samples_restart(w, now);
	if (o->ramp_time) {
		w->ramp_end_ns = now + o->ramp_time;
		w->next_sample_ns =
			w->ramp_end_ns < w->next_sample_ns ? w->ramp_end_ns : w->next_sample_ns;
		__atomic_store_n(&w->state, WORKER_RAMP, __ATOMIC_RELEASE); /* read by the run */
	} else {
		__atomic_store_n(&w->state, WORKER_RUNNING, __ATOMIC_RELEASE); /* read by the run */
		worker_start_logs(w, now);
	}
	if (o->runtime)
		w->deadline_ns = due + o->ramp_time + o->runtime;
	if (w->stats.steps)
		worker_steps_start(w, now);
	worker_rate_start(w, now);
	worker_think_start(w, now);
	if (w->lt) { /* latency_target: the search starts at depth 1 */
		lt_init(w->lt, o, w->eng.depth, now, 0);
		w->qd = w->lt->qd;
	}
	w->status = worker_run_loop(w);
	worker_flow_leave(w);
	if (w->stuck)
		w->status = stuck_report(w, clock_ns());
	if (!w->status)
		w->status = w->pass_err;
	if (o->end_fsync && !stopping(w))
		end_fsync(w);
	if (o->fsync_on_close)
		close_fsync(w);
	work_end = clock_ns();
	if (w->stats.steps && w->steps.cur < w->stats.nsteps)
		worker_step_close(w, work_end);
	getrusage(RUSAGE_THREAD, &ru1);
	if (!w->status && w->verify)
		w->status = verify_after_writes(w, work_end - w->start_ns);
	if (w->verify && (bad = verify_drain(w->verify))) /* verify_async's last checks */
		worker_record_verify(w, bad);
	save_verify_state(w);
	if (w->wlog && !w->ramp_end_ns)
		log_ret = wlog_close(w->wlog, &w->stats, work_end, &log_err);
	if (w->status && !w->pass_err && !w->stuck)
		err_set(&w->err, "job '%s': ioengine %s: %s", o->name, o->ioengine,
			strerror(-w->status));
	else if (log_ret) { /* a log that could not be written is a failed run */
		w->status = -EIO;
		w->err = log_err;
	} else if (w->rate.short_dir)
		w->status = worker_rate_report(w);
	w->end_ns = clock_ns();
	if (w->ramp_end_ns) /* ended inside ramp_time: nothing was measured */
		stats_reset(&w->stats);
	w->stats.runtime_ns = w->ramp_end_ns ? 0 : work_end - w->start_ns;
	account_cpu(w, &ru0, &ru1);
	if (w->cfill.base)
		cfill_publish(&w->cfill, &w->stats.cfill);
	worker_close_files(w);
	/* an incomplete log is a failed run, as for the logs */
	if (o->write_iolog && iolog_w_close(&w->iolog, o->name, o->write_iolog, &w->err) &&
	    !w->status)
		w->status = -EIO;
	if (w->verify) /* its figures: verify_publish() as the run gathers them */
		verify_print(w->verify, w->job->o.name);
	if (o->exec_postrun) {
		struct iowl_err post = { "" };
		int ret = jobctl_exec(o->exec_postrun, o->name, "postrun", &post);

		if (ret && !w->status) {
			w->status = ret;
			w->err = post;
		}
	}
out:
	if (w->act.n) /* its hours into the run's ACT table, as fio's act at a thread's exit */
		act_table_add(&w->act);
	worker_flow_leave(w);
	/*
	 * io_uring rings made with SINGLE_ISSUER can only be waited on by the thread that made
	 * them.  Stuck IOs keep their engine and buffers: the kernel may still complete them.
	 */
	if (w->eng.ops && w->eng.ops->cleanup && !w->stuck)
		w->eng.ops->cleanup(&w->eng);
	if (o->cgroup)
		cgroup_leave();
	if (w->ctl->job_done)
		__atomic_add_fetch(&w->ctl->job_done[w->job->index], 1, __ATOMIC_RELEASE);
	dprint(DBG_PROCESS, "job '%s' clone %u: thread %u ends, status %d%s%s", o->name, w->clone,
	       w->number + 1, w->status, w->status ? ": " : "", w->status ? w->err.text : "");
	__atomic_store_n(&w->state, WORKER_DONE, __ATOMIC_RELEASE);
	/* The run waits on this (phase_wait()): the last worker's end ends its wait at once. */
	__atomic_add_fetch(&w->ctl->done, 1, __ATOMIC_RELEASE);
	futex_wake(&w->ctl->done, 1);
	return NULL;
}

void worker_free(struct worker *w)
{
	static struct worker *left;	/* workers with stuck IOs, kept whole and reachable */

	if (!w)
		return;
	if (w->stuck) {	/* the kernel may still write into its buffers: the worker stays */
		w->left_next = left;
		left = w;
		return;
	}
	if (w->eng.ops && w->eng.ops->cleanup)
		w->eng.ops->cleanup(&w->eng);
	gen_free(w->gen);
	replay_reader_close(w->rreader);
	verify_free(w->verify);
	stats_release(&w->stats);
	cfill_release(&w->cfill);
	snap_release(&w->snap);
	wlog_free(w->wlog);
	target_plan_release(&w->plan);
	if (w->iolog.fd >= 0)
		close(w->iolog.fd);
	free(w->iolog.buf);
	free(w->eng.ios);
	iomem_release(&w->mem);
	free(w->free_idx);
	free(w->flocks);
	free(w->pend);
	free(w->requeue);
	free(w->sfr_lo);
	free(w->sfr_hi);
	hist_free(w->steps.hist);
	hist_free(w->steps.scratch);
	free(w->cmdprio);
	free(w->lt);
	act_count_free(&w->act);
	free(w);
}

bool worker_seize(struct worker *w, uint64_t now, uint64_t min_age)
{
	uint64_t since = __atomic_load_n(&w->sys_ns, __ATOMIC_RELAXED);

	if (w->seized)
		return true;
	if (!since || since == WORKER_SEIZED || now < since)
		return false;
	/* A wait for completions gets the time stalled() needs to see io_timeout pass itself. */
	if (now - since <
	    min_age + (min_age && (since & SYS_WAIT) ? REAP_SLICE_NS + 1000000000ULL : 0))
		return false;
	/* Pairs with sys_enter(): every figure the worker wrote before the call is seen. */
	if (!__atomic_compare_exchange_n(&w->sys_ns, &since, WORKER_SEIZED, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	w->seized = true;
	w->seized_since = since;
	w->end_ns = now;
	if (w->ramp_end_ns)	/* inside ramp_time: nothing was measured */
		stats_reset(&w->stats);
	w->stats.runtime_ns = w->ramp_end_ns || !w->start_ns ? 0 : now - w->start_ns;
	if (w->cfill.base)
		cfill_publish(&w->cfill, &w->stats.cfill);
	__atomic_store_n(&w->state, WORKER_DONE, __ATOMIC_RELEASE);
	return true;
}

bool worker_watchdog(struct worker *w, uint64_t now)
{
	uint64_t limit = w->job->o.io_timeout;
	const struct io_u *io;

	if (!limit || w->seized || __atomic_load_n(&w->state, __ATOMIC_ACQUIRE) == WORKER_DONE ||
	    !worker_seize(w, now, limit))
		return false;
	io = w->sys_io;
	if (io)
		err_set(&w->err,
			"job '%s': a %s at offset=%llu size=%u on file '%s' has not returned for %.1f s (io_timeout=%.1f s); the job is left behind",
			w->job->o.name, ddir_name(io->op), (unsigned long long)io->offset, io->len,
			w->plan.files[io->file].path, (double)(now - w->seized_since) / 1e9,
			(double)limit / 1e9);
	else
		err_set(&w->err,
			"job '%s': ioengine %s has not returned from a system call for %.1f s with %u IOs in flight (io_timeout=%.1f s); the job is left behind",
			w->job->o.name, w->job->o.ioengine, (double)(now - w->seized_since) / 1e9,
			w->inflight + w->pending, (double)limit / 1e9);
	w->status = -ETIMEDOUT;
	w->error_stop = true;
	return true;
}
