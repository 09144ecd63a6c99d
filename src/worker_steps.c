// SPDX-License-Identifier: MIT
/* ramp_time's end, worker_ramp's steps and the bw and iops sample windows: time-driven, checked once per completion batch. */
#include <string.h>

#include "iowl/hist.h"
#include "iowl/wlog.h"
#include "worker_int.h"

/* The bw and iops windows start at now (the measured part's start). */
void worker_samples_restart(struct worker *w, uint64_t now)
{
	memset(w->sample_ios, 0, sizeof(w->sample_ios));
	memset(w->sample_bytes, 0, sizeof(w->sample_bytes));
	w->sample_start_ns = w->iops_start_ns = now;
	w->next_bw_ns = now + w->bw_avg_ns;
	w->next_iops_ns = now + w->iops_avg_ns;
	w->next_sample_ns = w->next_bw_ns < w->next_iops_ns ? w->next_bw_ns : w->next_iops_ns;
}

/* Closes the bw window (bwavgtime) and the iops window (iopsavgtime) that ended by now. */
void worker_take_sample(struct worker *w, uint64_t now)
{
	bool bw = now >= w->next_bw_ns, io = now >= w->next_iops_ns;
	uint64_t dbw = now - w->sample_start_ns, dio = now - w->iops_start_ns;

	for (unsigned d = 0; d < DDIR_NR; d++) {
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
void worker_start_logs(struct worker *w, uint64_t now)
{
	if (!w->wlog)
		return;
	wlog_start(w->wlog, &w->stats, now);
	w->wlog_next = wlog_next(w->wlog);
}

void worker_end_ramp(struct worker *w, uint64_t now)
{
	stats_reset(&w->stats);
	worker_start_logs(w, now);
	w->ramp_end_ns = 0;
	w->start_ns = now;
	__atomic_store_n(&w->state, WORKER_RUNNING, __ATOMIC_RELEASE);	/* read by the run */
	worker_samples_restart(w, now);
}

/* The worker's cumulative completion figures over every direction. */
static void step_totals(const struct worker *w, uint64_t *ios, uint64_t *bytes,
			struct lat_stat *lat, struct hist *h)
{
	*ios = *bytes = 0;
	lat_init(lat);
	if (h)
		memset(h, 0, sizeof(*h));
	for (unsigned d = 0; d < DDIR_NR; d++) {
		*ios += w->stats.dir[d].ios;
		*bytes += w->stats.dir[d].bytes;
		lat_merge(lat, &w->stats.dir[d].clat);
		if (h && w->stats.dir[d].clat_hist)
			hist_merge(h, w->stats.dir[d].clat_hist);
	}
}

/* Closes the current step of a worker ramp: its share is the change since the step began. */
void worker_step_close(struct worker *w, uint64_t now)
{
	struct step_stats *s = &w->stats.steps[w->steps.cur];
	struct lat_stat lat;
	uint64_t ios, bytes;

	step_totals(w, &ios, &bytes, &lat, w->steps.scratch);
	s->ios = ios - w->steps.ios;
	s->bytes = bytes - w->steps.bytes;
	lat_sub(&s->clat, &lat, &w->steps.lat);
	if (s->clat_hist && w->steps.scratch)
		hist_sub(s->clat_hist, w->steps.scratch, w->steps.hist);
	s->workers = 1;
	s->ns = now - w->steps.start_ns;
	w->steps.ios = ios;
	w->steps.bytes = bytes;
	w->steps.lat = lat;
	if (w->steps.hist && w->steps.scratch)
		hist_copy(w->steps.hist, w->steps.scratch);
	w->steps.start_ns = now;
	if (++w->steps.cur + 1 >= w->stats.nsteps)
		w->steps.next_ns = UINT64_MAX;
	else
		w->steps.next_ns += w->job->o.worker_ramp;
}

/*
 * A ramping clone joins at step number clone (it started worker_ramp x clone after the first);
 * all clones stop together, runtime after the first started.
 */
void worker_steps_start(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	uint64_t first = w->ctl->start_ns;

	w->steps.cur = w->clone;
	w->steps.start_ns = now;
	w->steps.next_ns = w->clone + 1 < w->stats.nsteps ?
				   first + o->worker_ramp * (w->clone + 1) :
				   UINT64_MAX;
	if (o->runtime)
		w->deadline_ns = first + o->startdelay.lo + o->runtime;
	if (w->steps.next_ns < w->next_sample_ns)
		w->next_sample_ns = w->steps.next_ns;
}
