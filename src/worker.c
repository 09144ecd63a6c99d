// SPDX-License-Identifier: MIT
/* The per-IO loop of one worker thread: generate, queue, commit, reap, account; nothing here allocates, locks or prints. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iowl/flock.h"
#include "iowl/hist.h"
#include "iowl/gen.h"
#include "iowl/verify.h"
#include "iowl/wlog.h"
#include "iowl/debug.h"
#include "worker_int.h"

static void put_io(struct worker *w, struct io_u *io)
{
	io->flags &= (uint8_t)~IO_FLIGHT;
	w->free_idx[w->nfree++] = io->index;
}

/*
 * serialize_overlap: true when io shares a byte with an IO of the same file issued and not yet
 * finished (queued, in flight or to be resubmitted), as fio's in_flight_overlap(): a scan of the
 * depth IOs, done only for jobs that ask for it.
 */
static bool overlaps_flight(const struct worker *w, const struct io_u *io)
{
	uint64_t lo = io->offset, hi = io->offset + io->len;

	for (unsigned i = 0; i < w->eng.depth; i++) {
		const struct io_u *f = &w->eng.ios[i];

		if ((f->flags & IO_FLIGHT) && f->file == io->file && f->offset < hi &&
		    lo < f->offset + f->len)
			return true;
	}
	return false;
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

void worker_record_error(struct worker *w, const struct io_u *io, int err)
{
	/* fill_device: a full file system is where the job ends, as in fio. */
	if (w->job->o.fill_device && io->op == DDIR_WRITE && (err == ENOSPC || err == EDQUOT)) {
		w->no_more = true;
		return;
	}
	w->stats.errors++;
	if (io->op < DDIR_NR)
		w->stats.dir[io->op].errors++;
	if (!w->stats.first_error.err) {
		struct io_error *e = &w->stats.first_error;

		*e = (struct io_error){ .err = err, .offset = io->offset, .len = io->len,
					.op = io->op };
		snprintf(e->path, sizeof(e->path), "%s", w->plan.files[io->file].path);
	}
	/* As fio: the first error ends the job unless continue_on_error and ignore_error let it by. */
	if (!job_error_ignored(&w->job->o, err == EILSEQ ? 2 : io->op == DDIR_READ ? 0 : 1, err))
		w->no_more = w->error_stop = true;
	else if (w->job->o.error_dump) /* the one that ends the job is reported at the end */
		iowl_warn("job '%s': io error on file %s: %s: %s offset=%llu, length=%u",
			  w->job->o.name, w->plan.files[io->file].path, strerror(err),
			  ddir_name(io->op), (unsigned long long)io->offset, (unsigned)io->len);
}

/* Counts bad units of a verified read as errors; the first is the error reported (EILSEQ, as fio). */
void worker_record_verify(struct worker *w, unsigned bad)
{
	const struct verify_failure *f = verify_failure_at(w->verify, 0);

	w->stats.errors += bad;
	w->stats.dir[DDIR_READ].errors += bad;
	if (!w->stats.first_error.err && f) {
		struct io_error *e = &w->stats.first_error;

		*e = (struct io_error){
			.err = EILSEQ, .offset = f->offset, .len = f->len, .op = DDIR_READ
		};
		snprintf(e->path, sizeof(e->path), "%s", w->plan.files[f->file].path);
	}
	if (!job_error_ignored(&w->job->o, 2, EILSEQ) || w->job->o.verify_fatal)
		w->no_more = w->error_stop = true;
}

/* A read or write is over (ok: transferred in full): verification records or checks it. */
static void end_verify(struct worker *w, const struct io_u *io, bool ok)
{
	unsigned bad;

	if (!w->verify || io->op > DDIR_TRIM)
		return;
	bad = verify_complete(w->verify, io, ok);
	if (bad)
		worker_record_verify(w, bad);
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

/* Time-driven events, checked once per completion batch: ramp end, samples, steps, the deadline. */
static void tick(struct worker *w, uint64_t now)
{
	answer_snap(w);
	if (now >= w->wlog_next) {
		wlog_tick(w->wlog, &w->stats, now);
		w->wlog_next = wlog_next(w->wlog);
	}
	if (now >= w->rate.check_ns)
		worker_rate_check(w, now);
	if (now < w->next_sample_ns)
		return;
	if (now >= w->steps.next_ns)
		worker_step_close(w, now);
	if (w->ramp_end_ns && now >= w->ramp_end_ns)
		worker_end_ramp(w, now);
	else if (!w->ramp_end_ns)
		worker_take_sample(w, now);
	else
		w->next_sample_ns = now + SAMPLE_NS;
	if (w->ramp_end_ns && w->ramp_end_ns < w->next_sample_ns)
		w->next_sample_ns = w->ramp_end_ns;
	if (w->steps.next_ns < w->next_sample_ns)
		w->next_sample_ns = w->steps.next_ns;
	if (now >= w->deadline_ns)
		w->no_more = true;
}

/*
 * Accounts a finished IO.  A short transfer is resubmitted for the rest (fio completes short
 * IOs the same way); EINTR and EAGAIN are resubmitted as they are, but for nowait=1, where
 * EAGAIN is the answer asked for and an error, as in fio.
 */
static void complete_io(struct worker *w, struct io_u *io, uint64_t now)
{
	struct dir_stats *ds;
	bool again = io->res == -EINTR || (io->res == -EAGAIN && !w->eng.params.nowait);
	/*
	 * create_on_open with a queueing engine: a read past the end of a file still short gets
	 * nothing and counts as an IO of the bytes it got, as fio counts it (a synchronous
	 * engine's is refused before the run: fio ends the job with EIO there).
	 */
	bool eof = __builtin_expect(w->eof_empty, 0) && io->res == 0 && io->op == DDIR_READ;

	dprint(DBG_IO,
	       "complete: job '%s' clone %u %s offset=%llu len=%u file=%u res=%d lat=%lluns",
	       w->job->o.name, w->clone, ddir_name(io->op), (unsigned long long)io->offset, io->len,
	       io->file, io->res, (unsigned long long)(now - io->start_ns));

	if (io->res <= 0 && io->op < DDIR_FSYNC && io->len && !again && !eof) {
		/* The failing part is reported (after a short transfer, the rest). */
		worker_record_error(w, io, io->res < 0 ? -io->res : EIO);
		restore_shape(io);
		end_verify(w, io, false);
		put_io(w, io);
		return;
	}
	if (io->res < 0 || (io->op < DDIR_FSYNC && (uint32_t)io->res < io->len && !eof)) {
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
		worker_record_error(w, io, io->res < 0 ? -io->res : EIO);
		restore_shape(io);
		end_verify(w, io, false);
		put_io(w, io);
		return;
	}
	if (io->op >= DDIR_FSYNC) {
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
	if (io->op == DDIR_READ && w->moves_data && !w->verifying)
		stats_count_zero(ds, io->buf, (uint32_t)io->res, io->offset);
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
	if (ds->prios) /* cmdprio: the latency per priority */
		stats_prio_add(ds->prios, io->ioprio ? io->ioprio : w->ioprio,
			       now - (w->prio_lat ? io->start_ns : io->issue_ns));
	if (w->lat_limits && !w->verifying)
		worker_lat_limits(w, io, now - io->start_ns, now);
	end_verify(w, io, true);
	put_io(w, io);
}

int worker_commit(struct worker *w)
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
int worker_reap_wait(struct worker *w, unsigned min, uint64_t wait_ns)
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

int worker_reap(struct worker *w, unsigned min)
{
	return worker_reap_wait(w, min, REAP_SLICE_NS);
}

/*
 * A new pass over the files: with randrepeat (or a randseed) it repeats the first, as fio
 * re-seeds; a time_based job's passes go on drawing (as fio's do).
 */
static void new_pass(struct worker *w)
{
	const struct job *job = w->job;

	/* openfiles: as fio, the pass ends closing the files that are over */
	if (__builtin_expect(w->plan.lazy, 0) && (w->pass_err = worker_close_done(w)))
		w->no_more = w->error_stop = true;

	if (!job->o.time_based && (job->o.randrepeat || job_opt_is_set(job, OPT_ID_randseed)))
		gen_rewind(w->gen);
	else
		gen_restart(w->gen);
}

/*
 * read_iolog_chunked: the next chunk of the log, read as the replay goes.  A log that ends
 * sooner than before the run, or no longer reads, ends the job with the error.
 */
static __attribute__((noinline, cold)) bool replay_more(struct worker *w)
{
	int64_t n = w->rreader ? replay_reader_next(w->rreader, &w->rio, &w->err) : 0;

	if (n > 0) {
		w->rio_n = (uint64_t)n;
		w->rio_pos = 0;
		return true;
	}
	if (!n)
		err_set(&w->err,
			"job '%s': read_iolog '%s' ended after %llu of its %llu IOs: it changed during the run",
			w->job->o.name, w->replay->path, (unsigned long long)w->rpos,
			(unsigned long long)w->replay->n);
	w->pass_err = n ? (int)n : -EIO;
	w->no_more = w->error_stop = true;
	return false;
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
	if (w->replay && !w->verifying) { /* the log once, whatever size and loops say */
		if (__builtin_expect(w->rio_pos == w->rio_n, 0) && w->rpos < w->replay->n)
			return replay_more(w);
		return w->rpos < w->replay->n;
	}
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
	struct io_u sync = { .op = DDIR_FSYNC, .file = f };

	w->last_was_sync = true;
	if (w->sfr_hi[f] <= w->sfr_lo[f])
		return;
	if (sync_file_range(w->plan.files[f].fd, (off64_t)w->sfr_lo[f],
			    (off64_t)(w->sfr_hi[f] - w->sfr_lo[f]),
			    w->job->o.sync_file_range_flags))
		worker_record_error(w, &sync, errno);
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
	const struct replay_io *r = &w->rio[w->rio_pos++];

	w->rpos++;
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
			next_sync(w, io, DDIR_FSYNC);
			return io;
		}
		if (o->fdatasync && w->writes % o->fdatasync == 0) {
			next_sync(w, io, DDIR_FDATASYNC);
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
				     .op = DDIR_WRITE,
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
		if (io->op == DDIR_TRIM && (w->job->o.rw & RW_F_TRIMWRITE)) {
			w->tw = *io;
			w->tw_pending = true;
		}
	}
	if (w->cmdprio)
		io->ioprio = cmdprio_pick(w->cmdprio, io);
	if (io->op == DDIR_WRITE) {
		w->writes++;
		w->last_write_file = io->file;
		if (__builtin_expect(w->sfr_lo != NULL, 0))
			sfr_note(w, io);
	}
	if (io->op == DDIR_WRITE && w->verify)
		verify_fill(w->verify, io);
	else if (io->op == DDIR_WRITE)
		fill_write(&w->fill, io);
	w->stats.depth[depth_bucket(w->inflight + w->pending + 1)]++;
	return io;
}

/*
 * The engine's queue call, with lockfile under the file's lock (fio holds it from the IO's
 * preparation until its queue call returns: a synchronous IO whole, a queued one's submission).
 */
static inline int queue_locked(struct worker *w, struct io_u *io)
{
	int ret;

	if (__builtin_expect(w->flocks == NULL, 1))
		return w->eng.ops->queue(&w->eng, io);
	file_lock_take(w->flocks[io->file], w->job->o.lockfile, io->op == DDIR_READ);
	ret = w->eng.ops->queue(&w->eng, io);
	file_lock_drop(w->flocks[io->file], w->job->o.lockfile);
	return ret;
}

/* Queues one IO.  Returns 1 when the queue cannot take more now, 0 to go on, or -errno. */
static int issue(struct worker *w, struct io_u *io)
{
	int ret;

	dprint(DBG_IO, "queue: job '%s' clone %u %s offset=%llu len=%u file=%u (%s)%s",
	       w->job->o.name, w->clone, ddir_name(io->op), (unsigned long long)io->offset, io->len,
	       io->file, w->plan.files[io->file].path, io->flags & IO_RETRY ? " again" : "");

	/* verify_only: a write is not made, only counted (fio's dry run), and its units noted. */
	if (io->op == DDIR_WRITE && w->job->o.verify_only) {
		io->res = (int32_t)io->len;
		ret = ENGINE_COMPLETED;
	} else {
		if (w->iolog.fd >= 0 && !(io->flags & IO_RETRY))
			iolog_add(w, io);
		if (w->eng.ops->flags & ENGINE_F_SYNC) {	/* the IO happens in this call */
			uint64_t since = sys_enter(w, io, io->issue_ns, 0);

			ret = queue_locked(w, io);
			sys_leave(w, since);
		} else {
			ret = queue_locked(w, io);
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
			return worker_commit(w);
		return 0;
	}
	if (ret == ENGINE_BUSY) {
		requeue_push(w, io, true);
		ret = worker_commit(w);
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

		if (w->lt && (w->lt_drain || w->lt_final) && worker_lt_quiesced(w))
			break;

		if (!w->nrequeue && !w->blocked && !more_io(w))
			break;
		if (!w->nrequeue && !w->blocked && !w->nfree)
			break;
		if (w->think.ns && think_due(w) && (ret = worker_think(w)))
			return ret;
		if (w->flow && !w->verifying && !w->nrequeue && !w->blocked &&
		    (ret = worker_flow_wait(w)))
			return ret < 0 ? ret : worker_commit(w);
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
		if (__builtin_expect(w->plan.lazy, 0) && w->plan.files[io->file].fd < 0 &&
		    (w->pass_err = worker_open_file(w, io->file))) {
			put_io(w, io);
			w->no_more = w->error_stop = true;
			break;
		}
		/*
		 * The clock read above is the IO's issue time (clat starts there).  Its lat starts
		 * earlier, where fio's does: when the IO began to be set up, which for back-to-back
		 * inline completions is the previous IO's completion, read already.
		 */
		if ((w->rate.on || w->replay) && !(io->flags & IO_RETRY)) {
			uint64_t t = now;

			ret = worker_pace(w, io, &t);
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
		/*
		 * Overlapping IOs are serialised: an IO on units in flight waits for them (verify),
		 * with serialize_overlap one on any byte of an IO in flight.
		 */
		if (w->job->o.serialize_overlap && !(io->flags & IO_RETRY) &&
		    overlaps_flight(w, io)) {
			dprint(DBG_IO,
			       "in-flight overlap: job '%s' clone %u offset=%llu len=%u waits",
			       w->job->o.name, w->clone, (unsigned long long)io->offset, io->len);
			w->blocked = io;
			break;
		}
		if (w->verify && !(io->flags & IO_RETRY) && !verify_claim(w->verify, io)) {
			w->blocked = io;
			break;
		}
		if (w->job->o.serialize_overlap)
			io->flags |= IO_FLIGHT;
		ret = issue(w, io);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return worker_commit(w);
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

int worker_run_loop(struct worker *w)
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
		ret = worker_reap(w, reap_min(w));
	}
	/* Drain what is in flight, even when stopping, so buffers are not freed under the kernel. */
	while (w->inflight && w->eng.ops->getevents && !w->stuck) {
		int r = worker_reap(w, w->inflight);

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
