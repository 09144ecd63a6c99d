// SPDX-License-Identifier: MIT
/* --sweep: the cross product of option values, one complete run per point, one table, and a USL fit. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/cluster.h"
#include "iowl/hist.h"
#include "iowl/options.h"
#include "iowl/outfile.h"
#include "iowl/progress.h"
#include "iowl/ranks.h"
#include "iowl/report.h"
#include "iowl/sweep.h"
#include "iowl/usl.h"
#include "iowl/value.h"
#include "iowl/version.h"
#include "report/ranks.h"

#define MAX_KEYS 8
#define MAX_POINTS 4096

/* What one point measured. */
struct point {
	const char *values[MAX_KEYS];
	double iops, mbps;
	double clat[4], lat[4];		/* us: mean, p50, p99, p99.9 of completion and total
					 * (fio's lat) latency; lat's percentiles NAN without
					 * lat_percentiles */
	double concurrency;		/* Little's law: IOPS x mean total latency */
	double aqu_sz, util;		/* the first device behind the targets; NAN without one */
	double n;			/* the swept concurrency: iodepth x numjobs summed
					 * over the jobs, times the ranks when they are
					 * swept (the ranks alone when only they are) */
	int status;
	json_t *cluster;		/* over MPI: the point's iowl.cluster, ranks[] included */
};

void sweep_key_release(struct sweep_key *k)
{
	for (unsigned i = 0; i < k->nvalues; i++)
		free(k->values[i]);
	k->nvalues = 0;
}

static int add_value(struct sweep_key *k, const char *v, size_t len, struct iowl_err *err)
{
	if (k->nvalues == SWEEP_MAX_VALUES)
		return err_set(err, "--sweep %s: more than %d values", k->key, SWEEP_MAX_VALUES);
	if (!len)
		return err_set(err, "--sweep %s: an empty value (separate values with ',')", k->key);
	k->values[k->nvalues] = strndup(v, len);
	return k->values[k->nvalues++] ? 0 : err_nomem(err, "out of memory");
}

/* The key "ranks": the number of MPI ranks that run the jobs at a point (the first k ranks). */
static bool is_ranks(const char *key)
{
	return !strcmp(key, "ranks");
}

/* "A..B xF" or "A..B+S": numbers or sizes, expanded into decimal values. */
static int parse_range(const char *v, struct sweep_key *k, struct iowl_err *err)
{
	char lo[64], hi[64], why[VAL_WHY_LEN] = "";
	const char *dots = strstr(v, ".."), *step = strpbrk(dots + 2, "x+");
	uint64_t a, b, s;
	char num[32];

	if (!step || (size_t)(dots - v) >= sizeof(lo) || (size_t)(step - dots - 2) >= sizeof(hi))
		return err_set(err, "--sweep %s=%s: a range is A..B followed by xF (times F) or +S (plus S), e.g. 1..256x2",
			       k->key, v);
	snprintf(lo, sizeof(lo), "%.*s", (int)(dots - v), v);
	snprintf(hi, sizeof(hi), "%.*s", (int)(step - dots - 2), dots + 2);
	while (strlen(hi) && hi[strlen(hi) - 1] == ' ')
		hi[strlen(hi) - 1] = '\0';
	if (val_parse_size(lo, 1024, &a, why) || val_parse_size(hi, 1024, &b, why) ||
	    val_parse_size(step + 1, 1024, &s, why))
		return err_set(err, "--sweep %s=%s: %s", k->key, v, why);
	if (a > b || (step[0] == 'x' && s < 2) || (step[0] == '+' && !s))
		return err_set(err, "--sweep %s=%s: the range must go up from A to B (x2 or more, +1 or more)",
			       k->key, v);
	for (uint64_t x = a; x <= b; x = step[0] == 'x' ? x * s : x + s) {
		int ret;

		snprintf(num, sizeof(num), "%llu", (unsigned long long)x);
		ret = add_value(k, num, strlen(num), err);
		if (ret)
			return ret;
		if (x > UINT64_MAX / s)
			break;
	}
	return 0;
}

int sweep_key_parse(const char *text, struct sweep_key *k, struct iowl_err *err)
{
	const char *eq = strchr(text, '='), *v;
	int ret = 0;

	memset(k, 0, sizeof(*k));
	if (!eq || eq == text || (size_t)(eq - text) >= sizeof(k->key) || !eq[1])
		return err_set(err, "--sweep '%s': use KEY=V1,V2,... or KEY=A..BxF (e.g. --sweep iodepth=1..256x2)",
			       text);
	snprintf(k->key, sizeof(k->key), "%.*s", (int)(eq - text), text);
	if (!is_ranks(k->key) && !opt_find(k->key))
		return err_set(err, "--sweep: unknown option '%s'", k->key);
	v = eq + 1;
	if (strstr(v, ".."))
		ret = parse_range(v, k, err);
	else
		for (const char *p = v; !ret; p = strchr(p, ',') + 1) {
			const char *c = strchr(p, ',');

			ret = add_value(k, p, c ? (size_t)(c - p) : strlen(p), err);
			if (!c)
				break;
		}
	if (ret)
		sweep_key_release(k);
	return ret;
}

/*
 * The --set list of one point: the user's own, then the point's values; "ranks" is not an
 * option but how many ranks run the jobs (the others only meet at the barriers).
 */
static int point_sets(struct iowl_run *run, const unsigned *idx, struct job_set *base,
		      unsigned nbase)
{
	struct run_opts *o = &run->opts;
	unsigned n = nbase;

	if (nbase)	/* base is NULL without --set */
		memcpy(o->sets, base, nbase * sizeof(*base));
	ranks_limit(0);
	for (unsigned k = 0; k < o->nsweeps; k++) {
		if (is_ranks(o->sweeps[k].key)) {
			ranks_limit((unsigned)strtoul(o->sweeps[k].values[idx[k]], NULL, 10));
			continue;
		}
		o->sets[n].key = o->sweeps[k].key;
		o->sets[n++].value = o->sweeps[k].values[idx[k]];
	}
	o->nsets = n;
	return 0;
}

/* Advances the odometer, the last key fastest; false after the last point. */
static bool next_point(const struct run_opts *o, unsigned *idx)
{
	for (int k = (int)o->nsweeps - 1; k >= 0; k--) {
		if (++idx[k] < o->sweeps[k].nvalues)
			return true;
		idx[k] = 0;
	}
	return false;
}

/* The mean and the percentiles of one latency over every unit and direction, in us (NAN: no histogram). */
static void lat_figures(const struct run_outcome *o, bool total, double out[4])
{
	struct hist *h = hist_alloc();
	double pct[3] = { 50, 99, 99.9 };
	uint64_t p[3] = { 0, 0, 0 };
	struct lat_stat all;
	bool have_hist = false;

	lat_init(&all);
	for (unsigned i = 0; i < o->r.nunits; i++)
		for (unsigned d = 0; d < DDIR_NR; d++) {
			const struct dir_stats *ds = &o->r.units[i].st.dir[d];
			const struct hist *dh = total ? ds->lat_hist : ds->clat_hist;

			lat_merge(&all, total ? &ds->lat : &ds->clat);
			if (h && dh) {
				hist_merge(h, dh);
				have_hist = true;
			}
		}
	if (h && have_hist && all.n)
		hist_percentiles(h, lat_min(&all), all.max, pct, 3, p);
	hist_free(h);
	out[0] = lat_mean(&all) / 1e3;
	for (unsigned k = 0; k < 3; k++)
		out[k + 1] = have_hist || !total ? (double)p[k] / 1e3 : NAN;
}

static void measure(const struct iowl_run *run, const struct run_outcome *o, struct point *pt)
{
	for (unsigned i = 0; i < o->r.nunits; i++) {
		const struct worker_stats *st = &o->r.units[i].st;
		double secs = (double)st->runtime_ns / 1e9;

		for (unsigned d = 0; d < DDIR_NR; d++) {
			pt->iops += secs > 0 ? (double)st->dir[d].ios / secs : 0;
			pt->mbps += secs > 0 ? (double)st->dir[d].bytes / secs / 1e6 : 0;
		}
	}
	/* Every rank's own figures (rank_result lives until the next point's reduce). */
	if (o->r.nranks)
		pt->cluster = report_ranks_json(&o->r);
	lat_figures(o, false, pt->clat);
	lat_figures(o, true, pt->lat);
	pt->concurrency = pt->iops * pt->lat[0] / 1e6;
	pt->aqu_sz = pt->util = NAN;
	for (unsigned i = 0; i < o->disks.n; i++) {
		struct disk_iostat x;

		if (!o->disks.devs[i].is_target || !o->disks.devs[i].last.nfields)
			continue;
		disk_calc_iostat(&o->disks.devs[i].first, &o->disks.devs[i].last, &x);
		pt->aqu_sz = x.aqu_sz;
		pt->util = x.util;
		break;
	}
	for (unsigned j = 0; j < run->njobs; j++)
		pt->n += (double)run->jobs[j].o.iodepth * run->jobs[j].o.numjobs;
	for (unsigned k = 0; k < run->opts.nsweeps; k++)
		if (is_ranks(run->opts.sweeps[k].key)) /* over hosts: the ranks, times the rest */
			pt->n = strtod(pt->values[k], NULL) * (run->opts.nsweeps > 1 ? pt->n : 1);
}

/* True when every swept key changes the concurrency (iodepth, numjobs). */
static bool concurrency_sweep(const struct run_opts *o)
{
	for (unsigned k = 0; k < o->nsweeps; k++) {
		const struct opt_def *d =
			is_ranks(o->sweeps[k].key) ? NULL : opt_find(o->sweeps[k].key);

		if (d && strcmp(d->name, "iodepth") && strcmp(d->name, "numjobs"))
			return false;
	}
	return o->nsweeps > 0;
}

/* What N is in the USL fit: "iodepth x numjobs", "ranks" or "ranks x iodepth x numjobs". */
static const char *usl_n_name(const struct run_opts *o)
{
	for (unsigned k = 0; k < o->nsweeps; k++)
		if (is_ranks(o->sweeps[k].key))
			return o->nsweeps > 1 ? "ranks x iodepth x numjobs" : "ranks (hosts)";
	return "iodepth x numjobs";
}

static void text_table(FILE *f, const struct run_opts *o, const struct point *pts, unsigned n)
{
	static const char *const cols[8] = { "clat mean(us)", "clat p50(us)", "clat p99(us)",
					     "clat p99.9(us)", "lat mean(us)", "lat p50(us)",
					     "lat p99(us)", "lat p99.9(us)" };
	bool lat_pct = false;

	for (unsigned i = 0; i < n; i++)
		lat_pct = lat_pct || !isnan(pts[i].lat[1]);
	for (unsigned k = 0; k < o->nsweeps; k++)
		fprintf(f, "%12s ", o->sweeps[k].key);
	fprintf(f, "%12s %10s", "IOPS", "MB/s");
	/* lat's percentiles only where some point has them (lat_percentiles=1) */
	for (unsigned c = 0; c < (lat_pct ? 8U : 5U); c++)
		fprintf(f, " %14s", cols[c]);
	fprintf(f, " %8s %8s %7s\n", "conc", "aqu-sz", "%util");
	for (unsigned i = 0; i < n; i++) {
		const struct point *p = &pts[i];

		for (unsigned k = 0; k < o->nsweeps; k++)
			fprintf(f, "%12s ", p->values[k]);
		fprintf(f, "%12.0f %10.1f", p->iops, p->mbps);
		for (unsigned c = 0; c < (lat_pct ? 8U : 5U); c++) {
			double v = c < 4 ? p->clat[c] : p->lat[c - 4];

			if (isnan(v))
				fprintf(f, " %14s", "-");
			else
				fprintf(f, " %14.2f", v);
		}
		fprintf(f, " %8.2f", p->concurrency);
		if (isnan(p->aqu_sz))	/* no block device behind the targets */
			fprintf(f, " %8s %7s", "-", "-");
		else
			fprintf(f, " %8.2f %7.1f", p->aqu_sz, p->util);
		fputs(p->status ? "  (failed)\n" : "\n", f);
	}
}

static void csv_table(FILE *f, const struct run_opts *o, const struct point *pts, unsigned n)
{
	for (unsigned k = 0; k < o->nsweeps; k++)
		fprintf(f, "%s,", o->sweeps[k].key);
	fputs("iops,mb_s,clat_mean_us,clat_p50_us,clat_p99_us,clat_p99_9_us,lat_mean_us,lat_p50_us,"
	      "lat_p99_us,lat_p99_9_us,concurrency,aqu_sz,util_pct,status\n", f);
	for (unsigned i = 0; i < n; i++) {
		const struct point *p = &pts[i];

		for (unsigned k = 0; k < o->nsweeps; k++)
			fprintf(f, "%s,", p->values[k]);
		fprintf(f, "%.3f,%.3f,", p->iops, p->mbps);
		for (unsigned c = 0; c < 8; c++) {	/* lat's percentiles empty without a histogram */
			double v = c < 4 ? p->clat[c] : p->lat[c - 4];

			if (!isnan(v))
				fprintf(f, "%.3f", v);
			fputc(',', f);
		}
		fprintf(f, "%.4f,%.4f,%.2f,%d\n", p->concurrency, isnan(p->aqu_sz) ? 0 : p->aqu_sz,
			isnan(p->util) ? 0 : p->util, p->status);
	}
}

static double nz(double v)
{
	return isnan(v) ? 0 : v;
}

/* A latency figure for JSON: null where there is none. */
static json_t *jlat(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *json_points(const struct run_opts *o, const struct point *pts, unsigned n)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < n; i++) {
		const struct point *p = &pts[i];
		json_t *v = json_object();

		for (unsigned k = 0; v && k < o->nsweeps; k++)
			json_object_set_new(v, o->sweeps[k].key, json_string(p->values[k]));
		json_array_append_new(a, json_pack("{s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o, s:o, s:o, s:f, s:f, s:f, s:f, s:i}",
						   "values", v, "iops", p->iops, "mb_s", p->mbps,
						   "clat_mean_us", p->clat[0], "clat_p50_us", p->clat[1],
						   "clat_p99_us", p->clat[2], "clat_p99_9_us", p->clat[3],
						   "lat_mean_us", p->lat[0], "lat_p50_us", jlat(p->lat[1]),
						   "lat_p99_us", jlat(p->lat[2]), "lat_p99_9_us", jlat(p->lat[3]),
						   "concurrency", p->concurrency, "n", p->n,
						   "aqu_sz", nz(p->aqu_sz), "util", nz(p->util),
						   "status", p->status));
		if (p->cluster) /* over MPI: which ranks did what at this point */
			json_object_set(json_array_get(a, json_array_size(a) - 1), "cluster",
					p->cluster);
	}
	return a;
}

/* The USL over the points: text lines on f, and a JSON object (new reference). */
static json_t *usl_report(FILE *f, const struct run_opts *ro, const struct point *pts, unsigned n,
			  bool text)
{
	double *x = calloc(n ? n : 1, sizeof(double)), *c = calloc(n ? n : 1, sizeof(double));
	char why[USL_WHY_LEN] = "";
	struct usl_fit fit;
	json_t *o;

	for (unsigned i = 0; x && c && i < n; i++) {
		c[i] = pts[i].n;
		x[i] = pts[i].iops;
	}
	if (!x || !c || usl_fit(c, x, n, &fit, why)) {
		if (text)
			fprintf(f, "\nno scalability fit: %s\n", why[0] ? why : "out of memory");
		free(x);
		free(c);
		return json_pack("{s:s}", "error", why[0] ? why : "out of memory");
	}
	if (text) {
		fprintf(f,
			"\nuniversal scalability law over N = %s: lambda=%.6g sigma=%.6g kappa=%.6g R^2=%.4f\n",
			usl_n_name(ro), fit.lambda, fit.sigma, fit.kappa, fit.r2);
		fprintf(f, "  peak throughput at N=%.1f: %.6g IOPS predicted; limited by %s\n",
			fit.n_max, fit.x_max, usl_limit_name(fit.limit));
		fprintf(f, "%10s %14s %14s\n", "N", "measured", "predicted");
		for (unsigned i = 0; i < n; i++)
			fprintf(f, "%10.0f %14.0f %14.0f\n", c[i], x[i], usl_predict(&fit, c[i]));
	}
	o = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:s}", "lambda", fit.lambda, "sigma",
		      fit.sigma, "kappa", fit.kappa, "r2", isnan(fit.r2) ? 0 : fit.r2, "n_max",
		      isinf(fit.n_max) ? -1 : fit.n_max, "x_max", isinf(fit.x_max) ? -1 : fit.x_max,
		      "limit", usl_limit_name(fit.limit), "n", usl_n_name(ro));
	free(x);
	free(c);
	return o;
}

/* The sweep as one JSON document (new reference): the points, and the USL fit when it has one. */
static json_t *json_doc(const struct iowl_run *run, const struct point *pts, unsigned n)
{
	json_t *root = json_pack("{s:s, s:o}", "iowl version", "iowl-" IOWL_VERSION, "points",
				 json_points(&run->opts, pts, n));

	if (root && concurrency_sweep(&run->opts))
		json_object_set_new(root, "usl", usl_report(NULL, &run->opts, pts, n, false));
	return root;
}

static void print(const struct iowl_run *run, FILE *f, const struct point *pts, unsigned n)
{
	const struct run_opts *o = &run->opts;
	bool usl = concurrency_sweep(o);

	if (o->formats & OUT_CSV) {
		csv_table(f, o, pts, n);
	} else if (o->formats & (OUT_JSON | OUT_JSONPLUS)) {
		json_t *root = json_doc(run, pts, n);

		json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', f);
		json_decref(root);
	} else {
		text_table(f, o, pts, n);
		if (usl)
			json_decref(usl_report(f, o, pts, n, true));
	}
}

/* Every point is built and planned before the first one runs, so a bad value stops nothing midway. */
static int check_points(struct iowl_run *run, struct job_set *base, unsigned nbase, unsigned *npts,
			struct iowl_err *err)
{
	unsigned idx[MAX_KEYS] = { 0 };
	int ret = 0;

	*npts = 0;
	do {
		point_sets(run, idx, base, nbase);
		ret = run_rebuild(run, err);
		if (++*npts > MAX_POINTS)
			ret = err_set(err, "--sweep: more than %d points", MAX_POINTS);
	} while (!ret && next_point(&run->opts, idx));
	return ret;
}

int sweep_prepare(struct iowl_run *run, struct iowl_err *err)
{
	struct run_opts *o = &run->opts;
	unsigned nbase = o->nsets, npts;
	struct job_set *base = o->sets;
	int ret;

	if (o->nsweeps > MAX_KEYS)
		return err_set(err, "--sweep: at most %d keys", MAX_KEYS);
	for (unsigned k = 0; k < o->nsweeps; k++)
		for (unsigned i = 0; is_ranks(o->sweeps[k].key) && i < o->sweeps[k].nvalues; i++) {
			const char *v = o->sweeps[k].values[i];
			char *end;
			unsigned long r = strtoul(v, &end, 10);

			if (*end || !r || *v == '-' || r > cluster_size())
				return err_set(err,
					       "--sweep ranks=%s: the number of ranks that run the jobs is 1 to this run's %u (mpirun -np N iowl-mpi starts N)",
					       v, cluster_size());
		}
	o->sets = calloc(nbase + o->nsweeps, sizeof(*o->sets));
	if (!o->sets) {
		o->sets = base;
		return err_nomem(err, "out of memory");
	}
	ret = check_points(run, base, nbase, &npts, err);
	ranks_limit(0);
	free(o->sets);
	o->sets = base;
	o->nsets = nbase;
	return ret;
}

/* The number of points: the product of the keys' value counts (sweep_prepare() bounded it). */
static unsigned count_points(const struct run_opts *o)
{
	unsigned n = 1;

	for (unsigned k = 0; k < o->nsweeps; k++)
		n *= o->sweeps[k].nvalues;
	return n;
}

int sweep_run(struct iowl_run *run)
{
	struct run_opts *o = &run->opts;
	unsigned nbase = o->nsets, npts = count_points(o), idx[MAX_KEYS] = { 0 };
	struct job_set *base = o->sets, *sets;
	struct iowl_err err = { "" };
	struct point *pts = NULL;
	struct outfile of = { 0 };
	FILE *out = stdout;
	int status = IOWL_EXIT_OK, ret = 0;

	sets = calloc(nbase + o->nsweeps, sizeof(*sets));
	if (!sets)
		return IOWL_EXIT_IO;
	o->sets = sets;
	if (!(pts = calloc(npts, sizeof(*pts))))
		ret = err_nomem(&err, "out of memory");
	if (!ret && !(ret = outfile_open(&of, o->output, &err)))
		out = of.f;
	if (ret) {
		iowl_warn("%s", err.text);
		status = IOWL_EXIT_USAGE;
		goto out;
	}
	run->out = out;	/* informational lines go with the results */
	for (unsigned i = 0; i < npts && !run->signal; i++, next_point(o, idx)) {
		struct run_outcome oc;

		point_sets(run, idx, base, nbase);
		run_rebuild(run, &err);	/* sweep_prepare() built this point already */
		for (unsigned k = 0; k < o->nsweeps; k++)
			pts[i].values[k] = o->sweeps[k].values[idx[k]];
		if (progress_wanted(o->eta)) {	/* progress, as the status line: not for scripts */
			fprintf(stderr, "iowl: sweep point %u/%u:", i + 1, npts);
			for (unsigned k = 0; k < o->nsweeps; k++)
				fprintf(stderr, " %s=%s", o->sweeps[k].key, pts[i].values[k]);
			fputc('\n', stderr);
		}
		run_collect(run, &oc);
		measure(run, &oc, &pts[i]);
		pts[i].status = run_status(run, &oc);
		status = run_status_worst(status, pts[i].status);
		run_outcome_release(&oc);
		if (run->abandoned)
			break;
	}
	print(run, out, pts, npts);
	if (run_report_html(run, json_doc(run, pts, npts), false))
		status = run_status_worst(status, IOWL_EXIT_IO);
	if (outfile_close(&of, &err)) {	/* the table could not be written */
		iowl_warn("%s", err.text);
		status = run_status_worst(status, IOWL_EXIT_IO);
	}
out:
	run->out = NULL;
	o->sets = base;
	o->nsets = nbase;
	free(sets);
	for (unsigned i = 0; pts && i < npts; i++)
		json_decref(pts[i].cluster);
	free(pts);
	return status;
}
