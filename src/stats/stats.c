// SPDX-License-Identifier: MIT
/* Worker statistics lifecycle: init, reset after ramp, merge across clones and jobs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/hist.h"
#include "iowl/pattern/rng.h"
#include "iowl/stats.h"

static void dir_init(struct dir_stats *d)
{
	/* ios and bytes are read by the run's status line while the worker resets them (ramp). */
	__atomic_store_n(&d->ios, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d->bytes, 0, __ATOMIC_RELAXED);
	d->short_ios = d->errors = d->zero_reads = d->zero_checked = 0;
	d->zero_cand = d->zero_scanned = 0;
	d->zero_gap = d->zero_w = 0;
	lat_init(&d->slat);
	lat_init(&d->clat);
	lat_init(&d->lat);
	lat_init(&d->sched);
	lat_init(&d->bw_samples);
	lat_init(&d->iops_samples);
}

int stats_init(struct worker_stats *s, unsigned dirs, bool slat_hist, bool clat_hist, bool lat_hist)
{
	memset(s, 0, sizeof(*s));
	for (unsigned d = 0; d < DDIR_NR; d++) {
		struct dir_stats *ds = &s->dir[d];

		dir_init(ds);
		if (!(dirs & (1U << d))) /* a direction the job never issues keeps no histogram */
			continue;
		/* calloc: pages of bins never hit are never touched, so they cost no memory. */
		if ((slat_hist && !(ds->slat_hist = hist_alloc())) ||
		    (clat_hist && !(ds->clat_hist = hist_alloc())) ||
		    (lat_hist && !(ds->lat_hist = hist_alloc()))) {
			stats_release(s);
			return -ENOMEM;
		}
	}
	lat_init(&s->sync_lat);
	return 0;
}

int stats_streams_init(struct worker_stats *s, unsigned n)
{
	free(s->streams);
	s->streams = n ? calloc(n, sizeof(*s->streams)) : NULL;
	s->nstreams = s->streams ? n : 0;
	for (unsigned i = 0; i < s->nstreams; i++)
		for (unsigned d = 0; d < DDIR_NR; d++)
			lat_init(&s->streams[i].clat[d]);
	return n && !s->streams ? -ENOMEM : 0;
}

int stats_stream_hist(struct worker_stats *s, unsigned i, unsigned d)
{
	if (!s->streams[i].clat_hist[d])
		s->streams[i].clat_hist[d] = hist_alloc();
	return s->streams[i].clat_hist[d] ? 0 : -ENOMEM;
}

static int hist_merge_alloc(struct hist **dst, const struct hist *src)
{
	if (!src)
		return 0;
	if (!*dst && !(*dst = hist_alloc()))
		return -ENOMEM;
	hist_merge(*dst, src);
	return 0;
}

int stats_prio_slot(struct dir_stats *d, uint16_t ioprio, bool hist)
{
	struct prio_stats *p = d->prios;
	unsigned k = stats_prio_key(ioprio), i;

	if (!p && !(p = d->prios = calloc(1, sizeof(*p))))
		return -ENOMEM;
	if (p->slot[k])
		return 0;
	i = p->n;
	if (hist && !(p->hist[i] = hist_alloc()))
		return -ENOMEM;
	p->ioprio[i] = ioprio;
	lat_init(&p->lat[i]);
	p->slot[k] = (uint8_t)(++p->n);
	return 0;
}

static void prios_free(struct dir_stats *d)
{
	for (unsigned i = 0; d->prios && i < d->prios->n; i++)
		hist_free(d->prios->hist[i]);
	free(d->prios);
	d->prios = NULL;
}

/* As fio sums its per-priority figures: by ioprio value, new ones after the others. */
static int prios_merge(struct dir_stats *d, const struct prio_stats *s)
{
	for (unsigned i = 0; s && i < s->n; i++) {
		unsigned j;

		if (!s->lat[i].n)
			continue;
		if (stats_prio_slot(d, s->ioprio[i], false))
			return -ENOMEM;
		j = d->prios->slot[stats_prio_key(s->ioprio[i])] - 1U;
		lat_merge(&d->prios->lat[j], &s->lat[i]);
		if (hist_merge_alloc(&d->prios->hist[j], s->hist[i]))
			return -ENOMEM;
	}
	return 0;
}

int stats_steps_init(struct worker_stats *s, unsigned n, bool hist)
{
	s->steps = calloc(n, sizeof(*s->steps));
	if (!s->steps)
		return -ENOMEM;
	s->nsteps = n;
	for (unsigned i = 0; i < n; i++) {
		lat_init(&s->steps[i].clat);
		if (hist && !(s->steps[i].clat_hist = hist_alloc()))
			return -ENOMEM;
	}
	return 0;
}

static int steps_merge(struct worker_stats *dst, const struct worker_stats *src)
{
	if (!src->nsteps)
		return 0;
	if (!dst->steps && stats_steps_init(dst, src->nsteps, false))
		return -ENOMEM;
	for (unsigned i = 0; i < src->nsteps && i < dst->nsteps; i++) {
		struct step_stats *d = &dst->steps[i];
		const struct step_stats *s = &src->steps[i];

		d->ios += s->ios;
		d->bytes += s->bytes;
		d->workers += s->workers;
		lat_merge(&d->clat, &s->clat);
		if (s->ns > d->ns)
			d->ns = s->ns;
		if (hist_merge_alloc(&d->clat_hist, s->clat_hist))
			return -ENOMEM;
	}
	return 0;
}

void stats_reset(struct worker_stats *s)
{
	for (unsigned d = 0; d < DDIR_NR; d++) {
		struct dir_stats *ds = &s->dir[d];

		dir_init(ds);
		if (ds->slat_hist)
			hist_clear(ds->slat_hist);
		if (ds->clat_hist)
			hist_clear(ds->clat_hist);
		if (ds->lat_hist)
			hist_clear(ds->lat_hist);
		if (ds->sched_hist)
			hist_clear(ds->sched_hist);
		for (unsigned i = 0; ds->prios && i < ds->prios->n; i++) {
			lat_init(&ds->prios->lat[i]);
			if (ds->prios->hist[i])
				hist_clear(ds->prios->hist[i]);
		}
	}
	lat_init(&s->sync_lat);
	memset(s->depth, 0, sizeof(s->depth));
	memset(s->submit, 0, sizeof(s->submit));
	memset(s->complete, 0, sizeof(s->complete));
	for (unsigned i = 0; s->streams && i < s->nstreams; i++)
		for (unsigned d = 0; d < DDIR_NR; d++) {
			s->streams[i].ios[d] = s->streams[i].bytes[d] = 0;
			lat_init(&s->streams[i].clat[d]);
			if (s->streams[i].clat_hist[d])
				hist_clear(s->streams[i].clat_hist[d]);
		}
	s->runtime_ns = s->clones_runtime_ns = 0;
	s->think_stalls = s->think_ns = s->think_spin_ns = 0;
	s->read_runtime_ns = 0;
}

uint64_t stats_dir_runtime(const struct worker_stats *s, unsigned d)
{
	return d == 0 && s->read_runtime_ns ? s->read_runtime_ns : s->runtime_ns;
}

uint64_t stats_clones_runtime(const struct worker_stats *s)
{
	return s->clones_runtime_ns ? s->clones_runtime_ns : s->runtime_ns;
}

static int dir_merge(struct dir_stats *d, const struct dir_stats *s)
{
	d->ios += s->ios;
	d->bytes += s->bytes;
	d->short_ios += s->short_ios;
	d->zero_reads += s->zero_reads;
	d->zero_checked += s->zero_checked;
	d->zero_cand += s->zero_cand;
	d->zero_scanned += s->zero_scanned;
	d->errors += s->errors;
	lat_merge(&d->slat, &s->slat);
	lat_merge(&d->clat, &s->clat);
	lat_merge(&d->lat, &s->lat);
	lat_merge(&d->sched, &s->sched);
	lat_merge(&d->bw_samples, &s->bw_samples);
	lat_merge(&d->iops_samples, &s->iops_samples);
	if (hist_merge_alloc(&d->slat_hist, s->slat_hist) ||
	    hist_merge_alloc(&d->clat_hist, s->clat_hist) ||
	    hist_merge_alloc(&d->lat_hist, s->lat_hist) ||
	    hist_merge_alloc(&d->sched_hist, s->sched_hist))
		return -ENOMEM;
	return prios_merge(d, s->prios);
}

/* fio's sum of rate samples across directions: mins, maxes, means and variances add up. */
static void samples_sum(struct lat_stat *d, const struct lat_stat *s)
{
	double dn = (double)d->n, sn = (double)s->n, n = dn + sn, mean, var;

	if (!s->n)
		return;
	if (!d->n) {
		*d = *s;
		return;
	}
	mean = lat_mean(d) + lat_mean(s);
	var = (dn > 1 ? lat_stddev(d) * lat_stddev(d) * (dn - 1) : 0) +
	      (sn > 1 ? lat_stddev(s) * lat_stddev(s) * (sn - 1) : 0);
	d->min = lat_min(d) + lat_min(s);
	d->max += s->max;
	d->n += s->n;
	d->sum = (uint64_t)(mean * n + 0.5);
	d->sumsq = (unsigned __int128)(var + mean * mean * n + 0.5);
}

int stats_mixed(struct worker_stats *out, const struct worker_stats *src)
{
	uint64_t rt = 0;

	if (stats_init(out, 0, false, false, false))
		return -ENOMEM;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		struct lat_stat bw = out->dir[0].bw_samples, iops = out->dir[0].iops_samples;

		if (dir_merge(&out->dir[0], &src->dir[d])) {
			stats_release(out);
			return -ENOMEM;
		}
		out->dir[0].bw_samples = bw;
		out->dir[0].iops_samples = iops;
		samples_sum(&out->dir[0].bw_samples, &src->dir[d].bw_samples);
		samples_sum(&out->dir[0].iops_samples, &src->dir[d].iops_samples);
		if ((src->dir[d].ios || src->dir[d].bytes) && stats_dir_runtime(src, d) > rt)
			rt = stats_dir_runtime(src, d);
	}
	lat_merge(&out->sync_lat, &src->sync_lat);
	out->runtime_ns = rt ? rt : src->runtime_ns;
	return 0;
}

int stats_fold_mixed(struct worker_stats *s)
{
	struct worker_stats m;

	if (stats_mixed(&m, s))
		return -ENOMEM;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		hist_free(s->dir[d].slat_hist);
		hist_free(s->dir[d].clat_hist);
		hist_free(s->dir[d].lat_hist);
		hist_free(s->dir[d].sched_hist);
		prios_free(&s->dir[d]);
		s->dir[d] = m.dir[d];
	}
	s->runtime_ns = m.runtime_ns;
	s->read_runtime_ns = 0;
	lat_init(&m.sync_lat);
	return 0;
}

void stats_cfill_add(struct cfill_stats *dst, const struct cfill_stats *src)
{
	if (!src->unit)
		return;
	dst->distinct += src->distinct;
	dst->blocks += src->blocks;
	dst->ios += src->ios;
	dst->unit = dst->unit && dst->unit < src->unit ? dst->unit : src->unit;
	dst->estimated = dst->estimated || src->estimated;
}

int stats_merge(struct worker_stats *dst, const struct worker_stats *src)
{
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (dir_merge(&dst->dir[d], &src->dir[d]))
			return -ENOMEM;
	lat_merge(&dst->sync_lat, &src->sync_lat);
	for (unsigned i = 0; i < STATS_BUCKETS; i++) {
		dst->depth[i] += src->depth[i];
		dst->submit[i] += src->submit[i];
		dst->complete[i] += src->complete[i];
	}
	dst->clones_runtime_ns = stats_clones_runtime(dst) + stats_clones_runtime(src);
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	if (stats_dir_runtime(src, 0) > stats_dir_runtime(dst, 0))
		dst->read_runtime_ns = stats_dir_runtime(src, 0);
	dst->usr_ns += src->usr_ns;
	if (src->latency_depth > dst->latency_depth)
		dst->latency_depth = src->latency_depth;
	dst->sys_ns += src->sys_ns;
	dst->ctx += src->ctx;
	if (!dst->setup.set)
		dst->setup = src->setup;
	dst->think_stalls += src->think_stalls;
	dst->think_ns += src->think_ns;
	dst->think_spin_ns += src->think_spin_ns;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->errors += src->errors;
	stats_cfill_add(&dst->cfill, &src->cfill);
	if (!dst->first_error.err && src->first_error.err)
		dst->first_error = src->first_error;
	if (src->nstreams && !dst->streams && stats_streams_init(dst, src->nstreams))
		return -ENOMEM;
	for (unsigned i = 0; i < src->nstreams && i < dst->nstreams; i++)
		for (unsigned d = 0; d < DDIR_NR; d++) {
			dst->streams[i].ios[d] += src->streams[i].ios[d];
			dst->streams[i].bytes[d] += src->streams[i].bytes[d];
			lat_merge(&dst->streams[i].clat[d], &src->streams[i].clat[d]);
			if (hist_merge_alloc(&dst->streams[i].clat_hist[d],
					     src->streams[i].clat_hist[d]))
				return -ENOMEM;
		}
	return steps_merge(dst, src);
}

void stats_take(struct worker_stats *dst, struct worker_stats *src)
{
	stats_release(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}

void stats_release(struct worker_stats *s)
{
	for (unsigned d = 0; d < DDIR_NR; d++) {
		hist_free(s->dir[d].slat_hist);
		hist_free(s->dir[d].clat_hist);
		hist_free(s->dir[d].lat_hist);
		hist_free(s->dir[d].sched_hist);
		s->dir[d].slat_hist = s->dir[d].clat_hist = s->dir[d].lat_hist = NULL;
		s->dir[d].sched_hist = NULL;
		prios_free(&s->dir[d]);
	}
	for (unsigned i = 0; s->streams && i < s->nstreams; i++)
		for (unsigned d = 0; d < DDIR_NR; d++)
			hist_free(s->streams[i].clat_hist[d]);
	free(s->streams);
	s->streams = NULL;
	s->nstreams = 0;
	for (unsigned i = 0; s->steps && i < s->nsteps; i++)
		hist_free(s->steps[i].clat_hist);
	free(s->steps);
	s->steps = NULL;
	s->nsteps = 0;
}

double stats_zero_share(const struct dir_stats *d)
{
	if (!d->zero_checked)
		return -1;
	if (!d->zero_scanned)
		return 0;
	return (double)d->zero_cand / (double)d->zero_checked * (double)d->zero_reads /
	       (double)d->zero_scanned;
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

/* Reads past ZERO_ALL: after this many, only one in about 64 is looked at (stats_count_zero()). */
#define ZERO_ALL 65536

/* The zero-read share's random draw for one read: keyed by its offset and the count so far. */
static uint64_t zero_draw(const struct dir_stats *ds, uint64_t offset)
{
	return rng_mix64(offset ^ ds->zero_checked * 0x9e3779b97f4a7c15ULL);
}

/* The next gap between looked-at reads: 1 to 127, 64 on average. */
static uint32_t zero_gap(const struct dir_stats *ds, uint64_t offset)
{
	return 1 + (uint32_t)(zero_draw(ds, offset) % 127);
}

/*
 * Counts a read for the zero-read share (stats_zero_share()).  Looking at a read's buffer at all
 * costs a cache miss (the kernel filled it, often on another CPU): a fifth of iowl's user CPU
 * per IO at 350 k io_uring reads a second.  Scanning a buffer of zeros whole costs 0.3 us a
 * 4 KiB read.  So the first ZERO_ALL reads are all looked at and their candidates scanned (the
 * first 1024 of them, then one in 64 drawn at random, not every 64th, which a stride of zeros
 * lines up with); past that only one read in about 64, at random gaps of 1 to 127, is looked at
 * and weighs its gap: every estimate stays unbiased when the share changes during the run.
 */
void stats_count_zero(struct dir_stats *ds, const void *buf, uint32_t len, uint64_t offset)
{
	bool sampled = ds->zero_checked >= ZERO_ALL;
	uint64_t w = 1;

	if (sampled) {
		if (--ds->zero_gap)
			return;
		w = ds->zero_w;
		ds->zero_w = ds->zero_gap = zero_gap(ds, offset);
	} else if (ds->zero_checked == ZERO_ALL - 1) {
		ds->zero_w = ds->zero_gap = zero_gap(ds, offset);
	}
	ds->zero_checked += w;
	if (!maybe_zero(buf, len))
		return;
	ds->zero_cand += w;
	if (sampled || ds->zero_checked <= 1024) {
		ds->zero_scanned += w;
		ds->zero_reads += all_zero(buf, len) ? w : 0;
	} else if (!(zero_draw(ds, offset) & 63)) {
		ds->zero_scanned += 64;
		ds->zero_reads += all_zero(buf, len) ? 64 : 0;
	}
}
