// SPDX-License-Identifier: MIT
/* The bytes of a rank's results (ranks.h): a unit with its histograms, interval points, streams and steps packed for rank 0, and read back there. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/hist.h"
#include "iowl/interval.h"
#include "iowl/job.h"
#include "iowl/result.h"
#include "ranks_int.h"

void wire_put(struct wire *w, const void *b, size_t n)
{
	if (w->err || !n) /* nothing (b may be NULL: no interval points, no --iostat) */
		return;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		char *p;

		while (cap < w->len + n)
			cap *= 2;
		if (!(p = realloc(w->p, cap))) {
			w->err = true;
			return;
		}
		w->p = p;
		w->cap = cap;
	}
	memcpy(w->p + w->len, b, n);
	w->len += n;
}

void wire_get(struct wire_rd *r, void *b, size_t n)
{
	if (r->bad || r->len - r->off < n) {
		r->bad = true;
		memset(b, 0, n);
		return;
	}
	memcpy(b, r->p + r->off, n);
	r->off += n;
}

/* The histograms of a unit's statistics, in a fixed order. */
struct hist **wire_hist_slot(struct worker_stats *st, unsigned i)
{
	struct dir_stats *d = &st->dir[i / 4];

	switch (i % 4) {
	case 0: return &d->slat_hist;
	case 1: return &d->clat_hist;
	case 2: return &d->lat_hist;
	default: return &d->sched_hist;
	}
}

/* A histogram as its non-empty bins: a count, then (bin, count) pairs. */
static void wire_put_hist(struct wire *w, const struct hist *h)
{
	uint32_t n = 0;

	for (unsigned b = 0; b < HIST_NR; b++)
		n += h->count[b] != 0;
	wire_put(w, &n, sizeof(n));
	for (uint32_t b = 0; b < HIST_NR; b++) {
		if (!h->count[b])
			continue;
		wire_put(w, &b, sizeof(b));
		wire_put(w, &h->count[b], sizeof(h->count[b]));
	}
}

void wire_get_hist(struct wire_rd *r, struct hist *h)
{
	uint32_t n, b;
	uint64_t c;

	wire_get(r, &n, sizeof(n));
	for (uint32_t i = 0; i < n && !r->bad; i++) {
		wire_get(r, &b, sizeof(b));
		wire_get(r, &c, sizeof(c));
		if (b >= HIST_NR)
			r->bad = true;
		else
			h->count[b] += c;
	}
}

/*
 * A unit's per-stream figures (vdbench streams) and worker-ramp steps: a count each, then every
 * one (its pointers cleared) with a mask of the histograms that follow.  Stream i and step i of
 * every rank add up (stats_merge()), as the workers' of one rank do.
 */
static void put_parts(struct wire *w, const struct worker_stats *st)
{
	uint32_t n = st->nstreams;

	wire_put(w, &n, sizeof(n));
	for (uint32_t i = 0; i < n; i++) {
		struct stream_stats x = st->streams[i];
		uint32_t m = 0;

		for (unsigned d = 0; d < DDIR_NR; d++) {
			m |= x.clat_hist[d] ? 1U << d : 0;
			x.clat_hist[d] = NULL;
		}
		wire_put(w, &x, sizeof(x));
		wire_put(w, &m, sizeof(m));
		for (unsigned d = 0; d < DDIR_NR; d++)
			if (m & (1U << d))
				wire_put_hist(w, st->streams[i].clat_hist[d]);
	}
	n = st->nsteps;
	wire_put(w, &n, sizeof(n));
	for (uint32_t i = 0; i < n; i++) {
		struct step_stats x = st->steps[i];
		uint32_t m = x.clat_hist != NULL;

		x.clat_hist = NULL;
		wire_put(w, &x, sizeof(x));
		wire_put(w, &m, sizeof(m));
		if (m)
			wire_put_hist(w, st->steps[i].clat_hist);
	}
}

/* Reads what put_parts() wrote into st (whose streams and steps are empty).  Returns 0 or -errno. */
int wire_get_parts(struct wire_rd *r, struct worker_stats *st)
{
	uint32_t n, m;

	wire_get(r, &n, sizeof(n));
	if (r->bad || n > 1000000)
		return -EPROTO;
	if (n && !(st->streams = calloc(n, sizeof(*st->streams))))
		return -ENOMEM;
	st->nstreams = n;
	for (uint32_t i = 0; i < n && !r->bad; i++) {
		struct stream_stats *x = &st->streams[i];

		wire_get(r, x, sizeof(*x));
		wire_get(r, &m, sizeof(m));
		for (unsigned d = 0; d < DDIR_NR; d++) {
			x->clat_hist[d] = NULL;
			if (!(m & (1U << d)) || r->bad)
				continue;
			if (!(x->clat_hist[d] = hist_alloc()))
				return -ENOMEM;
			wire_get_hist(r, x->clat_hist[d]);
		}
	}
	wire_get(r, &n, sizeof(n));
	if (r->bad || n > 1000000)
		return -EPROTO;
	if (n && !(st->steps = calloc(n, sizeof(*st->steps))))
		return -ENOMEM;
	st->nsteps = n;
	for (uint32_t i = 0; i < n && !r->bad; i++) {
		struct step_stats *x = &st->steps[i];

		wire_get(r, x, sizeof(*x));
		wire_get(r, &m, sizeof(m));
		x->clat_hist = NULL;
		if (m && !r->bad) {
			if (!(x->clat_hist = hist_alloc()))
				return -ENOMEM;
			wire_get_hist(r, x->clat_hist);
		}
	}
	return r->bad ? -EPROTO : 0;
}

/* The job's index in the run, as the units carry it. */
void wire_put_unit(struct wire *w, const struct job_result *u)
{
	struct wire_unit wu;
	struct worker_stats *st = &wu.st;

	memset(&wu, 0, sizeof(wu));
	wu.job = u->job->index;
	wu.clone = u->clone;
	wu.nworkers = u->nworkers;
	wu.error = u->error;
	wu.not_run = u->not_run;
	wu.elapsed_ns = u->elapsed_ns;
	wu.whylen = u->why ? (uint32_t)strlen(u->why) : 0;
	wu.npoints = u->series.n;
	wu.hists = u->series.h != NULL;
	wu.period_ns = u->series.period_ns;
	*st = u->st;
	/* The per-stream and worker-ramp figures follow the interval points (put_parts()). */
	st->streams = NULL;
	st->nstreams = 0;
	st->steps = NULL;
	st->nsteps = 0;
	for (unsigned d = 0; d < DDIR_NR; d++) /* and so do the per-priority ones */
		st->dir[d].prios = NULL;
	for (unsigned i = 0; i < WIRE_NHIST; i++) {
		if (*wire_hist_slot(st, i))
			wu.hmask |= 1U << i;
		*wire_hist_slot(st, i) = NULL;
	}
	wire_put(w, &wu, sizeof(wu));
	if (wu.whylen)
		wire_put(w, u->why, wu.whylen);
	for (unsigned i = 0; i < WIRE_NHIST; i++)
		if (wu.hmask & (1U << i))
			wire_put_hist(w, *wire_hist_slot((struct worker_stats *)&u->st, i));
	wire_put(w, u->series.p, wu.npoints * sizeof(*u->series.p));
	for (size_t i = 0; wu.hists && i < (size_t)wu.npoints * DDIR_NR; i++) {
		wire_put(w, &u->series.h[i].n, sizeof(u->series.h[i].n));
		wire_put(w, u->series.h[i].b, u->series.h[i].n * sizeof(*u->series.h[i].b));
	}
	put_parts(w, &u->st);
}

/* Reads a unit's points' histograms (n points) into *out.  Returns 0 or -errno. */
int wire_get_point_hists(struct wire_rd *r, unsigned n, struct ivl_hist **out)
{
	struct ivl_hist *h = calloc((size_t)n * DDIR_NR, sizeof(*h));

	*out = h;
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < (size_t)n * DDIR_NR && !r->bad; i++) {
		uint32_t k;

		wire_get(r, &k, sizeof(k));
		if (r->bad || k > HIST_NR)
			return -EPROTO;
		if (k && !(h[i].b = malloc(k * sizeof(*h[i].b))))
			return -ENOMEM;
		if (k)
			wire_get(r, h[i].b, k * sizeof(*h[i].b));
		h[i].n = r->bad ? 0 : k;
		for (uint32_t j = 0; j < h[i].n; j++)
			if (h[i].b[j].bin >= HIST_NR || (j && h[i].b[j].bin <= h[i].b[j - 1].bin))
				return -EPROTO;
	}
	return r->bad ? -EPROTO : 0;
}

void wire_point_hists_free(struct ivl_hist *h, unsigned n)
{
	for (size_t i = 0; h && i < (size_t)n * DDIR_NR; i++)
		free(h[i].b);
	free(h);
}
