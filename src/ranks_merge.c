// SPDX-License-Identifier: MIT
/* Rank 0 adds another rank's unit into the run's unit of the same job and clone (ranks.h): its figures, histograms, interval series (percentiles from the merged bins), streams and steps. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/hist.h"
#include "iowl/interval.h"
#include "iowl/job.h"
#include "iowl/ranks.h"
#include "iowl/result.h"
#include "ranks_int.h"

/*
 * Adds another rank's interval points (and their histograms h, NULL: none) to a unit's,
 * interval by interval (every rank's intervals count from the same barrier, ivl_point_merge()),
 * and their histograms.  The percentiles are set from the merged histograms once every rank's
 * are in (ranks_series_pcts()).
 */
static int merge_series(struct ivl_series *s, const struct ivl_point *p, struct ivl_hist *h,
			unsigned n, uint64_t period_ns)
{
	if (n > s->cap || (h && !s->h)) {
		unsigned cap = n > s->cap ? n : s->cap;
		struct ivl_point *q = realloc(s->p, cap * sizeof(*q));
		struct ivl_hist *qh;

		if (!q)
			return -ENOMEM;
		memset(q + s->n, 0, (cap - s->n) * sizeof(*q));
		s->p = q;
		if (h || s->h) {
			size_t had = s->h ? (size_t)s->n * DDIR_NR : 0; /* none kept: all empty */

			if (!(qh = realloc(s->h, (size_t)cap * DDIR_NR * sizeof(*qh))))
				return -ENOMEM;
			memset(qh + had, 0, ((size_t)cap * DDIR_NR - had) * sizeof(*qh));
			s->h = qh;
		}
		s->cap = cap;
	}
	if (!s->period_ns)
		s->period_ns = period_ns;
	for (unsigned i = 0; i < n; i++) {
		struct ivl_point *x = &s->p[i];
		bool fresh = i >= s->n;

		if (fresh) {
			*x = p[i];
			x->dev = -1;
			x->dev_read_bytes = 0;
			x->cache_hit = -1;
			memset(&x->cfill, 0, sizeof(x->cfill));
		} else {
			ivl_point_merge(x, &p[i]);
		}
		for (unsigned d = 0; h && d < DDIR_NR; d++)
			if (ivl_hist_add(&s->h[(size_t)i * DDIR_NR + d],
					 &h[(size_t)i * DDIR_NR + d]))
				return -ENOMEM;
	}
	if (n > s->n)
		s->n = n;
	return 0;
}

/* Every point's percentiles from its merged histograms (none kept: 0, none). */
int ranks_series_pcts(struct ivl_series *s)
{
	struct hist *scratch;

	if (!s->h || !s->n)
		return 0;
	if (!(scratch = hist_alloc()))
		return -ENOMEM;
	for (unsigned i = 0; i < s->n; i++) {
		for (unsigned d = 0; d < DDIR_NR; d++) {
			const struct ivl_hist *h = &s->h[(size_t)i * DDIR_NR + d];

			hist_clear(scratch);
			for (uint32_t k = 0; k < h->n; k++)
				scratch->count[h->b[k].bin] = h->b[k].count;
			ivl_point_pcts(&s->p[i], d, h->n ? scratch : NULL);
		}
	}
	hist_free(scratch);
	return 0;
}

/* Adds a unit from another rank into the unit of the same job and clone. */
int ranks_merge_unit(const struct ranks_run *rr, struct run_outcome *o, struct wire_rd *r)
{
	struct wire_unit wu;
	struct worker_stats st;
	struct job_result *u;
	struct ivl_point *pts = NULL;
	struct ivl_hist *ph = NULL;
	char *why = NULL;
	int ret = 0;

	wire_get(r, &wu, sizeof(wu));
	if (r->bad || wu.job >= rr->njobs)
		return -EPROTO;
	st = wu.st;
	if (wu.whylen) {
		if (!(why = calloc(1, wu.whylen + 1)))
			return -ENOMEM;
		wire_get(r, why, wu.whylen);
	}
	for (unsigned i = 0; i < WIRE_NHIST && !ret; i++) {
		if (!(wu.hmask & (1U << i)))
			continue;
		if (!(*wire_hist_slot(&st, i) = hist_alloc()))
			ret = -ENOMEM;
		else
			wire_get_hist(r, *wire_hist_slot(&st, i));
	}
	if (!ret && wu.npoints && wu.npoints <= 100000000 &&
	    !(pts = calloc(wu.npoints, sizeof(*pts))))
		ret = -ENOMEM;
	if (!ret && wu.npoints)
		wire_get(r, pts, wu.npoints * sizeof(*pts));
	if (!ret && wu.npoints && wu.hists)
		ret = wire_get_point_hists(r, wu.npoints, &ph);
	if (!ret)
		ret = wire_get_parts(r, &st);
	u = ret || r->bad ? NULL : results_unit(&o->res, &rr->jobs[wu.job], wu.clone);
	if (!ret && !r->bad && !u)
		ret = -ENOMEM;
	if (u && wu.npoints)
		ret = merge_series(&u->series, pts, ph, wu.npoints, wu.period_ns);
	if (u && !ret && !(ret = stats_merge(&u->st, &st))) {
		if (u->not_run && !wu.not_run) { /* it ran there: not "not run" */
			free(u->why);
			u->why = NULL;
			u->not_run = false;
			u->error = 0;
		}
		if (!u->why && why && (wu.not_run == u->not_run || !u->nworkers)) {
			u->why = why;
			u->not_run = wu.not_run;
			why = NULL;
		}
		if (!u->error && wu.error && !wu.not_run)
			u->error = wu.error;
		u->nworkers += wu.nworkers;
		if (wu.elapsed_ns > u->elapsed_ns)
			u->elapsed_ns = wu.elapsed_ns;
	}
	stats_release(&st); /* its histograms, streams and steps */
	wire_point_hists_free(ph, wu.npoints);
	free(pts);
	free(why);
	return r->bad ? -EPROTO : ret;
}
