// SPDX-License-Identifier: MIT
/* --curve: vdbench's iorate=curve: a run at maximum rate, then runs at fractions of it, latency against throughput. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/curve.h"
#include "iowl/report.h"
#include "iowl/hist.h"
#include "iowl/outfile.h"
#include "iowl/progress.h"
#include "iowl/version.h"

struct curve_point {
	double pct;			/* of the maximum rate; 0 for the maximum run itself */
	double target, iops;
	double clat_mean_us, sched_mean_us, sched_p99_us;
	int status;
};

int curve_parse(const char *text, struct run_opts *o, struct iowl_err *err)
{
	const char *p = text ? text : "10,50,70,80,90,100";

	o->ncurve = 0;
	while (*p) {
		char *end;
		double v = strtod(p, &end);

		if (end == p || !(v > 0 && v <= 100) || (*end && *end != ','))
			return err_set(err, "--curve=%s: give percentages of the maximum rate above 0 and up to 100, e.g. --curve=10,50,90,100",
				       p);
		if (o->ncurve == CURVE_MAX_POINTS)
			return err_set(err, "--curve: at most %d points", CURVE_MAX_POINTS);
		o->curve[o->ncurve++] = v;
		p = *end ? end + 1 : end;
	}
	return o->ncurve ? 0 : err_set(err, "--curve: no points");
}

/* Total IOPS, the share of each direction, and clone count of a collected run. */
static void totals(const struct iowl_run *run, const struct run_outcome *o, double *iops,
		   double share[DDIR_NR], unsigned *clones)
{
	uint64_t ios[DDIR_NR] = { 0, 0, 0 }, all = 0;

	*iops = 0;
	for (unsigned i = 0; i < o->r.nunits; i++) {
		const struct worker_stats *st = &o->r.units[i].st;
		double secs = (double)st->runtime_ns / 1e9;

		for (unsigned d = 0; d < DDIR_NR; d++) {
			*iops += secs > 0 ? (double)st->dir[d].ios / secs : 0;
			ios[d] += st->dir[d].ios;
			all += st->dir[d].ios;
		}
	}
	for (unsigned d = 0; d < DDIR_NR; d++)
		share[d] = all ? (double)ios[d] / (double)all : 0;
	*clones = 0;
	for (unsigned j = 0; j < run->njobs; j++)
		*clones += run->jobs[j].o.numjobs;
}

static void latencies(const struct run_outcome *o, struct curve_point *pt)
{
	struct hist *h = hist_alloc();
	struct lat_stat clat, sched;
	double p = 99;
	uint64_t p99 = 0;

	lat_init(&clat);
	lat_init(&sched);
	for (unsigned i = 0; i < o->r.nunits; i++)
		for (unsigned d = 0; d < DDIR_NR; d++) {
			const struct dir_stats *ds = &o->r.units[i].st.dir[d];

			lat_merge(&clat, &ds->clat);
			lat_merge(&sched, &ds->sched);
			if (h && ds->sched_hist)
				hist_merge(h, ds->sched_hist);
		}
	if (h && sched.n)
		hist_percentiles(h, lat_min(&sched), sched.max, &p, 1, &p99);
	hist_free(h);
	pt->clat_mean_us = lat_mean(&clat) / 1e3;
	pt->sched_mean_us = sched.n ? lat_mean(&sched) / 1e3 : pt->clat_mean_us;
	pt->sched_p99_us = (double)p99 / 1e3;
}

/* One run with the --set list extended by rate_iops=r,w,t (none for the maximum run). */
static int run_point(struct iowl_run *run, struct job_set *base, unsigned nbase, const char *rate,
		     struct run_outcome *o, struct iowl_err *err)
{
	static char key[] = "rate_iops";
	struct run_opts *ro = &run->opts;
	int ret;

	if (nbase)
		memcpy(ro->sets, base, nbase * sizeof(*base));
	ro->nsets = nbase;
	if (rate) {
		ro->sets[nbase] = (struct job_set){ key, (char *)rate };
		ro->nsets++;
	}
	ret = run_rebuild(run, err);
	if (ret)
		return ret;
	run_collect(run, o);	/* its failures are in o, for run_status() */
	return 0;
}

/* A job's own rate options that --curve cannot combine with the rate_iops it sets itself. */
static int check_own_rates(const struct job *job, struct iowl_err *err)
{
	static const enum opt_id opts[] = { OPT_ID_rate, OPT_ID_rate_iops, OPT_ID_rate_min,
					    OPT_ID_rate_iops_min };

	for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *name = opt_by_id(opts[i])->name;

		if (job_opt_is_set(job, opts[i]))
			return job_opt_err(job, opts[i], err,
					   "--curve sets each point's rate_iops itself: a job with %s of its own would not measure the curve (drop %s)",
					   name, name);
	}
	return 0;
}

int curve_prepare(struct iowl_run *run, struct iowl_err *err)
{
	struct run_opts *ro = &run->opts;
	unsigned nbase = ro->nsets;
	struct job_set *base = ro->sets;
	static char key[] = "rate_iops", value[] = "1,1,1";
	int ret = 0;

	for (unsigned j = 0; j < run->njobs && !ret; j++)
		ret = check_own_rates(&run->jobs[j], err);
	if (ret)
		return ret;
	/* A rated point, built as the curve will build it. */
	ro->sets = calloc(nbase + 1, sizeof(*ro->sets));
	if (!ro->sets) {
		ro->sets = base;
		return err_nomem(err, "out of memory");
	}
	if (nbase)
		memcpy(ro->sets, base, nbase * sizeof(*base));
	ro->sets[nbase] = (struct job_set){ key, value };
	ro->nsets = nbase + 1;
	ret = run_rebuild(run, err);
	free(ro->sets);
	ro->sets = base;
	ro->nsets = nbase;
	return ret ? ret : run_rebuild(run, err);
}

/* The knee: the first load whose mean schedule-based latency is over twice the lightest load's. */
static int knee(const struct curve_point *pts, unsigned n)
{
	for (unsigned i = 2; i < n; i++)
		if (pts[i].sched_mean_us > 2 * pts[1].sched_mean_us)
			return (int)i;
	return -1;
}

/* The curve as one JSON document (new reference). */
static json_t *json_doc(const struct curve_point *pts, unsigned n)
{
	json_t *a = json_array();
	int k = knee(pts, n);

	for (unsigned i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:i}",
						   "pct", pts[i].pct, "target_iops", pts[i].target,
						   "iops", pts[i].iops, "clat_mean_us",
						   pts[i].clat_mean_us, "sched_lat_mean_us",
						   pts[i].sched_mean_us, "sched_lat_p99_us",
						   pts[i].sched_p99_us, "status", pts[i].status));
	return json_pack("{s:s, s:o, s:f}", "iowl version", "iowl-" IOWL_VERSION, "curve", a,
			 "knee_pct", k > 0 ? pts[k].pct : -1.0);
}

static void print(const struct iowl_run *run, FILE *f, const struct curve_point *pts, unsigned n)
{
	int k = knee(pts, n);

	if (run->opts.formats & (OUT_JSON | OUT_JSONPLUS)) {
		json_t *root = json_doc(pts, n);

		json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', f);
		json_decref(root);
		return;
	}
	fprintf(f, "%8s %14s %14s %14s %16s %16s\n", "load", "target IOPS", "IOPS", "clat mean(us)",
		"sched mean(us)", "sched p99(us)");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%7.0f%% %14.0f %14.0f %14.2f %16.2f %16.2f%s\n", i ? pts[i].pct : 100.0,
			pts[i].target, pts[i].iops, pts[i].clat_mean_us, pts[i].sched_mean_us,
			pts[i].sched_p99_us, i ? "" : "  (maximum, no limit)");
	if (k > 0)
		fprintf(f, "knee: at %.0f%% of the maximum (%.0f IOPS) the mean latency from each IO's intended start passes twice that at %.0f%%\n",
			pts[k].pct, pts[k].iops, pts[1].pct);
	else
		fputs("knee: not reached: latency stays within twice the lightest load's up to the highest load\n", f);
}

int curve_run(struct iowl_run *run)
{
	struct run_opts *ro = &run->opts;
	unsigned nbase = ro->nsets, n = ro->ncurve + 1, clones;
	struct job_set *base = ro->sets;
	struct curve_point pts[CURVE_MAX_POINTS + 1];
	struct iowl_err err = { "" };
	double max, share[DDIR_NR];
	int status = IOWL_EXIT_OK;
	struct outfile of = { 0 };
	FILE *out;

	memset(pts, 0, sizeof(pts));
	ro->sets = calloc(nbase + 1, sizeof(*ro->sets));
	if (!ro->sets || outfile_open(&of, ro->output, &err)) {
		iowl_warn("%s", ro->sets ? err.text : "out of memory");
		free(ro->sets);
		ro->sets = base;
		return IOWL_EXIT_USAGE;
	}
	run->out = out = of.f;	/* informational lines go with the results */
	for (unsigned i = 0; i < n && !run->signal && !run->abandoned; i++) {
		struct run_outcome o;
		char rate[96];

		if (i) {
			double per = max * ro->curve[i - 1] / 100 / clones;

			snprintf(rate, sizeof(rate), "%.0f,%.0f,%.0f", fmax(1, per * share[0]),
				 fmax(1, per * share[1]), fmax(1, per * share[2]));
			pts[i].pct = ro->curve[i - 1];
			pts[i].target = max * ro->curve[i - 1] / 100;
		}
		if (progress_wanted(ro->eta))	/* progress, as the status line: not for scripts */
			fprintf(stderr, "iowl: curve point %u/%u: %s%s\n", i + 1, n,
				i ? "rate_iops=" : "maximum rate", i ? rate : "");
		if (run_point(run, base, nbase, i ? rate : NULL, &o, &err)) {
			iowl_warn("%s", err.text);
			/* Once a point has run, a point that cannot be built is a runtime error. */
			status = run_status_worst(status, i ? IOWL_EXIT_IO : IOWL_EXIT_USAGE);
			break;
		}
		if (!i) {
			totals(run, &o, &max, share, &clones);
			pts[0].target = max;
		}
		totals(run, &o, &pts[i].iops, (double[DDIR_NR]){ 0 }, &(unsigned){ 0 });
		latencies(&o, &pts[i]);
		pts[i].status = run_status(run, &o);
		status = run_status_worst(status, pts[i].status);
		run_outcome_release(&o);
	}
	print(run, out, pts, n);
	if (run_report_html(run, json_doc(pts, n), false))
		status = run_status_worst(status, IOWL_EXIT_IO);
	run->out = NULL;
	if (outfile_close(&of, &err)) {	/* the table could not be written */
		iowl_warn("%s", err.text);
		status = run_status_worst(status, IOWL_EXIT_IO);
	}
	free(ro->sets);
	ro->sets = base;
	ro->nsets = nbase;
	return status;
}
