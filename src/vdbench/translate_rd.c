// SPDX-License-Identifier: MIT
/*
 * vdbench's runs as iowl steps: each rd= (or one point of its for-loops) is a phase of a step;
 * for-loops that set one option alike in every job become a --sweep, other loops one phase per
 * point, and a run's pause (pause= or a later rd's warmup) the next phase's startdelay.  The
 * jobs of each run are built by translate.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdbench/vdbench_int.h"

#define MAX_POINTS 4096

static const char *const loop_names[VDB_L_COUNT] = {
	[VDB_L_XFERSIZE] = "xfersize", [VDB_L_THREADS] = "threads",	[VDB_L_RDPCT] = "rdpct",
	[VDB_L_RHPCT] = "rhpct",       [VDB_L_WHPCT] = "whpct",		[VDB_L_SEEKPCT] = "seekpct",
	[VDB_L_HITAREA] = "hitarea",   [VDB_L_COMPRATIO] = "compratio", [VDB_L_IORATE] = "iorate",
};

/* The iowl option a loop sets alike in every job, or NULL when its points differ per job. */
static const char *const sweep_opt[VDB_L_COUNT] = {
	[VDB_L_XFERSIZE] = "bs",
	[VDB_L_THREADS] = "iodepth",
	[VDB_L_RDPCT] = "rwmixread",
	[VDB_L_SEEKPCT] = "percentage_random",
	[VDB_L_COMPRATIO] = "buffer_compress_percentage",
};

/* "threads=8 xfersize=4k": a point's loop values as vdbench prints them. */
static char *fortext(struct vdb *v, const struct vdb_rd *rd, const struct vdb_point *pt)
{
	char buf[512] = "", one[64];
	size_t len = 0;

	for (unsigned i = 0; i < rd->nloops; i++) {
		enum vdb_loopvar var = rd->loops[i].var;
		double x = pt->v[var];

		if (var == VDB_L_XFERSIZE || var == VDB_L_HITAREA)
			vdb_size_str(one, sizeof(one), x);
		else
			snprintf(one, sizeof(one), "%.10g", x);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=%s", len ? " " : "",
					loop_names[var], one);
	}
	return vdb_strdup(v, buf);
}

/* What the flatfile reports of a run: values shared by every workload, else -1. */
static void phase_figures(struct vdb *v, const struct vdb_runspec *rs, struct vdb_phase *ph)
{
	ph->xfersize = ph->rdpct = ph->rhpct = ph->whpct = ph->seekpct = -2;
	ph->threads = 0;
	for (unsigned i = 0; i < rs->nwgs; i++) {
		const struct vdb_wg *g = &rs->wgs[i];
		unsigned n;
		const double *x = vdb_xfer_of(rs, g->wd, &n);
		double vals[5] = { n == 1 ? x[0] : -1, vdb_point_or(rs, VDB_L_RDPCT, g->wd->rdpct),
				   vdb_point_or(rs, VDB_L_RHPCT, g->wd->rhpct),
				   vdb_point_or(rs, VDB_L_WHPCT, g->wd->whpct),
				   vdb_point_or(rs, VDB_L_SEEKPCT, g->wd->seekpct) };
		double *dst[5] = { &ph->xfersize, &ph->rdpct, &ph->rhpct, &ph->whpct,
				   &ph->seekpct };
		unsigned th = (unsigned)vdb_point_or(rs, VDB_L_THREADS, v->sds[g->sd].threads);

		for (unsigned k = 0; k < 5; k++)
			*dst[k] = *dst[k] == -2 ? vals[k] : *dst[k] == vals[k] ? vals[k] : -1;
		ph->threads = !i || ph->threads == th ? th : 0;
	}
	ph->compratio = vdb_compratio(v, rs);
	ph->lunsize = 0;
	for (unsigned s = 0; s < v->nsds; s++)
		for (unsigned i = 0; i < rs->nwgs; i++)
			if (rs->wgs[i].sd == s) {
				ph->lunsize += vdb_sd_bytes(v, &v->sds[s]);
				break;
			}
}

static int add_phase(struct vdb *v, struct vdb_step *st, struct vdb_runspec *rs)
{
	const struct vdb_rd *rd = rs->rd;
	struct vdb_phase *ph;
	unsigned before = st->njobs;
	int ret = 0;

	rs->phase = st->nphases;
	ph = vdb_push(v, (void **)&st->phases, &st->nphases, sizeof(*ph));
	if (!ph)
		return vdb_nomem(v, &rd->pos);
	ph->rd = rd;
	ph->fortext = fortext(v, rd, &rs->pt);
	ph->reqrate = rd->iorate == VDB_IO_RATE ? vdb_point_or(rs, VDB_L_IORATE, rd->rate) : 0;
	ph->ratetext = rd->iorate == VDB_IO_MAX	  ? "Uncontrolled MAX" :
		       rd->iorate == VDB_IO_CURVE ? "Uncontrolled curve" :
						    vdb_printf(v, "%.0f", ph->reqrate);
	phase_figures(v, rs, ph);
	rs->desc = vdb_printf(v, "vdbench rd=%s%s%s", rd->name, *ph->fortext ? " for loops: " : "",
			      ph->fortext);
	if (!rs->desc)
		return vdb_nomem(v, &rd->pos);
	for (unsigned s = 0; !ret && s < v->nsds; s++) {
		bool used = false;

		for (unsigned i = 0; i < rs->nwgs && !used; i++)
			used = rs->wgs[i].sd == s;
		if (used)
			ret = vdb_build_job(v, st, rs, s, st->njobs == before);
	}
	return ret;
}

/* The points of an rd's loops, the first loop outermost. */
static unsigned points(const struct vdb_rd *rd, struct vdb_point *pts, unsigned max)
{
	unsigned idx[VDB_MAX_LOOPS] = { 0 }, n = 0;

	for (;;) {
		if (n == max)
			return n;
		memset(&pts[n], 0, sizeof(pts[n]));
		for (unsigned l = 0; l < rd->nloops; l++) {
			pts[n].v[rd->loops[l].var] = rd->loops[l].v[idx[l]];
			pts[n].set[rd->loops[l].var] = true;
		}
		n++;
		int l = (int)rd->nloops - 1;

		for (; l >= 0; l--) {
			if (++idx[l] < rd->loops[l].n)
				break;
			idx[l] = 0;
		}
		if (l < 0)
			return n;
	}
}

/* True when the rd's loops can be a --sweep: each sets one option alike in every job. */
static bool sweepable(const struct vdb *v, const struct vdb_rd *rd)
{
	bool varies = false;

	for (unsigned l = 0; l < rd->nloops; l++)
		varies = varies || rd->loops[l].n > 1;
	/* a loop of one value is a setting: the run is a phase like any other */
	if (!varies || rd->pause || rd->iorate == VDB_IO_CURVE)
		return false;
	for (unsigned l = 0; l < rd->nloops; l++) {
		if (!sweep_opt[rd->loops[l].var])
			return false;
		/* with hit areas, the read share moves streams' weights */
		for (unsigned i = 0; rd->loops[l].var == VDB_L_RDPCT && i < v->nwds; i++)
			if (v->wds[i].rhpct || v->wds[i].whpct)
				return false;
	}
	return true;
}

static int sweep_value(struct vdb *v, struct sweep_key *k, enum vdb_loopvar var, double x,
		       const struct vdb_pos *pos)
{
	char buf[64];

	if (var == VDB_L_COMPRATIO)
		snprintf(buf, sizeof(buf), "%.0f", 100 - 100 / x);
	else
		snprintf(buf, sizeof(buf), "%.10g", x);
	if (k->nvalues == SWEEP_MAX_VALUES)
		return err_at(v->err, pos->file, pos->line, "more than %d values in a loop",
			      SWEEP_MAX_VALUES);
	k->values[k->nvalues] = vdb_strdup(v, buf);
	return k->values[k->nvalues++] ? 0 : vdb_nomem(v, pos);
}

static struct vdb_step *new_step(struct vdb *v, const struct vdb_rd *rd)
{
	struct vdb_step *st = vdb_push(v, (void **)&v->steps, &v->nsteps, sizeof(*st));

	if (st)
		st->interval = rd->interval;
	return st;
}

static int sweep_step(struct vdb *v, struct vdb_runspec *rs)
{
	const struct vdb_rd *rd = rs->rd;
	struct vdb_step *st = new_step(v, rd);

	if (!st)
		return vdb_nomem(v, &rd->pos);
	st->pause = 0;
	for (unsigned l = 0; l < rd->nloops; l++) {
		struct sweep_key *k = &st->sweeps[st->nsweeps];

		snprintf(k->key, sizeof(k->key), "%s", sweep_opt[rd->loops[l].var]);
		st->sweep_var[st->nsweeps++] = loop_names[rd->loops[l].var];
		for (unsigned i = 0; i < rd->loops[l].n; i++)
			if (sweep_value(v, k, rd->loops[l].var, rd->loops[l].v[i],
					&rd->loops[l].pos))
				return -EINVAL;
		rs->mixed_form = rs->mixed_form || rd->loops[l].var == VDB_L_RDPCT;
		rs->single_bs = rs->single_bs || rd->loops[l].var == VDB_L_XFERSIZE;
	}
	return add_phase(v, st, rs);
}

/*
 * The steps of an rd: one sweep, one curve per loop point, or one phase per point added to the
 * plain step before it (*plain: its index, -1 for none) when the interval is the same.
 * *pause: the pause= of the run just added, for the next one's startdelay.
 */
static int rd_steps(struct vdb *v, const struct vdb_rd *rd, int *plain, double *pause)
{
	struct vdb_point *pts = vdb_alloc(v, MAX_POINTS * sizeof(*pts));
	struct vdb_runspec base = { .rd = rd };
	unsigned n;
	int ret;

	if (!pts)
		return vdb_nomem(v, &rd->pos);
	n = points(rd, pts, MAX_POINTS);
	if (n == MAX_POINTS && rd->nloops)
		return err_at(v->err, rd->pos.file, rd->pos.line,
			      "rd=%s: the for-loops make more than %d runs", rd->name,
			      MAX_POINTS - 1);
	ret = vdb_collect_wgs(v, &base);
	if (ret)
		return ret;
	if (rd->iorate == VDB_IO_CURVE && rd->pause)
		return err_at(v->err, rd->pause_pos.file, rd->pause_pos.line,
			      "rd=%s: pause= between the points of iorate=curve is not supported (iowl runs them back to back)",
			      rd->name);
	if (sweepable(v, rd)) {
		if (*plain >= 0)
			v->steps[*plain].pause = *pause;
		base.pt = pts[0];
		*plain = -1;
		*pause = 0;
		return sweep_step(v, &base);
	}
	for (unsigned i = 0; i < n && !ret; i++) {
		struct vdb_runspec rs = base;
		struct vdb_step *st = *plain >= 0 ? &v->steps[*plain] : NULL;

		rs.pt = pts[i];
		if (rd->iorate == VDB_IO_CURVE || !st || st->interval != rd->interval) {
			if (st)
				st->pause = *pause;
			st = new_step(v, rd);
			if (!st)
				return vdb_nomem(v, &rd->pos);
			*pause = 0;
		}
		rs.startdelay = st->nphases ? *pause : 0;
		ret = add_phase(v, st, &rs);
		*pause = rd->pause;
		*plain = (int)(st - v->steps);
		if (rd->iorate == VDB_IO_CURVE) {
			static const double dflt[] = { 10, 50, 70, 80, 90, 100 };

			st->ncurve = rd->ncurve ? rd->ncurve : 6;
			for (unsigned c = 0; c < st->ncurve; c++)
				st->curve[c] = rd->ncurve ? rd->curve[c] : dflt[c];
			*plain = -1;
		}
	}
	return ret;
}

int vdb_translate(struct vdb *v)
{
	double pause = 0;
	int plain = -1, ret = 0;

	for (unsigned i = 0; i < v->nrds && !ret; i++)
		ret = rd_steps(v, &v->rds[i], &plain, &pause);
	return ret;
}

int vdb_step_doc(struct vdb *v, const struct vdb_step *s, struct ini_doc *doc)
{
	ini_doc_release(doc);
	for (unsigned i = 0; i < s->njobs; i++) {
		const struct vdb_job *j = &s->jobs[i];
		struct ini_section *sec =
			ini_doc_add_section(doc, j->name, j->pos.file, j->pos.line, 0);

		if (!sec)
			return vdb_nomem(v, &j->pos);
		for (unsigned k = 0; k < j->n; k++)
			if (ini_section_add(sec, j->e[k].key, j->e[k].value, j->e[k].pos.file,
					    j->e[k].pos.line))
				return vdb_nomem(v, &j->e[k].pos);
	}
	doc->ntop = 1;
	return 0;
}
