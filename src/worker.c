// SPDX-License-Identifier: MIT
/* The per-IO loop of one worker thread: generate, queue, commit, reap, account; nothing here allocates, locks or prints. */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "iowl/hist.h"
#include "iowl/clock.h"
#include "iowl/gen.h"
#include "iowl/pattern/rng.h"
#include "iowl/verify.h"
#include "iowl/wlog.h"
#include "iowl/worker.h"
#include "iowl/place.h"
#include "iowl/jobctl.h"
#include "iowl/lattarget.h"
#include "report/fmt.h"

#define SAMPLE_NS 500000000ULL		/* how often a ramp_time's end is looked for */
#define IO_RETRY 1U			/* io_u flag: resubmission of a short or EAGAIN IO */
#define IO_QUEUED 2U			/* io_u flag: went through the queue (it has a slat) */
#define RATE_SETTLE_NS 2000000000ULL	/* fio's settling time before rate_min is checked */
#define RATE_POLL_NS 1000000ULL		/* rate_min: how often a direction without IO yet is looked at */
#define THINK_NAP_NS 100000000ULL	/* longest single sleep of a thinktime stall */
#define REAP_SLICE_NS 250000000ULL	/* longest wait for a completion between looks at a stop and io_timeout */
#define RATE_SPIN_NS 100000ULL		/* the end of a rate wait without IO in flight is spun: a sleep wakes late */

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
	w->next_step_ns = UINT64_MAX;
	w->think_io_at = UINT64_MAX;
	w->ratecheck_ns = UINT64_MAX;
	w->wlog_next = UINT64_MAX;
	return w;
}

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
#define SYS_WAIT 2ULL	/* sys_ns: a wait for completions, which stalled() times itself */

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

static uint64_t max_bs(const struct job *job)
{
	uint64_t m = 0;

	for (unsigned d = 0; d < 3; d++)
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
	return w->verify ? 0 : -EINVAL;
}

/*
 * The directions a worker records: those it issues, and reads whenever it writes or trims (verify
 * and trim_verify_zero read back what it wrote).
 */
static unsigned stats_dirs(const struct job *job)
{
	unsigned dirs = job->dirs;

	return dirs & ((1U << IO_OP_WRITE) | (1U << IO_OP_TRIM)) ? dirs | 1U << IO_OP_READ : dirs;
}

static int worker_setup(struct worker *w)
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
	if (w->job->nreplays)
		w->replay = &w->job->replays[w->clone % w->job->nreplays];
	if (!ret && o->latency_target && !(w->lt = calloc(1, sizeof(*w->lt))))
		ret = err_nomem(&w->err, "out of memory");
	w->lat_limits = w->lt || o->max_latency[0] || o->max_latency[1] || o->max_latency[2];
	if (!ret && !(w->gen = gen_new(w->job, w->clone, w->number, &w->plan, &w->err)))
		ret = -EINVAL;
	if (!ret && (stats_init(&w->stats, stats_dirs(w->job), o->slat_percentiles,
				o->clat_percentiles, o->lat_percentiles) ||
		     stats_streams_init(&w->stats, w->job->nstreams)))
		ret = err_nomem(&w->err, "out of memory");
	for (unsigned i = 0; !ret && o->clat_percentiles && i < w->job->nstreams; i++)
		for (unsigned d = 0; !ret && d < 3; d++)
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
	for (unsigned d = 0; !ret && d < 3 && o->clat_percentiles; d++)
		if ((o->rate[d] || o->rate_iops[d]) && !(w->stats.dir[d].sched_hist = hist_alloc()))
			ret = err_nomem(&w->err, "out of memory");
	if (!ret && o->worker_ramp) {
		bool hist = o->clat_percentiles;

		if (stats_steps_init(&w->stats, o->numjobs, hist) ||
		    (hist && (!(w->step_hist = hist_alloc()) || !(w->step_scratch = hist_alloc()))))
			ret = err_nomem(&w->err, "out of memory");
	}
	return ret;
}

/* Records one issued IO in the job's write_iolog. */
static void iolog_add(struct worker *w, const struct io_u *io)
{
	iolog_w_add(&w->iolog, w->plan.files[io->file].path, io->op, io->offset, io->len);
}

static void put_io(struct worker *w, struct io_u *io)
{
	w->free_idx[w->nfree++] = io->index;
}

/*
 * The requeue FIFO: IOs to issue again before any new one, in the order they came back.  Each
 * of the depth IOs is in it at most once, so depth slots always suffice.  An IO the engine
 * refused goes to the front (it was next), one that came back short or with EAGAIN to the back.
 */
static void requeue_push(struct worker *w, struct io_u *io, bool front)
{
	unsigned depth = w->eng.depth;

	io->flags |= IO_RETRY;
	if (front) {
		w->rq_head = w->rq_head ? w->rq_head - 1 : depth - 1;
		w->requeue[w->rq_head] = io;
	} else {
		unsigned tail = w->rq_head + w->nrequeue;

		w->requeue[tail >= depth ? tail - depth : tail] = io;
	}
	w->nrequeue++;
}

static struct io_u *requeue_pop(struct worker *w)
{
	struct io_u *io = w->requeue[w->rq_head];

	if (++w->rq_head == w->eng.depth)
		w->rq_head = 0;
	w->nrequeue--;
	return io;
}

static void record_error(struct worker *w, const struct io_u *io, int err)
{
	/* fill_device: a full file system is where the job ends, as in fio. */
	if (w->job->o.fill_device && io->op == IO_OP_WRITE && (err == ENOSPC || err == EDQUOT)) {
		w->no_more = true;
		return;
	}
	w->stats.errors++;
	if (io->op < 3)
		w->stats.dir[io->op].errors++;
	if (!w->stats.first_error.err) {
		struct io_error *e = &w->stats.first_error;

		*e = (struct io_error){ .err = err, .offset = io->offset, .len = io->len,
					.op = io->op };
		snprintf(e->path, sizeof(e->path), "%s", w->plan.files[io->file].path);
	}
	/* As fio: the first error ends the job unless continue_on_error and ignore_error let it by. */
	if (!job_error_ignored(&w->job->o, err == EILSEQ ? 2 : io->op == IO_OP_READ ? 0 : 1, err))
		w->no_more = w->error_stop = true;
	else if (w->job->o.error_dump) /* the one that ends the job is reported at the end */
		iowl_warn("job '%s': io error on file %s: %s: %s offset=%llu, length=%u",
			  w->job->o.name, w->plan.files[io->file].path, strerror(err),
			  fmt_op_name(io->op), (unsigned long long)io->offset, (unsigned)io->len);
}

/* Counts bad units of a verified read as errors; the first is the error reported (EILSEQ, as fio). */
static void record_verify(struct worker *w, unsigned bad)
{
	const struct verify_failure *f = verify_failure_at(w->verify, 0);

	w->stats.errors += bad;
	w->stats.dir[IO_OP_READ].errors += bad;
	if (!w->stats.first_error.err && f) {
		struct io_error *e = &w->stats.first_error;

		*e = (struct io_error){ .err = EILSEQ, .offset = f->offset, .len = f->len,
					.op = IO_OP_READ };
		snprintf(e->path, sizeof(e->path), "%s", w->plan.files[f->file].path);
	}
	if (!job_error_ignored(&w->job->o, 2, EILSEQ) || w->job->o.verify_fatal)
		w->no_more = w->error_stop = true;
}

/* A read or write is over (ok: transferred in full): verification records or checks it. */
static void end_verify(struct worker *w, const struct io_u *io, bool ok)
{
	unsigned bad;

	if (!w->verify || io->op > IO_OP_WRITE)
		return;
	bad = verify_complete(w->verify, io, ok);
	if (bad)
		record_verify(w, bad);
}

/* Gives a resubmitted IO back its original offset, buffer and length. */
static void restore_shape(struct io_u *io)
{
	if (!(io->flags & IO_RETRY))
		return;
	io->offset -= io->seq;
	io->buf = (char *)io->buf - io->seq;
	io->len += io->seq;
}

/* The bw and iops windows start at now (the measured part's start). */
static void samples_restart(struct worker *w, uint64_t now)
{
	memset(w->sample_ios, 0, sizeof(w->sample_ios));
	memset(w->sample_bytes, 0, sizeof(w->sample_bytes));
	w->sample_start_ns = w->iops_start_ns = now;
	w->next_bw_ns = now + w->bw_avg_ns;
	w->next_iops_ns = now + w->iops_avg_ns;
	w->next_sample_ns = w->next_bw_ns < w->next_iops_ns ? w->next_bw_ns : w->next_iops_ns;
}

/* Closes the bw window (bwavgtime) and the iops window (iopsavgtime) that ended by now. */
static void take_sample(struct worker *w, uint64_t now)
{
	bool bw = now >= w->next_bw_ns, io = now >= w->next_iops_ns;
	uint64_t dbw = now - w->sample_start_ns, dio = now - w->iops_start_ns;

	for (unsigned d = 0; d < 3; d++) {
		struct dir_stats *ds = &w->stats.dir[d];
		bool does = job_does_dir(w->job, d);

		if (io && does && dio)
			lat_add(&ds->iops_samples,
				(uint64_t)((unsigned __int128)(ds->ios - w->sample_ios[d]) *
					   NSEC_PER_SEC / dio));
		if (bw && does && dbw)
			lat_add(&ds->bw_samples,
				(uint64_t)((unsigned __int128)(ds->bytes - w->sample_bytes[d]) *
					   NSEC_PER_SEC / dbw / 1024));
		if (io)
			w->sample_ios[d] = ds->ios;
		if (bw)
			w->sample_bytes[d] = ds->bytes;
	}
	if (bw) {
		w->sample_start_ns = now;
		w->next_bw_ns = now + w->bw_avg_ns;
	}
	if (io) {
		w->iops_start_ns = now;
		w->next_iops_ns = now + w->iops_avg_ns;
	}
	w->next_sample_ns = w->next_bw_ns < w->next_iops_ns ? w->next_bw_ns : w->next_iops_ns;
}

/* The fio logs start when the measured part does. */
static void start_logs(struct worker *w, uint64_t now)
{
	if (!w->wlog)
		return;
	wlog_start(w->wlog, &w->stats, now);
	w->wlog_next = wlog_next(w->wlog);
}

static void end_ramp(struct worker *w, uint64_t now)
{
	stats_reset(&w->stats);
	start_logs(w, now);
	w->ramp_end_ns = 0;
	w->start_ns = now;
	__atomic_store_n(&w->state, WORKER_RUNNING, __ATOMIC_RELEASE);	/* read by the run */
	samples_restart(w, now);
}

/* The worker's cumulative completion figures over every direction. */
static void step_totals(const struct worker *w, uint64_t *ios, uint64_t *bytes,
			struct lat_stat *lat, struct hist *h)
{
	*ios = *bytes = 0;
	lat_init(lat);
	if (h)
		memset(h, 0, sizeof(*h));
	for (unsigned d = 0; d < 3; d++) {
		*ios += w->stats.dir[d].ios;
		*bytes += w->stats.dir[d].bytes;
		lat_merge(lat, &w->stats.dir[d].clat);
		if (h && w->stats.dir[d].clat_hist)
			hist_merge(h, w->stats.dir[d].clat_hist);
	}
}

/* Closes the current step of a worker ramp: its share is the change since the step began. */
static void step_close(struct worker *w, uint64_t now)
{
	struct step_stats *s = &w->stats.steps[w->step];
	struct lat_stat lat;
	uint64_t ios, bytes;

	step_totals(w, &ios, &bytes, &lat, w->step_scratch);
	s->ios = ios - w->step_ios;
	s->bytes = bytes - w->step_bytes;
	lat_sub(&s->clat, &lat, &w->step_lat);
	if (s->clat_hist && w->step_scratch)
		hist_sub(s->clat_hist, w->step_scratch, w->step_hist);
	s->workers = 1;
	s->ns = now - w->step_start_ns;
	w->step_ios = ios;
	w->step_bytes = bytes;
	w->step_lat = lat;
	if (w->step_hist && w->step_scratch)
		hist_copy(w->step_hist, w->step_scratch);
	w->step_start_ns = now;
	if (++w->step + 1 >= w->stats.nsteps)
		w->next_step_ns = UINT64_MAX;
	else
		w->next_step_ns += w->job->o.worker_ramp;
}

/*
 * A ramping clone joins at step number clone (it started worker_ramp x clone after the first);
 * all clones stop together, runtime after the first started.
 */
static void start_steps(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	uint64_t first = w->ctl->start_ns;

	w->step = w->clone;
	w->step_start_ns = now;
	w->next_step_ns = w->clone + 1 < w->stats.nsteps ?
				  first + o->worker_ramp * (w->clone + 1) : UINT64_MAX;
	if (o->runtime)
		w->deadline_ns = first + o->startdelay.lo + o->runtime;
	if (w->next_step_ns < w->next_sample_ns)
		w->next_sample_ns = w->next_step_ns;
}

/* True when direction d fell short of its minimum over the dt ns just ended: the job ends. */
static bool rate_short(struct worker *w, unsigned d, uint64_t dt)
{
	const struct job_opts *o = &w->job->o;
	const struct dir_stats *ds = &w->stats.dir[d];
	uint64_t done = o->rate_min[d] ? ds->bytes - w->cycle_bytes[d] : ds->ios - w->cycle_ios[d];
	uint64_t got = (uint64_t)((unsigned __int128)done * NSEC_PER_SEC / dt);

	if (got >= (o->rate_min[d] ? o->rate_min[d] : o->rate_iops_min[d]))
		return false;
	w->rate_short = d + 1;
	w->rate_short_got = got;
	w->rate_short_ns = dt;
	w->no_more = w->error_stop = true;
	w->ratecheck_ns = UINT64_MAX;
	w->wlog_next = UINT64_MAX;
	return true;
}

/*
 * rate_min / rate_iops_min as fio checks them: nothing in ramp_time or the first RATE_SETTLE_NS
 * after it; then each direction that has done IO is measured over every rate_cycle, and the
 * first that falls short of its minimum ends the job with an error.
 */
static void rate_min_check(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	uint64_t next = UINT64_MAX;

	if (w->verifying) {
		w->ratecheck_ns = UINT64_MAX;
		return;
	}
	if (w->ramp_end_ns || now - w->start_ns < RATE_SETTLE_NS) {
		w->ratecheck_ns = (w->ramp_end_ns ? w->ramp_end_ns : w->start_ns) + RATE_SETTLE_NS;
		return;
	}
	for (unsigned d = 0; d < 3; d++) {
		const struct dir_stats *ds = &w->stats.dir[d];
		uint64_t dt = now - w->cycle_ns[d];

		if (!o->rate_min[d] && !o->rate_iops_min[d])
			continue;
		if (!ds->ios) {		/* measured from its first IO on */
			next = now + RATE_POLL_NS < next ? now + RATE_POLL_NS : next;
			continue;
		}
		if (w->cycle_ns[d] && dt < o->rate_cycle) {
			next = w->cycle_ns[d] + o->rate_cycle < next ? w->cycle_ns[d] + o->rate_cycle : next;
			continue;
		}
		if (w->cycle_ns[d] && rate_short(w, d, dt))
			return;
		w->cycle_ns[d] = now;
		w->cycle_ios[d] = ds->ios;
		w->cycle_bytes[d] = ds->bytes;
		next = now + o->rate_cycle < next ? now + o->rate_cycle : next;
	}
	w->ratecheck_ns = next;
}

/* Time-driven events, checked once per completion batch: ramp end, samples, steps, the deadline. */
static void tick(struct worker *w, uint64_t now)
{
	answer_snap(w);
	if (now >= w->wlog_next) {
		wlog_tick(w->wlog, &w->stats, now);
		w->wlog_next = wlog_next(w->wlog);
	}
	if (now >= w->ratecheck_ns)
		rate_min_check(w, now);
	if (now < w->next_sample_ns)
		return;
	if (now >= w->next_step_ns)
		step_close(w, now);
	if (w->ramp_end_ns && now >= w->ramp_end_ns)
		end_ramp(w, now);
	else if (!w->ramp_end_ns)
		take_sample(w, now);
	else
		w->next_sample_ns = now + SAMPLE_NS;
	if (w->ramp_end_ns && w->ramp_end_ns < w->next_sample_ns)
		w->next_sample_ns = w->ramp_end_ns;
	if (w->next_step_ns < w->next_sample_ns)
		w->next_sample_ns = w->next_step_ns;
	if (now >= w->deadline_ns)
		w->no_more = true;
}

/*
 * The zero-read share's first look: a buffer whose first, middle and last words are zero may be
 * all zeros (almost every other buffer is told apart here, at the cost of three loads).
 */
static bool maybe_zero(const void *buf, uint32_t len)
{
	const unsigned char *p = buf;
	uint64_t a = 0, b = 0, c = 0;

	if (len < 8)
		return false;
	memcpy(&a, p, 8);
	memcpy(&b, p + len - 8, 8);
	memcpy(&c, p + (len / 2 & ~7U), 8);
	return !(a | b | c);
}

/* True when a read brought back only zeros: the whole buffer scanned. */
static bool all_zero(const void *buf, uint32_t len)
{
	const unsigned char *p = buf;
	uint64_t a;

	for (uint32_t i = 0; i + 8 <= len; i += 8) {
		memcpy(&a, p + i, 8);
		if (a)
			return false;
	}
	return true;
}

/*
 * Counts a read for the zero-read share (stats_zero_share()).  Scanning a buffer of zeros whole
 * costs 0.3 us a 4 KiB read, a fifth of iowl's CPU per IO on a device of zeros, so after the
 * first 1024 reads only one candidate in 64, drawn at random (not every 64th, which a stride of
 * zeros lines up with), is scanned and weighs 64: the share stays unbiased when it changes
 * during the run, and its error is that of the few candidates that are not all zeros.
 */
static inline void count_zero(struct dir_stats *ds, const struct io_u *io)
{
	uint32_t len = (uint32_t)io->res;

	ds->zero_checked++;
	if (!maybe_zero(io->buf, len))
		return;
	ds->zero_cand++;
	if (ds->zero_checked <= 1024) {
		ds->zero_scanned++;
		ds->zero_reads += all_zero(io->buf, len);
	} else if (!(rng_mix64(io->offset ^ ds->zero_checked * 0x9e3779b97f4a7c15ULL) & 63)) {
		ds->zero_scanned += 64;
		ds->zero_reads += all_zero(io->buf, len) ? 64 : 0;
	}
}

/*
 * Accounts a finished IO.  A short transfer is resubmitted for the rest (fio completes short
 * IOs the same way); EINTR and EAGAIN are resubmitted as they are, but for nowait=1, where
 * EAGAIN is the answer asked for and an error, as in fio.
 */
/*
 * latency_target's change of depth waits for the IOs in flight (fio's quiesce).  Returns true
 * while it waits; once the queue is empty, the depth found starts its final window with new
 * statistics, as fio's reset_all_stats().
 */
static bool lt_quiesced(struct worker *w)
{
	uint64_t now;

	if (w->inflight)
		return true;
	w->lt_drain = false;
	if (w->lt_final) {
		w->lt_final = false;
		now = clock_ns();
		stats_reset(&w->stats);
		w->start_ns = now;
		memset(w->sample_ios, 0, sizeof(w->sample_ios));
		memset(w->sample_bytes, 0, sizeof(w->sample_bytes));
		w->sample_start_ns = now;
		w->next_sample_ns = now + SAMPLE_NS;
		w->lt->window_start = now;
		w->lt->window_ios = w->done_ios;
	}
	return false;
}

/* The latency of a completed IO against max_latency and latency_target (fio's checks). */
static void lat_limits(struct worker *w, const struct io_u *io, uint64_t lat, uint64_t now)
{
	uint64_t max = w->job->o.max_latency[io->op];
	enum lt_action a = LT_NONE;

	if (max && lat > max) {
		if (!w->error_stop)
			iowl_warn("job '%s': latency of %llu us exceeds max_latency (%llu us)",
				  w->job->o.name, (unsigned long long)(lat / 1000),
				  (unsigned long long)(max / 1000));
		record_error(w, io, ETIMEDOUT);
	}
	if (!w->lt)
		return;
	a = lt_io(w->lt, lat, now, w->done_ios);
	if (a == LT_NONE)
		a = lt_check(w->lt, now, w->done_ios);
	w->qd = w->lt->qd;
	if (a == LT_FATAL) {
		if (!w->error_stop)
			iowl_warn("job '%s': latency of %llu us at depth 1 exceeds latency_target (%llu us)",
				  w->job->o.name, (unsigned long long)(lat / 1000),
				  (unsigned long long)(w->lt->target_ns / 1000));
		record_error(w, io, ETIMEDOUT);
	} else if (a == LT_QUIESCE) {
		w->lt_drain = true;
	} else if (a == LT_FINAL) {
		w->lt_final = true;
	} else if (a == LT_DONE) {
		w->no_more = true;
	}
	w->stats.latency_depth = w->qd;
}

static void complete_io(struct worker *w, struct io_u *io, uint64_t now)
{
	struct dir_stats *ds;
	bool again = io->res == -EINTR || (io->res == -EAGAIN && !w->eng.params.nowait);

	if (io->res <= 0 && io->op < IO_OP_FSYNC && io->len && !again) {
		/* The failing part is reported (after a short transfer, the rest). */
		record_error(w, io, io->res < 0 ? -io->res : EIO);
		restore_shape(io);
		end_verify(w, io, false);
		put_io(w, io);
		return;
	}
	if (io->res < 0 || (io->op < IO_OP_FSYNC && (uint32_t)io->res < io->len)) {
		if (again || io->res > 0) {
			if (io->res > 0) {
				w->stats.dir[io->op].short_ios += !(io->flags & IO_RETRY);
				io->seq += (uint32_t)io->res;
				io->offset += (uint32_t)io->res;
				io->buf = (char *)io->buf + io->res;
				io->len -= (uint32_t)io->res;
			}
			requeue_push(w, io, false);
			return;
		}
		record_error(w, io, io->res < 0 ? -io->res : EIO);
		restore_shape(io);
		end_verify(w, io, false);
		put_io(w, io);
		return;
	}
	if (io->op >= IO_OP_FSYNC) {
		if (w->m_clat)
			lat_add(&w->stats.sync_lat, now - io->start_ns);
		put_io(w, io);
		return;
	}
	if (io->flags & IO_RETRY) {
		io->res += (int32_t)io->seq;
		restore_shape(io);
	}
	/* The read-back after the workload counts as reads, as in fio (timed apart: read_runtime_ns). */
	ds = &w->stats.dir[io->op];
	/* Read by the run's status line as they go: single-writer atomics, plain moves on x86. */
	__atomic_store_n(&ds->ios, ds->ios + 1, __ATOMIC_RELAXED);
	w->done_ios++;
	__atomic_store_n(&ds->bytes, ds->bytes + (uint32_t)io->res, __ATOMIC_RELAXED);
	if (w->cfill.base)
		cfill_add(&w->cfill, io->file, io->offset);
	if (io->op == IO_OP_READ && w->moves_data && !w->verifying)
		count_zero(ds, io);
	if (w->stats.streams && !w->verifying) {
		struct stream_stats *ss = &w->stats.streams[io->stream];

		ss->ios[io->op]++;
		ss->bytes[io->op] += (uint32_t)io->res;
		if (w->m_clat) {
			lat_add(&ss->clat[io->op], now - io->issue_ns);
			if (ss->clat_hist[io->op])
				hist_add(ss->clat_hist[io->op], now - io->issue_ns);
		}
	}
	if (w->log_io && !w->ramp_end_ns && !w->verifying)
		wlog_io(w->wlog, io, io->flags & IO_QUEUED, now);
	/* disable_slat, disable_clat and disable_lat: predictable branches, nothing recorded */
	if ((io->flags & IO_QUEUED) && w->m_slat) {
		lat_add(&ds->slat, io->issue_ns - io->start_ns);
		if (ds->slat_hist)
			hist_add(ds->slat_hist, io->issue_ns - io->start_ns);
	}
	if (w->m_clat) {
		lat_add(&ds->clat, now - io->issue_ns);
		if (ds->clat_hist)
			hist_add(ds->clat_hist, now - io->issue_ns);
	}
	if (w->m_lat) {
		if (io->sched_ns) {
			lat_add(&ds->sched, now - io->sched_ns);
			if (ds->sched_hist)
				hist_add(ds->sched_hist, now - io->sched_ns);
		}
		lat_add(&ds->lat, now - io->start_ns);
		if (ds->lat_hist)
			hist_add(ds->lat_hist, now - io->start_ns);
	}
	if (w->lat_limits && !w->verifying)
		lat_limits(w, io, now - io->start_ns, now);
	end_verify(w, io, true);
	put_io(w, io);
}

static int commit(struct worker *w)
{
	uint64_t now;
	int ret;

	if (!w->pending)
		return 0;
	if (w->eng.ops->flags & ENGINE_F_NODATA) {
		ret = w->eng.ops->commit(&w->eng);
	} else {
		uint64_t since = sys_enter(w, NULL, w->pend[w->pending - 1]->issue_ns, 0);

		ret = w->eng.ops->commit(&w->eng);
		sys_leave(w, since);
	}
	if (ret)
		return ret;
	/* One clock read stamps the whole batch: slat ends when the kernel has them. */
	now = clock_ns();
	w->last_ns = now;
	w->committed = true;
	if (!w->inflight)	/* io_timeout counts from here when nothing was in flight */
		w->progress_ns = now;
	for (unsigned i = 0; i < w->pending; i++)
		w->pend[i]->issue_ns = now;
	w->stats.submit[batch_bucket(w->pending)]++;
	w->inflight += w->pending;
	w->pending = 0;
	return 0;
}

/*
 * A wait for completions ended with none.  Once none came for io_timeout, the IOs in flight
 * are stuck: the job ends with -ETIMEDOUT and leaves them (stuck_report() names them).
 */
static int stalled(struct worker *w)
{
	uint64_t limit = w->job->o.io_timeout;

	if (!limit || !w->inflight || clock_ns() - w->progress_ns < limit)
		return 0;
	w->stuck = w->no_more = w->error_stop = true;
	return -ETIMEDOUT;
}

/*
 * Reaps at least min completions (fewer when wait_ns passes first, none when a wait of
 * REAP_SLICE_NS brings none: the caller looks at a stop and comes back).  Returns 0 or -errno.
 */
static int reap_wait(struct worker *w, unsigned min, uint64_t wait_ns)
{
	const struct engine_params *p = &w->eng.params;
	unsigned max = p->batch_complete_max ? p->batch_complete_max : w->inflight;
	uint64_t now;
	int n;

	if (max > w->inflight)
		max = w->inflight;
	if (min > max)
		min = max;
	if (wait_ns > REAP_SLICE_NS)
		wait_ns = REAP_SLICE_NS;
	if (w->eng.ops->flags & ENGINE_F_INSTANT) {	/* never waits (null, vsync) */
		n = w->eng.ops->getevents(&w->eng, min, max, wait_ns);
	} else {
		uint64_t since = sys_enter(w, NULL, w->progress_ns, SYS_WAIT);

		n = w->eng.ops->getevents(&w->eng, min, max, wait_ns);
		sys_leave(w, since);
	}
	if (!n && min)
		return stalled(w);
	if (n <= 0)
		return n == -EINTR ? 0 : n;
	/*
	 * An engine that completes at commit (null) had its IOs done when the last commit read
	 * the clock, a getevents() call ago: reading it again cost a fifth of a null IO.
	 */
	if (w->committed && (w->eng.ops->flags & ENGINE_F_INSTANT))
		now = w->last_ns;
	else
		now = clock_ns();
	w->committed = false;
	w->last_ns = now;
	w->progress_ns = now;
	w->stats.complete[batch_bucket((unsigned)n)]++;
	w->inflight -= (unsigned)n;
	for (int i = 0; i < n; i++)
		complete_io(w, w->eng.ops->event(&w->eng, (unsigned)i), now);
	tick(w, now);
	return 0;
}

static int reap(struct worker *w, unsigned min)
{
	return reap_wait(w, min, REAP_SLICE_NS);
}

/*
 * A new pass over the files: with randrepeat (or a randseed) it repeats the first, as fio
 * re-seeds; a time_based job's passes go on drawing (as fio's do).
 */
static void new_pass(struct worker *w)
{
	const struct job *job = w->job;

	if (!job->o.time_based && (job->o.randrepeat || job_opt_is_set(job, "randseed")))
		gen_rewind(w->gen);
	else
		gen_restart(w->gen);
}

/* Decides whether the workload has more IO (loops, io_size, number_ios); once it says no, it stays no. */
static bool more_io(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t per_loop = o->io_size ? o->io_size : w->plan.total;
	/*
	 * A loop ends after its bytes (io_size, else the region) or number_ios IOs, whichever
	 * comes first, as fio's; a time_based job runs for its runtime whatever number_ios says.
	 */
	bool loop_over = w->loop_bytes >= per_loop ||
			 (o->number_ios && !o->time_based && w->loop_ios >= o->number_ios);
	bool wrapped;

	if (w->no_more)
		return false;
	if (w->replay && !w->verifying) /* the log once, whatever size and loops say */
		return w->rpos < w->replay->n;
	if (w->verifying)
		return verify_pending(w->verify);
	if (w->tw_pending)	/* trimwrite: the last trim's write is still to come */
		return true;
	if (!loop_over && !gen_pass_done(w->gen))
		return true;
	/*
	 * The generator went over every file, but the loop is not over: io_size asks for more,
	 * or the loop began where the last one stopped.  Round again, as fio does.
	 */
	if (!loop_over && (o->io_size || w->loop_midway)) {
		new_pass(w);
		if (o->invalidate && !o->direct && w->moves_data)	/* fio's wrap drops it, buffered */
			target_invalidate(&w->plan, true, NULL);
		return true;
	}
	wrapped = gen_pass_done(w->gen);
	w->loop_bytes = 0;
	w->loop_ios = 0;
	if (!o->time_based && ++w->loop >= o->loops) {
		w->no_more = true;
		return false;
	}
	/* unlink_each_loop: every loop after the first gets new files (fio keeps the last). */
	if (o->unlink_each_loop && !o->time_based &&
	    (w->pass_err = target_renew(w->job, &w->plan, &w->err))) {
		w->no_more = w->error_stop = true;
		return false;
	}
	/* A loop goes on where the last one stopped, as fio's: only a pass that is over starts again. */
	if (wrapped)
		new_pass(w);
	w->loop_midway = !wrapped;
	/* Every loop reopens the files in fio, dropping their cache; a time_based pass drops it
	 * where the generator went round (not for norandommap, which never does), buffered. */
	if (o->invalidate && w->moves_data && (!o->time_based || (wrapped && !o->direct)))
		target_invalidate(&w->plan, true, NULL);
	return true;
}

/* sync_file_range: the write widens its file's range to sync. */
static void sfr_note(struct worker *w, const struct io_u *io)
{
	if (io->offset < w->sfr_lo[io->file])
		w->sfr_lo[io->file] = io->offset;
	if (io->offset + io->len > w->sfr_hi[io->file])
		w->sfr_hi[io->file] = io->offset + io->len;
}

/*
 * sync_file_range=FLAGS:N, as fio: sync_file_range(2) with FLAGS over the range of the file
 * written last that was written since its last one, issued by the worker itself between IOs
 * (fio's sync engines and libaio do it so too).  It counts as the sync the next IO follows; a
 * failure is a write error.
 */
static void sync_range(struct worker *w)
{
	unsigned f = w->last_write_file;
	struct io_u sync = { .op = IO_OP_FSYNC, .file = f };

	w->last_was_sync = true;
	if (w->sfr_hi[f] <= w->sfr_lo[f])
		return;
	if (sync_file_range(w->plan.files[f].fd, (off64_t)w->sfr_lo[f],
			    (off64_t)(w->sfr_hi[f] - w->sfr_lo[f]),
			    w->job->o.sync_file_range_flags))
		record_error(w, &sync, errno);
	w->sfr_lo[f] = UINT64_MAX;
	w->sfr_hi[f] = 0;
}

/* An fsync or fdatasync of the file written last. */
static void next_sync(struct worker *w, struct io_u *io, uint8_t op)
{
	w->last_was_sync = true;
	io->op = op;
	io->file = w->last_write_file;
	io->offset = 0;
	io->len = 0;
}

/* The next IO of the log being replayed (read_iolog). */
static void replay_next(struct worker *w, struct io_u *io)
{
	const struct replay_io *r = &w->replay->io[w->rpos++];

	io->op = r->op;
	io->file = r->file;
	io->offset = r->offset;
	io->len = r->len;
	io->stream = 0;
	w->replay_delay_ns = r->delay_ns;
}

/* Next IO to issue: a resubmission first, else an fsync when due, else a new one. */
static struct io_u *next_io(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	struct io_u *io;

	if (w->nrequeue)
		return requeue_pop(w);
	if (w->blocked) {
		io = w->blocked;
		w->blocked = NULL;
		return io;
	}
	io = &w->eng.ios[w->free_idx[--w->nfree]];
	io->flags = 0;
	io->seq = 0;
	io->sched_ns = 0;
	io->ioprio = 0;
	io->start_ns = now;
	/*
	 * fio's rule: while the writes issued are a multiple of fsync (or fdatasync, fsync first
	 * when both are), the next IO is a sync unless the last one was.  So a read after the
	 * sync is followed by another (randrw fsync=4: 61 syncs for 124 writes, as in fio 3.33).
	 */
	if (w->writes && !w->last_was_sync && !w->verifying) {
		if (o->fsync && w->writes % o->fsync == 0) {
			next_sync(w, io, IO_OP_FSYNC);
			return io;
		}
		if (o->fdatasync && w->writes % o->fdatasync == 0) {
			next_sync(w, io, IO_OP_FDATASYNC);
			return io;
		}
		if (o->sync_file_range_nr && w->writes % o->sync_file_range_nr == 0)
			sync_range(w);
	}
	w->last_was_sync = false;
	if (w->verify && verify_pending(w->verify)) {
		verify_next(w->verify, io);
		if (!w->verifying)
			w->stats.depth[depth_bucket(w->inflight + w->pending + 1)]++;
		return io;
	}
	if (w->tw_pending) {
		/* trimwrite: the write of the block just trimmed, outside the loop's budget (fio
		 * trims io_size bytes and writes as many, number_ios of each) */
		*io = (struct io_u){ .index = io->index,
				     .buf = io->buf,
				     .start_ns = io->start_ns,
				     .op = IO_OP_WRITE,
				     .file = w->tw.file,
				     .offset = w->tw.offset,
				     .len = w->tw.len,
				     .stream = w->tw.stream };
		w->tw_pending = false;
		w->issued_ios++;
	} else {
		if (w->replay)
			replay_next(w, io);
		else
			gen_next(w->gen, io);
		w->issued_ios++;
		w->loop_ios++;
		w->loop_bytes += io->len;
		if (io->op == IO_OP_TRIM && (w->job->o.rw & RW_F_TRIMWRITE)) {
			w->tw = *io;
			w->tw_pending = true;
		}
	}
	if (w->cmdprio)
		io->ioprio = cmdprio_pick(w->cmdprio, io);
	if (io->op == IO_OP_WRITE) {
		w->writes++;
		w->last_write_file = io->file;
		if (__builtin_expect(w->sfr_lo != NULL, 0))
			sfr_note(w, io);
	}
	if (io->op == IO_OP_WRITE && w->verify)
		verify_fill(w->verify, io);
	else if (io->op == IO_OP_WRITE)
		fill_write(&w->fill, io);
	w->stats.depth[depth_bucket(w->inflight + w->pending + 1)]++;
	return io;
}

/* The gap to the next IO of direction d under the job's rate: fixed, or exponential (poisson). */
static uint64_t rate_gap(struct worker *w, unsigned d, uint32_t len)
{
	const struct job_opts *o = &w->job->o;
	double mean = o->rate_iops[d] ? 1e9 / (double)o->rate_iops[d] :
					1e9 * (double)len / (double)o->rate[d];

	if (o->rate_process == RATE_POISSON) { /* exponential gaps with the same mean */
		double u = (double)((w->issued_ios * 0x9e3779b97f4a7c15ULL + w->number) >> 11) *
			   0x1.0p-53;

		return (uint64_t)(-log(1.0 - u) * mean);
	}
	return (uint64_t)mean;
}

/*
 * Waits until the IO's turn in its direction's schedule, and remembers when that was meant to
 * be: latency measured from there shows a stalled device's backlog, which latency from
 * submission hides (coordinated omission).  IOs in flight are reaped as they complete during
 * the wait (fio drains them before it sleeps), so their latency ends when they do.  The wait
 * ends at the deadline, a stop or an error, and then the IO is not issued.  Returns 0 with *now
 * the clock after the wait, 1 when the IO is not to be issued, or -errno of the engine.
 */
/*
 * Waits until due (or the deadline, a stop or an error), reaping completions as they come.
 * Returns 0 with *now the clock after the wait, 1 when the IO is not to be issued, or -errno.
 */
static int wait_until(struct worker *w, uint64_t due, uint64_t *now)
{
	uint64_t end = due < w->deadline_ns ? due : w->deadline_ns, t = *now;
	int ret = 0;

	while (!ret && t < end && !stopping(w) && !w->error_stop) {
		uint64_t left = end - t;

		answer_snap(w);
		if (w->inflight) {	/* a completion ends the wait as it comes */
			ret = reap_wait(w, 1, left);
		} else if (left > 2 * RATE_SPIN_NS) {	/* sleep most of the gap, spin the end */
			left -= RATE_SPIN_NS;
			nanosleep(&(struct timespec){ 0, (long)(left < REAP_SLICE_NS ? left : REAP_SLICE_NS) },
				  NULL);
		}
		t = clock_ns();
	}
	*now = t;
	if (ret)
		return ret;
	return t >= due && !stopping(w) && !w->error_stop ? 0 : 1;
}

static int rate_wait(struct worker *w, struct io_u *io, uint64_t *now)
{
	unsigned d = io->op;
	uint64_t due;

	if (d > IO_OP_TRIM || (!w->job->o.rate[d] && !w->job->o.rate_iops[d]))
		return 0;
	due = w->rate_next[d];
	w->rate_next[d] = due + rate_gap(w, d, io->len);
	io->sched_ns = due;
	if (due <= *now)
		return 0;
	return wait_until(w, due, now);
}

/*
 * A replayed IO's delay, as fio's iolog_delay(): counted from the last issue; a wait that
 * overslept its delay takes the excess off the next one.
 */
static int replay_wait(struct worker *w, uint64_t *now)
{
	uint64_t delay = w->replay_delay_ns, since = *now - w->replay_last, t0 = *now;
	int ret;

	if (delay < w->replay_late) {
		w->replay_late = 0;
		return 0;
	}
	delay -= w->replay_late;
	if (delay <= since)
		return 0;
	ret = wait_until(w, t0 + delay - since, now);
	w->replay_late = *now - t0 > w->replay_delay_ns ? *now - t0 - w->replay_delay_ns : 0;
	return ret;
}

/* The waits before an IO: its turn under the job's rate, and a replayed IO's delay. */
static int pace(struct worker *w, struct io_u *io, uint64_t *now)
{
	int ret = w->rated && io->op <= IO_OP_TRIM ? rate_wait(w, io, now) : 0;

	if (!ret && w->replay && w->replay_delay_ns)
		ret = replay_wait(w, now);
	return ret;
}

/* The count thinktime_blocks applies to: completed IOs (fio's io_blocks) or issued ones (io_issues). */
static inline uint64_t think_count(const struct worker *w)
{
	return w->job->o.thinktime_blocks_type ? w->issued_ios : w->done_ios;
}

/* True when a thinktime stall is due: thinktime_iotime of IO since the last, or thinktime_blocks IOs. */
static bool think_due(const struct worker *w)
{
	if (w->verifying)	/* the read-back after the workload does not think (nor does fio's) */
		return false;
	if (w->think_io_at != UINT64_MAX && clock_ns() >= w->think_io_at)
		return true;
	return w->think_blocks && think_count(w) >= w->think_last + w->think_blocks;
}

/* Sleeps until end (or a stop), in naps short enough to answer interval snapshots. */
static uint64_t think_sleep(struct worker *w, uint64_t now, uint64_t end)
{
	while (now < end && !stopping(w)) {
		uint64_t left = end - now < THINK_NAP_NS ? end - now : THINK_NAP_NS;
		struct timespec ts = { 0, (long)left };

		nanosleep(&ts, NULL);
		answer_snap(w);
		now = clock_ns();
	}
	return now;
}

/*
 * A thinktime stall, as fio's: the IOs in flight complete first, then the worker spins for
 * thinktime_spin and sleeps the rest of thinktime, neither past the deadline.  The stall is
 * in no IO's latency.  Returns 0 or -errno of the engine.
 */
static int think(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t count = think_count(w), now, end, spin_end, start;
	int ret = commit(w);

	while (!ret && w->inflight)
		ret = reap(w, w->inflight);
	if (ret)
		return ret;
	start = now = clock_ns();
	end = now + w->think_ns < w->deadline_ns ? now + w->think_ns : w->deadline_ns;
	spin_end = now + o->thinktime_spin < end ? now + o->thinktime_spin : end;
	while (now < spin_end && !stopping(w))
		now = clock_ns();
	w->stats.think_spin_ns += now - start;
	now = think_sleep(w, now, end);
	w->stats.think_stalls++;
	w->stats.think_ns += now - start;
	/* rate_ignore_thinktime: the schedule moves on by the stall, no catching up after it */
	for (unsigned d = 0; o->rate_ignore_thinktime && d < 3; d++)
		w->rate_next[d] += now - start;
	w->think_last = count;
	if (w->think_io_at != UINT64_MAX)
		w->think_io_at = now + o->thinktime_iotime;
	w->last_done_ns = 0;
	w->last_ns = w->async ? now : 0;
	return 0;
}

/* Queues one IO.  Returns 1 when the queue cannot take more now, 0 to go on, or -errno. */
static int issue(struct worker *w, struct io_u *io)
{
	int ret;

	/* verify_only: a write is not made, only counted (fio's dry run), and its units noted. */
	if (io->op == IO_OP_WRITE && w->job->o.verify_only) {
		io->res = (int32_t)io->len;
		ret = ENGINE_COMPLETED;
	} else {
		if (w->iolog.fd >= 0 && !(io->flags & IO_RETRY))
			iolog_add(w, io);
		if (w->eng.ops->flags & ENGINE_F_SYNC) {	/* the IO happens in this call */
			uint64_t since = sys_enter(w, io, io->issue_ns, 0);

			ret = w->eng.ops->queue(&w->eng, io);
			sys_leave(w, since);
		} else {
			ret = w->eng.ops->queue(&w->eng, io);
		}
	}
	if (ret == ENGINE_COMPLETED) {
		uint64_t now = clock_ns();

		/* As fio counts a synchronous IO: a submit of one and a completion of one. */
		w->stats.submit[batch_bucket(1)]++;
		w->stats.complete[batch_bucket(1)]++;
		complete_io(w, io, now);
		w->last_done_ns = now;
		tick(w, now);
		return 0;
	}
	w->last_done_ns = 0;
	if (ret == ENGINE_QUEUED) {
		io->flags |= IO_QUEUED;
		w->pend[w->pending++] = io;
		if (w->pending >= w->eng.params.batch_submit)
			return commit(w);
		return 0;
	}
	if (ret == ENGINE_BUSY) {
		requeue_push(w, io, true);
		ret = commit(w);
		return ret ? ret : 1;
	}
	return ret < 0 ? ret : -EIO;
}

/* Submits until the queue is full or the workload ends.  Returns 0 or -errno. */
static int fill_queue(struct worker *w)
{
	while (w->inflight + w->pending < w->qd && !stopping(w)) {
		struct io_u *io;
		uint64_t now;
		int ret;

		if (w->lt && (w->lt_drain || w->lt_final) && lt_quiesced(w))
			break;

		if (!w->nrequeue && !w->blocked && !more_io(w))
			break;
		if (!w->nrequeue && !w->blocked && !w->nfree)
			break;
		if (w->think_ns && think_due(w) && (ret = think(w)))
			return ret;
		/*
		 * At most one clock read at submission and one at completion per IO: a synchronous
		 * IO reads its issue time here; an asynchronous one starts at the latest reading
		 * (the reap that freed its slot, or the last commit), and its batch is stamped at
		 * commit.
		 */
		if (w->async && w->last_ns) {
			now = w->last_ns;
		} else {
			now = clock_ns();
			w->last_ns = w->async ? now : 0;
		}
		/* At the deadline an IO already started is finished; one still waiting is dropped. */
		if (now >= w->deadline_ns && !w->nrequeue) {
			w->no_more = true;
			if (w->blocked)
				put_io(w, w->blocked);
			w->blocked = NULL;
			break;
		}
		io = next_io(w, now);
		/*
		 * The clock read above is the IO's issue time (clat starts there).  Its lat starts
		 * earlier, where fio's does: when the IO began to be set up, which for back-to-back
		 * inline completions is the previous IO's completion, read already.
		 */
		if ((w->rated || w->replay) && !(io->flags & IO_RETRY)) {
			uint64_t t = now;

			ret = pace(w, io, &t);
			if (ret) {	/* the deadline, a stop or an error came first */
				put_io(w, io);
				w->no_more = true;
				if (ret < 0)
					return ret;
				break;
			}
			if (t != now) {	/* it waited: the IO starts now */
				now = t;
				io->start_ns = now;
				w->last_done_ns = 0;
				w->last_ns = w->async ? now : 0;
			}
		}
		io->issue_ns = now;
		w->replay_last = now;
		if (w->last_done_ns && !(io->flags & IO_RETRY))
			io->start_ns = w->last_done_ns;
		/* Overlapping IOs are serialised: an IO on units in flight waits for them. */
		if (w->verify && !(io->flags & IO_RETRY) && !verify_claim(w->verify, io)) {
			w->blocked = io;
			break;
		}
		ret = issue(w, io);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return commit(w);
}

/*
 * How many completions to wait for once the queue is filled as far as it goes: at least
 * iodepth_batch_complete_min (0 polls), and with a full queue enough to bring it down to
 * iodepth_low (fio's refill watermark).
 */
static unsigned reap_min(const struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	unsigned min = o->iodepth_batch_complete_min;

	if (w->inflight >= w->qd) {
		unsigned low = w->inflight > o->iodepth_low ? w->inflight - o->iodepth_low : 1;

		min = low > min ? low : min;
	}
	return min;
}

static int run_loop(struct worker *w)
{
	int ret = 0;

	while (!ret) {
		ret = fill_queue(w);
		if (ret)
			break;
		if (!w->inflight) {
			if ((w->nrequeue || w->blocked) && !stopping(w))
				continue;
			if (stopping(w) || w->no_more || !more_io(w))
				break;
			continue;
		}
		ret = reap(w, reap_min(w));
	}
	/* Drain what is in flight, even when stopping, so buffers are not freed under the kernel. */
	while (w->inflight && w->eng.ops->getevents && !w->stuck) {
		int r = reap(w, w->inflight);

		if (r) {
			ret = ret ? ret : r;
			break;
		}
		while (w->nrequeue) {	/* an engine error ended the job: no resubmission */
			struct io_u *io = requeue_pop(w);

			restore_shape(io);
			end_verify(w, io, false);
			put_io(w, io);
		}
	}
	return ret;
}

/* end_fsync: one fsync per file, in the iolog too (so a replay syncs at the end as the run did). */
static void end_fsync(struct worker *w)
{
	for (unsigned i = 0; i < w->plan.nfiles; i++) {
		struct io_u sync = { .op = IO_OP_FSYNC, .file = i };

		if (w->plan.files[i].fd < 0)
			continue;
		if (w->iolog.fd >= 0)
			iolog_add(w, &sync);
		if (fsync(w->plan.files[i].fd) && !w->stats.errors)
			record_error(w, &sync, errno);
		w->last_was_sync = true;
	}
}

/*
 * fsync_on_close: as fio's close of a file, an fsync of each file of a job that writes unless
 * its last IO was a sync (end_fsync's included); not in the iolog (fio logs none either).
 */
static void close_fsync(struct worker *w)
{
	if (!job_does_dir(w->job, IO_OP_WRITE) || w->last_was_sync || w->stuck)
		return;
	for (unsigned i = 0; i < w->plan.nfiles; i++) {
		struct io_u sync = { .op = IO_OP_FSYNC, .file = i };

		if (w->plan.files[i].fd >= 0 && fsync(w->plan.files[i].fd) && !w->stats.errors)
			record_error(w, &sync, errno);
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
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
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
	struct timespec nap = { 0, 100000000 };
	uint64_t delay = o->startdelay.lo + o->worker_ramp * w->clone, until, now;

	__atomic_add_fetch(&w->ctl->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->ctl->go, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &w->ctl->go, FUTEX_WAIT_PRIVATE, 0, &nap, NULL, 0);
	if (o->startdelay.hi > o->startdelay.lo)	/* per clone, reproducible */
		delay += (o->startdelay.hi - o->startdelay.lo) *
			 ((w->number * 2654435761u) % 1001) / 1000;
	until = (w->job->wait_for ? wait_waitee(w) : w->ctl->start_ns) + delay;
	while ((now = clock_ns()) < until && !stopping(w)) {
		uint64_t ns = until - now < 20000000 ? until - now : 20000000;

		nanosleep(&(struct timespec){ 0, (long)ns }, NULL);
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
	memcpy(submit, w->stats.submit, sizeof(submit));
	memcpy(complete, w->stats.complete, sizeof(complete));
	w->verifying = true;
	w->no_more = false;
	w->deadline_ns = UINT64_MAX;
	w->next_sample_ns = UINT64_MAX;		/* no bandwidth samples either */
	ret = run_loop(w);
	w->stats.read_runtime_ns = (job_does_dir(w->job, IO_OP_READ) ? work_ns : 0) +
				   clock_ns() - t0;
	memcpy(w->stats.submit, submit, sizeof(submit));
	memcpy(w->stats.complete, complete, sizeof(complete));
	return ret;
}

/*
 * Arms thinktime and the rate_min checks at the start of the workload.  With thinktime_iotime
 * and no thinktime_blocks of its own, only the IO time calls for stalls (fio: the default of 1
 * would stall after every IO).
 */
static void think_rate_start(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;

	w->think_ns = o->thinktime;
	w->think_blocks = o->thinktime_blocks;
	if (o->thinktime || w->rated)	/* waits as long as asked: no 50 us of timer slack on each */
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	if (o->thinktime && o->thinktime_iotime) {
		w->think_io_at = now + o->thinktime_iotime;
		if (!job_opt_is_set(w->job, "thinktime_blocks"))
			w->think_blocks = 0;
	}
	for (unsigned d = 0; d < 3; d++)
		if (o->rate_min[d] || o->rate_iops_min[d])
			w->ratecheck_ns = now + o->ramp_time + RATE_SETTLE_NS;
}

/*
 * The error of a job whose IOs in flight saw no completion for io_timeout: the IOs, oldest
 * first as far as the message holds them.  Returns -ETIMEDOUT.
 */
static int stuck_report(struct worker *w, uint64_t now)
{
	static const char *const dirs[] = { "read", "write", "trim", "fsync", "fdatasync" };
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
	snprintf(t, room, "job '%s': no IO completed for %.1f s (io_timeout=%.1f s); %u IOs in flight are stuck:",
		 w->job->o.name, (double)(now - w->progress_ns) / 1e9,
		 (double)w->job->o.io_timeout / 1e9, w->inflight);
	for (;;) {	/* the oldest IO not yet listed, until the message is full */
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
			 shown ? ";" : "", dirs[old->op], (unsigned long long)old->offset, old->len,
			 w->plan.files[old->file].path, (double)(now - old->issue_ns) / 1e9);
		shown++;
	}
	n = w->inflight - shown;
	if (n)
		snprintf(t + len, room - len, "; and %u more", n);
	free(idle);
	return -ETIMEDOUT;
}

/* The error of a job that fell short of rate_min or rate_iops_min.  Returns -EIO. */
static int rate_short_report(struct worker *w)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	const struct job_opts *o = &w->job->o;
	unsigned d = w->rate_short - 1;
	unsigned long long ms = (unsigned long long)(w->rate_short_ns / 1000000);

	if (o->rate_min[d])
		err_set(&w->err, "job '%s': %s bandwidth %llu bytes/s over the last %llu ms is below rate_min=%llu bytes/s",
			o->name, dirs[d], (unsigned long long)w->rate_short_got, ms,
			(unsigned long long)o->rate_min[d]);
	else
		err_set(&w->err, "job '%s': %s rate %llu IOPS over the last %llu ms is below rate_iops_min=%llu",
			o->name, dirs[d], (unsigned long long)w->rate_short_got, ms,
			(unsigned long long)o->rate_iops_min[d]);
	return -EIO;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job_opts *o = &w->job->o;
	struct rusage ru0, ru1;
	struct iowl_err log_err = { "" };
	uint64_t now, work_end, due;
	int log_ret = 0;

	/* placement first, so the buffers come from the job's NUMA policy, as fio; then the IDs */
	w->status = place_apply(&o->place, w->number, o->name, &w->err);
	if (!w->status && (job_opt_is_set(w->job, "uid") || job_opt_is_set(w->job, "gid")))
		w->status = jobctl_set_ids(job_opt_is_set(w->job, "uid") ? (long)o->uid : -1,
					   job_opt_is_set(w->job, "gid") ? (long)o->gid : -1,
					   o->name, &w->err);
	if (!w->status)
		w->status = worker_setup(w);
	__atomic_store_n(&w->state, WORKER_READY, __ATOMIC_RELEASE);	/* read by the run */
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
	samples_restart(w, now);
	if (o->ramp_time) {
		w->ramp_end_ns = now + o->ramp_time;
		w->next_sample_ns = w->ramp_end_ns < w->next_sample_ns ? w->ramp_end_ns :
									w->next_sample_ns;
		__atomic_store_n(&w->state, WORKER_RAMP, __ATOMIC_RELEASE);	/* read by the run */
	} else {
		__atomic_store_n(&w->state, WORKER_RUNNING, __ATOMIC_RELEASE);	/* read by the run */
		start_logs(w, now);
	}
	if (o->runtime)
		w->deadline_ns = due + o->ramp_time + o->runtime;
	if (w->stats.steps)
		start_steps(w, now);
	for (unsigned d = 0; d < 3; d++) {
		w->rate_next[d] = now;
		w->rated = w->rated || o->rate[d] || o->rate_iops[d];
	}
	think_rate_start(w, now);
	if (w->lt) { /* latency_target: the search starts at depth 1 */
		lt_init(w->lt, o, w->eng.depth, now, 0);
		w->qd = w->lt->qd;
	}
	w->status = run_loop(w);
	if (w->stuck)
		w->status = stuck_report(w, clock_ns());
	if (!w->status)
		w->status = w->pass_err;
	if (o->end_fsync && !stopping(w))
		end_fsync(w);
	if (o->fsync_on_close)
		close_fsync(w);
	work_end = clock_ns();
	if (w->stats.steps && w->step < w->stats.nsteps)
		step_close(w, work_end);
	getrusage(RUSAGE_THREAD, &ru1);
	if (!w->status && w->verify)
		w->status = verify_after_writes(w, work_end - w->start_ns);
	if (w->wlog && !w->ramp_end_ns)
		log_ret = wlog_close(w->wlog, &w->stats, work_end, &log_err);
	if (w->status && !w->pass_err && !w->stuck)
		err_set(&w->err, "job '%s': ioengine %s: %s", o->name, o->ioengine,
			strerror(-w->status));
	else if (log_ret) {	/* a log that could not be written is a failed run */
		w->status = -EIO;
		w->err = log_err;
	}
	else if (w->rate_short)
		w->status = rate_short_report(w);
	w->end_ns = clock_ns();
	if (w->ramp_end_ns)	/* ended inside ramp_time: nothing was measured */
		stats_reset(&w->stats);
	w->stats.runtime_ns = w->ramp_end_ns ? 0 : work_end - w->start_ns;
	account_cpu(w, &ru0, &ru1);
	if (w->cfill.base)
		cfill_publish(&w->cfill, &w->stats.cfill);
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
	/*
	 * io_uring rings made with SINGLE_ISSUER can only be waited on by the thread that made
	 * them.  Stuck IOs keep their engine and buffers: the kernel may still complete them.
	 */
	if (w->eng.ops && w->eng.ops->cleanup && !w->stuck)
		w->eng.ops->cleanup(&w->eng);
	if (w->ctl->job_done)
		__atomic_add_fetch(&w->ctl->job_done[w->job->index], 1, __ATOMIC_RELEASE);
	__atomic_store_n(&w->state, WORKER_DONE, __ATOMIC_RELEASE);
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
	free(w->pend);
	free(w->requeue);
	free(w->sfr_lo);
	free(w->sfr_hi);
	hist_free(w->step_hist);
	hist_free(w->step_scratch);
	free(w->cmdprio);
	free(w->lt);
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
	static const char *const ops[] = { "read", "write", "trim", "fsync", "fdatasync" };
	uint64_t limit = w->job->o.io_timeout;
	const struct io_u *io;

	if (!limit || w->seized || __atomic_load_n(&w->state, __ATOMIC_ACQUIRE) == WORKER_DONE ||
	    !worker_seize(w, now, limit))
		return false;
	io = w->sys_io;
	if (io)
		err_set(&w->err,
			"job '%s': a %s at offset=%llu size=%u on file '%s' has not returned for %.1f s (io_timeout=%.1f s); the job is left behind",
			w->job->o.name, ops[io->op], (unsigned long long)io->offset, io->len,
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
