// SPDX-License-Identifier: MIT
/*
 * A worker's fio logs (include/iowl/wlog.h).  Per IO, fio 3.33 logs: bw as bytes x 10^6 /
 * latency in ns, iops as 1, and slat, clat and lat in ns, each with the IO's size.  Averaged
 * over log_avg_msec, it logs for each direction that did IO in the window: bw in KiB/s, iops
 * per second, and the mean slat, clat and lat of the window, with size and offset 0.  The
 * histogram log holds, every log_hist_msec, the completion-latency histogram of each
 * direction's IOs of that interval in fio's 1856 bins.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/ioprio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/fiolog.h"
#include "iowl/fiolog_gz.h"
#include "iowl/hist.h"
#include "iowl/outfile.h"
#include "iowl/place.h"
#include "iowl/job.h"
#include "iowl/snap.h"
#include "iowl/stats.h"
#include "iowl/wlog.h"

#define WLOG_BUF (64 * 1024)
#define WLOG_ENTRY 64 /* log_entries: bytes a line is given in the buffer (most are 20-40) */

enum { L_BW, L_IOPS, L_SLAT, L_CLAT, L_LAT, L_NR };

static const enum fiolog_kind kinds[L_NR] = {
	FIOLOG_BW, FIOLOG_IOPS, FIOLOG_SLAT, FIOLOG_CLAT, FIOLOG_LAT,
};

struct wfile {
	int fd;				/* -1: this log is not kept */
	char *buf;
	size_t len;
	int err;			/* first write error (positive errno) */
	bool prio_hex;			/* log_prio: the last column as "0x%04x" */
	size_t cap;			/* bytes of buf */
	struct fiolog_gz *gz;		/* log_store_compressed: buf holds fio's binary samples */
};

struct wlog {
	struct wfile f[L_NR];
	struct wfile hist;
	bool on[L_NR]; /* per IO: kept and measured (fio's disable_* leave it empty) */
	bool log_offset;
	bool log_prio;
	uint16_t ioprio;       /* the thread's (prio, prioclass): an IO's without its own */
	bool per_io;
	bool track_max;	       /* log_max_value: averaged latency lines show the window's max */
	bool epoch;	       /* log_unix_epoch, log_alternate_epoch: times on clock_id, in ms */
	clockid_t clock_id;    /* log_alternate_epoch_clock_id */
	uint64_t tbase;	       /* times are (now - tbase) / 10^6 ms */
	uint64_t max[DDIR_NR][L_NR]; /* the window's largest slat, clat, lat per direction */
	unsigned coarse;
	uint64_t t0;
	uint64_t avg_ns, next_avg;	/* log_avg_msec windows; avg_ns 0: per IO */
	uint64_t avg_from;		/* when the window began: where the last one was taken */
	uint64_t hist_ns, next_hist;	/* log_hist_msec */
	struct snap_dir base[DDIR_NR];	/* the cumulative figures where the window began */
	struct hist *hist_prev[DDIR_NR];	/* the histograms at the last histogram line */
	struct hist *hist_delta;
	uint64_t *bins;
	char *line;			/* one histogram line */
	unsigned bs[DDIR_NR];			/* reported with histogram lines: the direction's smallest size */
};

/* Writes out the buffer: as it is, or with log_store_compressed as one zlib stream. */
static void wf_flush(struct wfile *w)
{
	if (!w->err && w->len)
		w->err = w->gz ? fiolog_gz_write(w->gz, w->fd, w->buf, w->len) :
				 fd_write_all(w->fd, w->buf, w->len);
	w->len = 0;
}

/* Room for one more line of up to need bytes. */
static char *wf_room(struct wfile *w, size_t need)
{
	if (w->len + need > w->cap)
		wf_flush(w);
	return w->buf + w->len;
}

/* One sample; e->prio is the IO's ioprio value, which fio's text shows as 1 for the RT class. */
static void wf_line(struct wfile *w, const struct fiolog_entry *e, bool log_offset)
{
	struct fiolog_entry t = *e;
	char *p = wf_room(w, !w->gz	    ? FIOLOG_LINE_MAX :
			     log_offset ? FIOLOG_GZ_SAMPLE_OFFSET :
					  FIOLOG_GZ_SAMPLE);

	if (w->gz) {
		w->len += fiolog_gz_sample(p, e, log_offset, w->prio_hex);
		return;
	}
	if (w->prio_hex) {
		w->len += fiolog_format_prio(p, e, log_offset);
		return;
	}
	t.prio = IOPRIO_PRIO_CLASS(e->prio) == IOPRIO_CLASS_RT;
	w->len += fiolog_format(p, &t, log_offset);
}

static int wf_open(struct wfile *w, const struct job *job, const char *name,
		   enum fiolog_kind kind, unsigned number, size_t bufsz, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	char path[PATH_MAX];
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (o->per_job_logs ? O_TRUNC : O_APPEND);
	bool gz = o->log_store_compressed && kind != FIOLOG_CLAT_HIST;

	if (fiolog_name(path, sizeof(path), name, o->name, kind, number + 1, o->per_job_logs) ||
	    (gz && strlen(path) + sizeof(FIOLOG_GZ_SUFFIX) > sizeof(path)))
		return err_set(err, "job '%s': log name '%s' is too long", o->name, name);
	if (gz) { /* whole samples of either size per stream */
		strcat(path, FIOLOG_GZ_SUFFIX);
		bufsz = o->log_compression ? o->log_compression : FIOLOG_GZ_DEFAULT_CHUNK;
		bufsz -= bufsz % (o->log_offset ? FIOLOG_GZ_SAMPLE_OFFSET : FIOLOG_GZ_SAMPLE);
		if (!(w->gz = fiolog_gz_new(bufsz)))
			return err_nomem(err, "job '%s': out of memory for log_store_compressed",
					 o->name);
	}
	w->cap = bufsz;
	w->buf = malloc(bufsz);
	w->fd = open(path, flags, 0644);
	if (w->fd < 0 || !w->buf)
		return err_set(err, "job '%s': log '%s': %s", o->name, path,
			       strerror(w->buf ? errno : ENOMEM));
	return 0;
}

int wlog_open(struct wlog **out, const struct job *job, unsigned number, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	const char *names[L_NR] = { o->write_bw_log, o->write_iops_log, o->write_lat_log,
				     o->write_lat_log, o->write_lat_log };
	struct wlog *l;
	int ret = 0;

	*out = NULL;
	if (!o->write_bw_log && !o->write_iops_log && !o->write_lat_log && !o->write_hist_log)
		return 0;
	l = calloc(1, sizeof(*l));
	if (!l)
		return err_nomem(err, "out of memory");
	for (unsigned k = 0; k < L_NR; k++)
		l->f[k].fd = -1;
	l->hist.fd = -1;
	l->log_offset = o->log_offset;
	l->log_prio = o->log_prio;
	l->ioprio = place_ioprio(&o->place);
	for (unsigned k = 0; k < L_NR; k++)
		l->f[k].prio_hex = o->log_prio;
	l->avg_ns = (uint64_t)o->log_avg_msec * 1000000ULL;
	l->per_io = !l->avg_ns && (o->write_bw_log || o->write_iops_log || o->write_lat_log);
	l->track_max = l->avg_ns && o->log_max_value && o->write_lat_log;
	l->epoch = o->log_unix_epoch || o->log_alternate_epoch;
	l->clock_id = (clockid_t)o->log_clock_id;
	l->hist_ns = (uint64_t)o->log_hist_msec * 1000000ULL;
	l->coarse = o->log_hist_coarseness;
	for (unsigned d = 0; d < DDIR_NR; d++)
		l->bs[d] = job->min_bs[d];
	for (unsigned k = 0; k < L_NR && !ret; k++)
		if (names[k])
			ret = wf_open(&l->f[k], job, names[k], kinds[k], number,
				      o->log_entries ? (size_t)o->log_entries * WLOG_ENTRY :
						       WLOG_BUF,
				      err);
	/* What fio leaves out of its per-IO logs: the disabled latencies, bw, and iops under gtod_reduce. */
	l->on[L_BW] = !o->disable_bw;
	l->on[L_IOPS] = !(o->disable_bw && o->disable_clat && o->disable_slat);
	l->on[L_SLAT] = !o->disable_slat;
	l->on[L_CLAT] = !o->disable_clat;
	l->on[L_LAT] = !o->disable_lat;
	for (unsigned k = 0; k < L_NR; k++)
		l->on[k] = l->on[k] && l->f[k].fd >= 0;
	if (!ret && o->write_hist_log) {
		ret = wf_open(&l->hist, job, o->write_hist_log, FIOLOG_CLAT_HIST, number, WLOG_BUF,
			      err);
		l->hist_delta = hist_alloc();
		l->bins = calloc(FIOLOG_HIST_NR, sizeof(*l->bins));
		l->line = malloc(FIOLOG_HIST_LINE_MAX);
		for (unsigned d = 0; d < DDIR_NR; d++)
			if (job_does_dir(job, d) && !(l->hist_prev[d] = hist_alloc()))
				ret = -ENOMEM;
		if (!ret && (!l->hist_delta || !l->bins || !l->line || ret))
			ret = err_nomem(err, "out of memory");
	}
	if (ret) {
		wlog_free(l);
		return ret;
	}
	*out = l;
	return 0;
}

bool wlog_per_io(const struct wlog *l)
{
	return l && (l->per_io || l->track_max);
}

uint64_t wlog_next(const struct wlog *l)
{
	uint64_t a = l->avg_ns ? l->next_avg : UINT64_MAX;
	uint64_t h = l->hist.fd >= 0 ? l->next_hist : UINT64_MAX;

	return a < h ? a : h;
}

void wlog_start(struct wlog *l, const struct worker_stats *st, uint64_t t0)
{
	l->t0 = t0;
	l->tbase = t0;
	if (l->epoch) { /* the epoch clock's time at t0, through its offset from iowl's clock */
		struct timespec ts;

		clock_gettime(l->clock_id, &ts);
		l->tbase = t0 - ((uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec -
				 (clock_ns() - t0));
	}
	memset(l->max, 0, sizeof(l->max));
	l->next_avg = t0 + l->avg_ns;
	l->avg_from = t0;
	l->next_hist = t0 + l->hist_ns;
	snap_dirs_take(l->base, st);
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (l->hist_prev[d] && st->dir[d].clat_hist)
			hist_copy(l->hist_prev[d], st->dir[d].clat_hist);
}

/* log_max_value: the window's largest latencies, per direction. */
static void track_max(struct wlog *l, const struct io_u *io, bool queued, uint64_t now)
{
	uint64_t *m = l->max[io->op];
	uint64_t v[L_NR] = { 0, 0, queued ? io->issue_ns - io->start_ns : 0, now - io->issue_ns,
			     now - io->start_ns };

	for (unsigned k = L_SLAT; k < L_NR; k++)
		m[k] = v[k] > m[k] && l->on[k] ? v[k] : m[k];
}

void wlog_io(struct wlog *l, const struct io_u *io, bool queued, uint64_t now)
{
	struct fiolog_entry e = {
		.time_ms = (now - l->tbase) / 1000000,
		.ddir = io->op,
		.bs = (uint32_t)io->res,
		.offset = io->offset,
		.prio = io->ioprio ? io->ioprio : l->ioprio,
	};
	uint64_t lat = now - io->start_ns;

	if (!l->per_io) {
		track_max(l, io, queued, now);
		return;
	}
	if (l->on[L_BW]) {
		e.value = lat ? (uint64_t)io->res * 1000000ULL / lat : 0;
		wf_line(&l->f[L_BW], &e, l->log_offset);
	}
	if (l->on[L_IOPS]) {
		e.value = 1;
		wf_line(&l->f[L_IOPS], &e, l->log_offset);
	}
	if (queued && l->on[L_SLAT]) {
		e.value = io->issue_ns - io->start_ns;
		wf_line(&l->f[L_SLAT], &e, l->log_offset);
	}
	if (l->on[L_CLAT]) {
		e.value = now - io->issue_ns;
		wf_line(&l->f[L_CLAT], &e, l->log_offset);
	}
	if (l->on[L_LAT]) {
		e.value = lat;
		wf_line(&l->f[L_LAT], &e, l->log_offset);
	}
}

static uint64_t window_mean(const struct lat_stat *now, const struct lat_stat *then)
{
	uint64_t n = now->n - then->n;

	return n ? (now->sum - then->sum) / n : 0;
}

/*
 * The averaged lines of the window that ends at now, for the directions that did IO in it: its
 * IOs over its own length, from where the last window was taken (a window taken late does not
 * move the next one's schedule, but the next counts from where it was taken).
 */
static void avg_window(struct wlog *l, const struct worker_stats *st, uint64_t now)
{
	uint64_t ms = (now - l->tbase) / 1000000, ns = now - l->avg_from;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *ds = &st->dir[d];
		struct snap_dir *b = &l->base[d];
		uint64_t ios = ds->ios - b->ios, bytes = ds->bytes - b->bytes;
		struct fiolog_entry e = { .time_ms = ms, .ddir = d };

		if (!ios || !ns)
			continue;
		if (l->f[L_BW].fd >= 0) {
			e.value = (uint64_t)((unsigned __int128)bytes * NSEC_PER_SEC / ns / 1024);
			wf_line(&l->f[L_BW], &e, l->log_offset);
		}
		if (l->f[L_IOPS].fd >= 0) {
			e.value = (uint64_t)((unsigned __int128)ios * NSEC_PER_SEC / ns);
			wf_line(&l->f[L_IOPS], &e, l->log_offset);
		}
		if (l->f[L_LAT].fd >= 0) {
			if (ds->slat.n > b->slat.n) {
				e.value = l->track_max ? l->max[d][L_SLAT] :
							 window_mean(&ds->slat, &b->slat);
				wf_line(&l->f[L_SLAT], &e, l->log_offset);
			}
			if (ds->clat.n > b->clat.n) {
				e.value = l->track_max ? l->max[d][L_CLAT] :
							 window_mean(&ds->clat, &b->clat);
				wf_line(&l->f[L_CLAT], &e, l->log_offset);
			}
			if (ds->lat.n > b->lat.n) {
				e.value = l->track_max ? l->max[d][L_LAT] :
							 window_mean(&ds->lat, &b->lat);
				wf_line(&l->f[L_LAT], &e, l->log_offset);
			}
		}
	}
	snap_dirs_take(l->base, st);
	memset(l->max, 0, sizeof(l->max));
	l->avg_from = now;
}

/* One histogram line per direction: the clat histogram of the IOs since the last line. */
static void hist_lines(struct wlog *l, const struct worker_stats *st, uint64_t now)
{
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct hist *h = st->dir[d].clat_hist;
		size_t n;

		if (!l->hist_prev[d] || !h)
			continue;
		hist_sub(l->hist_delta, h, l->hist_prev[d]);
		hist_copy(l->hist_prev[d], h);
		fiolog_hist_bins(l->hist_delta, l->bins);
		n = fiolog_hist_format(l->line, (now - l->tbase) / 1000000, d, l->bs[d], l->bins,
				       l->coarse);
		memcpy(wf_room(&l->hist, n), l->line, n);
		l->hist.len += n;
	}
}

void wlog_tick(struct wlog *l, const struct worker_stats *st, uint64_t now)
{
	if (l->avg_ns && now >= l->next_avg) {
		avg_window(l, st, now);
		while (l->next_avg <= now)
			l->next_avg += l->avg_ns;
	}
	if (l->hist.fd >= 0 && now >= l->next_hist) {
		hist_lines(l, st, now);
		while (l->next_hist <= now)
			l->next_hist += l->hist_ns;
	}
}

int wlog_close(struct wlog *l, const struct worker_stats *st, uint64_t now, struct iowl_err *err)
{
	int first = 0;

	if (!l)
		return 0;
	/* The last, partial window and histogram, as fio writes them at the end of the job. */
	if (l->avg_ns && now > l->avg_from)
		avg_window(l, st, now);
	if (l->hist.fd >= 0 && now > l->next_hist - l->hist_ns)
		hist_lines(l, st, now);
	for (unsigned k = 0; k <= L_NR; k++) {
		struct wfile *w = k < L_NR ? &l->f[k] : &l->hist;

		if (w->fd < 0)
			continue;
		wf_flush(w);
		if (!first && w->err)
			first = w->err;
	}
	if (first)
		return err_errno(err, first, "a log is incomplete");
	return 0;
}

void wlog_free(struct wlog *l)
{
	if (!l)
		return;
	for (unsigned k = 0; k <= L_NR; k++) {
		struct wfile *w = k < L_NR ? &l->f[k] : &l->hist;

		if (w->fd >= 0)
			close(w->fd);
		free(w->buf);
		fiolog_gz_free(w->gz);
	}
	for (unsigned d = 0; d < DDIR_NR; d++)
		hist_free(l->hist_prev[d]);
	hist_free(l->hist_delta);
	free(l->bins);
	free(l->line);
	free(l);
}
