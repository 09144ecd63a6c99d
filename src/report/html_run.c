// SPDX-License-Identifier: MIT
/*
 * The HTML report's plots of one run: per job and direction the figures over time (from
 * iowl.intervals or the --status-interval JSON lines), the latency histogram and percentile
 * curve (json+ bins, or the percentile list), the worker ramp, and the --iostat device view.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/ddir.h"
#include "iowl/clock.h"
#include "iowl/value.h"
#include "report/html_int.h"

enum { V_IOPS, V_BW, V_P50, V_P99, V_P999, V_NV };

/* One unit's interval series. */
struct timeline {
	size_t n;
	double *t;			/* s, the end of each interval */
	double *v[DDIR_NR][V_NV];		/* per direction: IOPS, MiB/s, p50, p99, p99.9 latency (ns) */
	bool has[DDIR_NR];
};

static bool tl_alloc(struct html *h, struct timeline *tl, size_t n)
{
	tl->n = n;
	tl->t = html_doubles(h, n);
	for (unsigned d = 0; d < DDIR_NR; d++)
		for (unsigned k = 0; k < V_NV; k++)
			if (!(tl->v[d][k] = html_doubles(h, n)))
				return false;
	return tl->t != NULL;
}

static double lat_or_nan(double v)
{
	return v > 0 ? v : NAN;
}

/* Point k from an iowl.intervals point or a JSON line's row (clat_ns.mean/p50/p99 there). */
static void tl_set(struct timeline *tl, size_t k, double t_ms, const json_t *row)
{
	tl->t[k] = t_ms / 1000;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const json_t *x = json_object_get(row, ddir_name(d)),
			     *c = json_object_get(x, "clat_ns");

		for (unsigned v = 0; v < V_NV; v++)
			tl->v[d][v][k] = NAN;
		if (!x)
			continue;
		tl->has[d] = true;
		tl->v[d][V_IOPS][k] = jnum(x, "iops");
		tl->v[d][V_BW][k] = jnum(x, "bw_bytes") / 1048576;
		tl->v[d][V_P50][k] = lat_or_nan(c ? jnum(c, "p50") : jnum(x, "clat_p50_ns"));
		tl->v[d][V_P99][k] = lat_or_nan(c ? jnum(c, "p99") : jnum(x, "clat_p99_ns"));
		tl->v[d][V_P999][k] = lat_or_nan(c ? jnum(c, "p99.9") : jnum(x, "clat_p999_ns"));
	}
}

/* The series of a job from its iowl.intervals, else from the lines that name it. */
static bool timeline(struct html *h, const json_t *job, json_t *const *lines, size_t nlines,
		     struct timeline *tl)
{
	const json_t *pts = json_object_get(json_object_get(json_object_get(job, "iowl"), "intervals"),
					    "points");
	const char *name = jstr_get(job, "jobname");
	double clone = jnum(json_object_get(job, "iowl"), "clone");
	size_t i, n = 0;
	json_t *p;

	memset(tl, 0, sizeof(*tl));
	if (json_array_size(pts)) {
		if (!tl_alloc(h, tl, json_array_size(pts)))
			return false;
		json_array_foreach(pts, i, p)
			tl_set(tl, i, jnum(p, "t_ms"), p);
		return true;
	}
	if (!nlines || !tl_alloc(h, tl, nlines))
		return false;
	for (size_t l = 0; l < nlines; l++) {
		json_array_foreach(json_object_get(lines[l], "jobs"), i, p) {
			if (name && jstr_get(p, "jobname") && strcmp(name, jstr_get(p, "jobname")))
				continue;
			if (isfinite(clone) && jnum(p, "clone") != clone)
				continue;
			tl_set(tl, n++, jnum(lines[l], "t_ms"), p);
			break;
		}
	}
	tl->n = n;
	return n > 0;
}

/* A time option of the job (its own, else the global one), in seconds; 0 when unset. */
static double job_time_s(const json_t *root, const json_t *job, const char *key)
{
	const char *v = jstr_get(json_object_get(job, "job options"), key);
	uint64_t ns = 0;
	char why[128];

	if (!v)
		v = jstr_get(json_object_get(root, "global options"), key);
	if (!v || val_parse_time_ns(v, NSEC_PER_SEC, &ns, why))
		return 0;
	return (double)ns / 1e9;
}

/* The ramp and the steady-state window, shaded. */
static void add_bands(struct plot *p, const json_t *root, const json_t *job)
{
	const json_t *ss = json_object_get(json_object_get(job, "iowl"), "steadystate");
	double ramp = job_time_s(root, job, "ramp_time");

	if (ramp > 0)
		p->band[p->nband++] = (struct plot_band){ 0, ramp, "ramp", 6 };
	if (ss && json_is_true(json_object_get(ss, "attained"))) {
		double end = jnum(ss, "attained_ms") / 1000;
		double len = jnum(ss, "window") * jnum(ss, "interval_ms") / 1000;

		if (end > 0 && len > 0)
			p->band[p->nband++] = (struct plot_band){ end - len, end, "steady state", 2 };
	}
}

static void plot_throughput(struct html *h, const char *title, const struct timeline *tl,
			    const json_t *root, const json_t *job, const char *jobid)
{
	struct plot p = { .kind = "throughput", .title = title, .has_y2 = true };
	const char *id;

	p.x.label = "time (s)";
	p.x.zero = true;
	p.y.label = "IOPS";
	p.y.zero = true;
	p.y2.label = "bandwidth (MiB/s)";
	p.y2.zero = true;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		struct plot_series *s;

		if (!tl->has[d])
			continue;
		s = plot_add(&p, html_printf(h, "%s IOPS", ddir_name(d)), tl->t, tl->v[d][V_IOPS],
			     tl->n, PLOT_LINE);
		if (s)
			s->color = (int)d;
		s = plot_add(&p, html_printf(h, "%s MiB/s", ddir_name(d)), tl->t, tl->v[d][V_BW],
			     tl->n, PLOT_LINE);
		if (s) {
			s->color = (int)d;
			s->dashed = true;
			s->right = true;
		}
	}
	add_bands(&p, root, job);
	id = html_plot(h, &p, html_printf(h, "%s: IOPS (solid, left) and bandwidth (dashed, right) in each interval; %zu intervals",
					  jobid, tl->n));
	if (id && !h->first_tput[0])
		snprintf(h->first_tput, sizeof(h->first_tput), "%s", id);
}

/* Copies of v scaled down by div (latencies into the axis's unit). */
static double *scaled(struct html *h, const double *v, size_t n, double div)
{
	double *s = html_doubles(h, n);

	for (size_t i = 0; s && i < n; i++)
		s[i] = v[i] / div;
	return s;
}

/* Should values from lo to hi (positive) go on a log axis? */
static bool spans_decades(double lo, double hi)
{
	return lo > 0 && isfinite(hi) && hi / lo >= 50;
}

static void plot_latency(struct html *h, const char *title, const struct timeline *tl,
			 const json_t *root, const json_t *job, const char *jobid)
{
	static const char *const vn[] = { [V_P50] = "p50", [V_P99] = "p99", [V_P999] = "p99.9" };
	struct plot p = { .kind = "latency", .title = title };
	double lo = INFINITY, hi = 0, div;
	const char *unit, *id;

	for (unsigned d = 0; d < DDIR_NR; d++)
		for (unsigned v = V_P50; tl->has[d] && v <= V_P999; v++)
			for (size_t k = 0; k < tl->n; k++)
				if (tl->v[d][v][k] > 0) {
					lo = fmin(lo, tl->v[d][v][k]);
					hi = fmax(hi, tl->v[d][v][k]);
				}
	if (!(hi > 0))
		return;
	unit = lat_unit(sqrt(lo * hi), &div);
	p.x.label = "time (s)";
	p.x.zero = true;
	p.y.label = html_printf(h, "completion latency (%s)", unit);
	p.y.log = spans_decades(lo, hi);
	p.y.zero = true;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		for (unsigned v = V_P50; tl->has[d] && v <= V_P999; v++) {
			struct plot_series *s =
				plot_add(&p, html_printf(h, "%s %s", ddir_name(d), vn[v]), tl->t,
					 scaled(h, tl->v[d][v], tl->n, div), tl->n, PLOT_LINE);

			if (s) {
				s->color = (int)(d * 3 + v - V_P50);
				s->dashed = v == V_P999;
			}
		}
	}
	add_bands(&p, root, job);
	id = html_plot(h, &p, html_printf(h, "%s: completion latency percentiles of each interval%s",
					  jobid, p.y.log ? " (log scale)" : ""));
	if (id && !h->first_lat[0])
		snprintf(h->first_lat, sizeof(h->first_lat), "%s", id);
}

/* A fio json+ "bins" object as sorted (ns, count) pairs. */
struct bins {
	double *ns, *count;
	size_t n;
	double total;
};

static int cmp_double2(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static bool load_bins(struct html *h, const json_t *lat, struct bins *b)
{
	const json_t *o = json_object_get(lat, "bins");
	double *pairs;
	const char *k;
	json_t *v;
	size_t i = 0;

	memset(b, 0, sizeof(*b));
	if (!json_object_size(o) || !(pairs = html_doubles(h, 2 * json_object_size(o))))
		return false;
	json_object_foreach((json_t *)o, k, v) {
		pairs[2 * i] = strtod(k, NULL);
		pairs[2 * i + 1] = json_number_value(v);
		i++;
	}
	qsort(pairs, i, 2 * sizeof(double), cmp_double2);
	b->ns = html_doubles(h, i);
	b->count = html_doubles(h, i);
	for (size_t j = 0; b->ns && b->count && j < i; j++) {
		b->ns[j] = pairs[2 * j];
		b->count[j] = pairs[2 * j + 1];
		b->total += b->count[j];
	}
	b->n = b->ns && b->count ? i : 0;
	return b->n && b->total > 0;
}

#define PER_DECADE 10

/* The histogram: the bins gathered into PER_DECADE log-spaced bars, as a share of the IOs. */
static void plot_histogram(struct html *h, const char *title, const struct bins *bn, const char *jobid,
			   const char *dir)
{
	int lo = (int)floor(log10(fmax(1, bn->ns[0])) * PER_DECADE);
	int hi = (int)floor(log10(fmax(1, bn->ns[bn->n - 1])) * PER_DECADE);
	size_t nb = (size_t)(hi - lo + 1);
	double *x = html_doubles(h, nb), *y = html_doubles(h, nb), div;
	const char *unit = lat_unit(sqrt(fmax(1, bn->ns[0]) * bn->ns[bn->n - 1]), &div), *id;
	struct plot p = { .kind = "histogram", .title = title };
	struct plot_series *s;

	if (!x || !y)
		return;
	for (size_t i = 0; i < nb; i++)
		x[i] = pow(10, (lo + (double)i + 0.5) / PER_DECADE) / div;
	for (size_t i = 0; i < bn->n; i++) {
		int k = (int)floor(log10(fmax(1, bn->ns[i])) * PER_DECADE) - lo;

		y[k] += 100 * bn->count[i] / bn->total;
	}
	for (size_t i = 0; i < nb; i++)
		if (y[i] == 0)
			y[i] = NAN;	/* no bar */
	p.x.label = html_printf(h, "completion latency (%s, log scale)", unit);
	p.x.log = true;
	p.y.label = "share of IOs (%)";
	p.y.zero = true;
	s = plot_add(&p, html_printf(h, "%s (%.0f IOs)", dir, bn->total), x, y, nb, PLOT_BARS);
	if (s)
		s->color = 0;
	id = html_plot(h, &p, html_printf(h, "%s: latency histogram, %d bars per decade", jobid, PER_DECADE));
	if (id && !h->first_hist[0])
		snprintf(h->first_hist, sizeof(h->first_hist), "%s", id);
}

size_t html_pct_points(struct html *h, const json_t *lat, double **x, double **y)
{
	const json_t *pm = json_object_get(lat, "percentile");
	size_t n = json_object_size(pm), i = 0;
	const char *k;
	json_t *v;

	*x = html_doubles(h, n);
	*y = html_doubles(h, n);
	if (!n || !*x || !*y)
		return 0;
	json_object_foreach((json_t *)pm, k, v) {
		double pc = strtod(k, NULL);

		if (pc >= 100 || json_number_value(v) <= 0)
			continue;
		(*x)[i] = -log10(1 - pc / 100);
		(*y)[i++] = json_number_value(v);
	}
	return i;
}

/* The percentile curve: latency against -log10(1 - p), from the bins, with fio's percentile list. */
static void plot_spectrum(struct html *h, const char *title, const struct bins *bn, const json_t *lat,
			  const char *jobid, const char *dir)
{
	struct plot p = { .kind = "percentiles", .title = title };
	double *px, *py, *cx = NULL, *cy = NULL, hi = 0, lo = INFINITY, div, cum = 0, xmax = 0;
	size_t np = html_pct_points(h, lat, &px, &py), nc = bn ? bn->n : 0;
	const char *unit;
	struct plot_series *s;

	if (nc) {
		cx = html_doubles(h, nc);
		cy = html_doubles(h, nc);
		if (!cx || !cy)
			return;
		for (size_t i = 0; i < nc; i++) {
			cum += bn->count[i];
			/* The last bin (p = 1) at the resolution the count allows. */
			cx[i] = cum < bn->total ? -log10(1 - cum / bn->total) : log10(bn->total);
			cy[i] = bn->ns[i];
			hi = fmax(hi, cy[i]);
			lo = fmin(lo, cy[i]);
			xmax = fmax(xmax, cx[i]);
		}
	}
	for (size_t i = 0; i < np; i++) {
		hi = fmax(hi, py[i]);
		lo = fmin(lo, py[i]);
		xmax = fmax(xmax, px[i]);
	}
	if (!(hi > 0))
		return;
	unit = lat_unit(sqrt(fmax(1, lo) * hi), &div);
	for (size_t i = 0; i < nc; i++)
		cy[i] /= div;
	for (size_t i = 0; i < np; i++)
		py[i] /= div;
	p.x.label = "percentile (log scale of 1 - p)";
	p.x.ticks = PLOT_TICK_TAIL;
	p.x.fixed = true;
	p.x.min = 0;
	p.x.max = fmax(1, ceil(xmax - 1e-9));
	p.y.label = html_printf(h, "completion latency (%s)", unit);
	p.y.log = spans_decades(lo, hi);
	p.y.zero = true;
	if (nc && (s = plot_add(&p, html_printf(h, "%s, from the histogram", dir), cx, cy, nc, PLOT_LINE)))
		s->color = 0;
	if (np && (s = plot_add(&p, html_printf(h, "%s, percentiles reported", dir), px, py, np, PLOT_POINTS)))
		s->color = 1;
	html_plot(h, &p, html_printf(h, "%s: percentile spectrum, latency at each percentile", jobid));
}

static void plot_lat_dist(struct html *h, const json_t *job, unsigned d, const char *jobid)
{
	const json_t *dir = json_object_get(job, ddir_name(d)),
		     *lat = json_object_get(dir, "clat_ns");
	struct bins bn;
	bool has;

	if (!json_object_get(lat, "percentile") && !json_object_get(lat, "bins"))
		lat = json_object_get(dir, "lat_ns");
	has = load_bins(h, lat, &bn);
	if (has)
		plot_histogram(h, html_printf(h, "%s %s: latency histogram", jobid, ddir_name(d)),
			       &bn, jobid, ddir_name(d));
	plot_spectrum(h, html_printf(h, "%s %s: latency percentiles", jobid, ddir_name(d)),
		      has ? &bn : NULL, lat, jobid, ddir_name(d));
}

/* The worker ramp: IOPS and latency at each step. */
static void plot_ramp(struct html *h, const json_t *job, const char *jobid)
{
	const json_t *steps = json_object_get(json_object_get(job, "iowl"), "worker_ramp");
	size_t n = json_array_size(steps), i;
	double *w = html_doubles(h, n), *io = html_doubles(h, n), *mean = html_doubles(h, n);
	double *p99 = html_doubles(h, n), hi = 0, div;
	struct plot p = { .kind = "worker-ramp", .has_y2 = true };
	struct plot_series *s;
	const char *unit;
	json_t *st;

	if (!n || !w || !io || !mean || !p99)
		return;
	json_array_foreach(steps, i, st) {
		w[i] = jnum(st, "workers");
		io[i] = jnum(st, "iops");
		mean[i] = jnum(st, "clat_mean_ns");
		p99[i] = jnum(st, "clat_p99_ns");
		hi = fmax(hi, fmax(mean[i], p99[i]));
	}
	unit = lat_unit(hi, &div);
	for (size_t k = 0; k < n; k++) {
		mean[k] /= div;
		p99[k] /= div;
	}
	p.title = html_printf(h, "%s: worker ramp", jobid);
	p.x.label = "workers";
	p.y.label = "IOPS";
	p.y.zero = true;
	p.y2.label = html_printf(h, "completion latency (%s)", unit);
	p.y2.zero = true;
	plot_add(&p, "IOPS", w, io, n, PLOT_LINEPOINTS);
	if ((s = plot_add(&p, "clat mean", w, mean, n, PLOT_LINEPOINTS)))
		s->right = true;
	if ((s = plot_add(&p, "clat p99", w, p99, n, PLOT_LINEPOINTS))) {
		s->right = true;
		s->dashed = true;
	}
	html_plot(h, &p, html_printf(h, "%s: IOPS (left) and completion latency (right) with each added worker",
				     jobid));
}

/* ---- --iostat ---- */

/* The device samples: from the document's iowl.iostat, else the JSON lines' "iostat". */
struct iostat_in {
	const json_t **dev;		/* per interval: its array of devices */
	double *t;			/* s */
	size_t n;
};

static bool iostat_in(struct html *h, const json_t *root, json_t *const *lines, size_t nlines,
		      struct iostat_in *io)
{
	const json_t *a = json_object_get(json_object_get(root, "iowl"), "iostat");
	size_t n = json_array_size(a) + nlines, i;
	json_t *v;

	memset(io, 0, sizeof(*io));
	io->t = html_doubles(h, n);
	io->dev = (const json_t **)html_doubles(h, n);
	if (!n || !io->t || !io->dev)
		return false;
	json_array_foreach(a, i, v) {
		io->t[io->n] = jnum(v, "t_ms") / 1000;
		io->dev[io->n++] = json_object_get(v, "devices");
	}
	for (size_t l = 0; !json_array_size(a) && l < nlines; l++) {
		if (!json_array_size(json_object_get(lines[l], "iostat")))
			continue;
		io->t[io->n] = jnum(lines[l], "t_ms") / 1000;
		io->dev[io->n++] = json_object_get(lines[l], "iostat");
	}
	return io->n > 0;
}

/* One plot of the device view: the given columns of every device over time. */
static const char *plot_iostat_cols(struct html *h, const struct iostat_in *io, const char *title,
				    const char *kind, const char *ylabel, const char *const *cols,
				    unsigned ncols, const char *right_col, const char *y2label)
{
	struct plot p = { .kind = kind, .title = title, .has_y2 = right_col != NULL };
	const char *names[PLOT_MAX_SERIES];
	unsigned nnames = 0;

	/* Devices in the order they first appear. */
	for (size_t k = 0; k < io->n; k++) {
		size_t i;
		json_t *d;

		json_array_foreach(io->dev[k], i, d) {
			const char *nm = jstr_get(d, "name");
			bool seen = false;

			for (unsigned j = 0; nm && j < nnames; j++)
				seen = seen || !strcmp(names[j], nm);
			if (nm && !seen && nnames < PLOT_MAX_SERIES / (ncols + (right_col != NULL)))
				names[nnames++] = nm;
		}
	}
	p.x.label = "time (s)";
	p.x.zero = true;
	p.y.label = ylabel;
	p.y.zero = true;
	p.y2.label = y2label;
	p.y2.zero = true;
	for (unsigned j = 0; j < nnames; j++) {
		for (unsigned c = 0; c <= ncols; c++) {
			const char *col = c < ncols ? cols[c] : right_col;
			double *y = html_doubles(h, io->n);
			struct plot_series *s;

			if (!col || !y)
				continue;
			for (size_t k = 0; k < io->n; k++) {
				size_t i;
				json_t *d;

				y[k] = NAN;
				json_array_foreach(io->dev[k], i, d)
					if (!strcmp(jstr_get(d, "name") ? jstr_get(d, "name") : "", names[j]))
						y[k] = jnum(d, col);
			}
			s = plot_add(&p, html_printf(h, "%s %s", names[j], col), io->t, y, io->n, PLOT_LINE);
			if (s) {
				s->color = (int)(j * (ncols + 1) + c);
				s->right = c == ncols;
				s->dashed = c == ncols;
			}
		}
	}
	return html_plot(h, &p, title);
}

static void plot_iostat(struct html *h, const char *src, const json_t *root, json_t *const *lines,
			size_t nlines)
{
	static const char *const ios[] = { "r/s", "w/s" }, *const q[] = { "aqu-sz" };
	static const char *const aw[] = { "r_await", "w_await" };
	struct iostat_in io;
	const char *id;

	if (!iostat_in(h, root, lines, nlines, &io))
		return;
	sb_puts(&h->body, "<h3>Devices (--iostat)</h3>\n");
	plot_iostat_cols(h, &io, html_printf(h, "%s: device IOs per second", src), "iostat-ios",
			 "IOs per second", ios, 2, NULL, NULL);
	id = plot_iostat_cols(h, &io, html_printf(h, "%s: device queue and utilisation", src),
			      "iostat-queue", "aqu-sz (requests)", q, 1, "%util", "%util");
	if (id && !h->first_iostat[0])
		snprintf(h->first_iostat, sizeof(h->first_iostat), "%s", id);
	plot_iostat_cols(h, &io, html_printf(h, "%s: device await", src), "iostat-await",
			 "await (ms)", aw, 2, NULL, NULL);
}

/* A job's name for titles: "name" or "name (clone 2)" when clones are reported apart. */
static const char *job_id(struct html *h, const json_t *job)
{
	double clone = jnum(json_object_get(job, "iowl"), "clone");
	const char *name = jstr_get(job, "jobname");

	if (isfinite(clone) && clone > 0)
		return html_printf(h, "%s (clone %.0f)", name ? name : "?", clone);
	return html_strdup(h, name ? name : "?");
}

static void run_job(struct html *h, const json_t *root, const json_t *job, json_t *const *lines,
		    size_t nlines)
{
	const char *jid = job_id(h, job);
	struct timeline tl;

	sb_puts(&h->body, "<h3>");
	sb_esc(&h->body, jid);
	sb_puts(&h->body, "</h3>\n");
	if (json_object_get(json_object_get(job, "iowl"), "not_run")) {
		sb_puts(&h->body, "<p>Not run: ");
		sb_esc(&h->body, jstr_get(json_object_get(job, "iowl"), "not_run"));
		sb_puts(&h->body, "</p>\n");
		return;
	}
	if (timeline(h, job, lines, nlines, &tl)) {
		plot_throughput(h, html_printf(h, "%s: IOPS and bandwidth over time", jid), &tl, root, job, jid);
		plot_latency(h, html_printf(h, "%s: latency over time", jid), &tl, root, job, jid);
	}
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (jnum(json_object_get(job, ddir_name(d)), "total_ios") > 0)
			plot_lat_dist(h, job, d, jid);
	plot_ramp(h, job, jid);
}

/* A run over MPI: each rank's own figures and the totals over the common window (iowl.ranks[], iowl.cluster). */
static void run_ranks(struct html *h, const json_t *doc)
{
	const json_t *iowl = json_object_get(doc, "iowl"), *c = json_object_get(iowl, "cluster");
	const json_t *ranks = json_object_get(iowl, "ranks"), *x;
	size_t i;

	if (!json_array_size(ranks))
		return;
	sb_printf(&h->body, "<h3>Ranks: %zu (", json_array_size(ranks));
	sb_esc(&h->body, jstr_get(c, "mpi") ? jstr_get(c, "mpi") : "MPI");
	sb_printf(&h->body, "), phases started within %.3f ms of each other</h3>\n",
		  jnum(c, "start_spread_ns") / 1e6);
	sb_puts(&h->body, "<table class=\"ranks\">\n<tr><th>rank</th><th class=\"l\">host</th>"
			  "<th>read IOPS</th><th>read MiB/s</th><th>write IOPS</th>"
			  "<th>write MiB/s</th><th>status</th><th class=\"l\">error</th></tr>\n");
	json_array_foreach(ranks, i, x)
	{
		char v[4][32];

		for (unsigned d = 0; d < 2; d++) {
			const json_t *dir = json_object_get(x, ddir_name(d));

			plot_fmt_num(v[2 * d], sizeof(v[2 * d]), jnum(dir, "iops"));
			plot_fmt_num(v[2 * d + 1], sizeof(v[2 * d + 1]),
				     jnum(dir, "bw_bytes") / 1048576);
		}
		sb_printf(&h->body, "<tr><td>%.0f</td><td class=\"l\">", jnum(x, "rank"));
		sb_esc(&h->body, jstr_get(x, "host") ? jstr_get(x, "host") : "?");
		sb_printf(&h->body,
			  "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%.0f</td><td class=\"l\">",
			  v[0], v[1], v[2], v[3], jnum(x, "status"));
		sb_esc(&h->body, jstr_get(x, "error") ? jstr_get(x, "error") : "");
		sb_puts(&h->body, "</td></tr>\n");
	}
	sb_puts(&h->body, "</table>\n");
}

void html_run(struct html *h, const char *src, const json_t *doc, json_t *const *lines,
	      size_t nlines)
{
	size_t i;
	json_t *job;

	sb_puts(&h->body, "<section class=\"run\">\n<h2>");
	sb_esc(&h->body, src);
	sb_puts(&h->body, "</h2>\n");
	json_array_foreach(json_object_get(doc, "jobs"), i, job)
		run_job(h, doc, job, lines, nlines);
	/* Lines alone (the run did not finish): one section per job named in them. */
	if (!doc && nlines) {
		size_t k;
		json_t *row;

		json_array_foreach(json_object_get(lines[0], "jobs"), k, row) {
			json_t *fake = json_pack("{s:O, s:{s:O}}", "jobname",
						 json_object_get(row, "jobname"), "iowl", "clone",
						 json_object_get(row, "clone"));

			if (fake)
				run_job(h, NULL, fake, lines, nlines);
			json_decref(fake);
		}
	}
	run_ranks(h, doc);
	plot_iostat(h, src, doc, lines, nlines);
	sb_puts(&h->body, "</section>\n");
}
