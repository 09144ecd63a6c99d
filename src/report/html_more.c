// SPDX-License-Identifier: MIT
/*
 * The HTML report's plots of a --sweep (IOPS and latency against the swept value, the USL fit),
 * a --curve (latency against achieved IOPS, the knee), an --analyze (where the IOs land, how
 * concentrated they are), and several runs compared (their percentile curves overlaid).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/ddir.h"
#include "iowl/value.h"
#include "report/html_int.h"

static void section_open(struct html *h, const char *src, const char *what)
{
	sb_puts(&h->body, "<section class=\"");
	sb_puts(&h->body, what);
	sb_puts(&h->body, "\">\n<h2>");
	sb_esc(&h->body, src);
	sb_printf(&h->body, ": %s</h2>\n", what);
}

/* A swept value as a number: 32, 4k (1024s), 1.5; NAN when it is not one. */
static double sweep_value(const char *s)
{
	uint64_t v;
	char why[128], *end;
	double d = s ? strtod(s, &end) : NAN;

	if (s && *s && !*end)
		return d;
	return s && !val_parse_size(s, 1024, &v, why) ? (double)v : NAN;
}

/* The key whose values vary the most: the x axis; the others name the lines. */
static const char *sweep_x_key(const json_t *pts)
{
	const json_t *v0 = json_object_get(json_array_get(pts, 0), "values");
	const char *best = NULL, *k;
	size_t bestn = 0;
	json_t *unused;

	json_object_foreach((json_t *)v0, k, unused) {
		size_t distinct = 0, i, j;
		json_t *p, *q;

		json_array_foreach(pts, i, p) {
			const char *a = jstr_get(json_object_get(p, "values"), k);
			bool seen = false;

			json_array_foreach(pts, j, q) {
				if (j >= i)
					break;
				seen = seen || !strcmp(a ? a : "", jstr_get(json_object_get(q, "values"), k) ?: "");
			}
			distinct += !seen;
		}
		if (distinct > bestn && isfinite(sweep_value(jstr_get(v0, k)))) {
			best = k;
			bestn = distinct;
		}
	}
	return best;
}

/* "numjobs=2, bs=4k": the values of p other than xkey. */
static char *line_name(struct html *h, const json_t *p, const char *xkey)
{
	struct sbuf b = { 0 };
	const char *k;
	json_t *v;
	char *s;

	json_object_foreach(json_object_get(p, "values"), k, v) {
		if (!strcmp(k, xkey))
			continue;
		sb_printf(&b, "%s%s=%s", b.len ? ", " : "", k, json_string_value(v) ?: "");
	}
	s = html_strdup(h, b.len ? b.s : "");
	sb_release(&b);
	return s;
}

/* One line per combination of the other keys: point indices grouped, in sweep order. */
struct sweep_lines {
	const char *name[PLOT_MAX_SERIES];
	double *x[PLOT_MAX_SERIES];
	size_t *idx[PLOT_MAX_SERIES];
	size_t n[PLOT_MAX_SERIES];
	unsigned nlines;
};

static void sweep_group(struct html *h, const json_t *pts, const char *xkey, struct sweep_lines *sl)
{
	size_t np = json_array_size(pts), i;
	json_t *p;

	memset(sl, 0, sizeof(*sl));
	json_array_foreach(pts, i, p) {
		const char *nm = line_name(h, p, xkey);
		unsigned l = 0;

		if (!nm)
			return;
		while (l < sl->nlines && strcmp(sl->name[l], nm))
			l++;
		if (l == PLOT_MAX_SERIES / 2)
			continue;	/* the legend has room for so many */
		if (l == sl->nlines) {
			sl->name[l] = nm;
			sl->x[l] = html_doubles(h, np);
			sl->idx[l] = (size_t *)html_doubles(h, np);
			if (!sl->x[l] || !sl->idx[l])
				return;
			sl->nlines++;
		}
		sl->x[l][sl->n[l]] = sweep_value(jstr_get(json_object_get(p, "values"), xkey));
		sl->idx[l][sl->n[l]++] = i;
	}
}

static double *sweep_col(struct html *h, const json_t *pts, const struct sweep_lines *sl, unsigned l,
			 const char *key, double div)
{
	double *y = html_doubles(h, sl->n[l]);

	for (size_t k = 0; y && k < sl->n[l]; k++) {
		const json_t *p = json_array_get(pts, sl->idx[l][k]);

		double v = jnum(p, key);

		/* Older sweeps name the completion latency "mean_us", "p99_us". */
		if (isnan(v) && !strncmp(key, "clat_", 5))
			v = jnum(p, key + 5);
		y[k] = jnum(p, "status") ? NAN : v / div;	/* a failed point is not drawn */
	}
	return y;
}

static bool log_x(const double *x, size_t n)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return false;
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
	}
	return n > 2 && hi / lo >= 16;
}

static void sweep_usl(struct html *h, const char *src, const json_t *pts, const json_t *usl)
{
	size_t np = json_array_size(pts), i;
	double *n = html_doubles(h, np), *x = html_doubles(h, np), *fn, *fx, nmax = 1;
	double lambda = jnum(usl, "lambda"), sigma = jnum(usl, "sigma"), kappa = jnum(usl, "kappa");
	struct plot p = { .kind = "usl" };
	struct plot_series *s;
	json_t *pt;

	if (!usl || json_object_get(usl, "error") || !n || !x || !isfinite(lambda))
		return;
	json_array_foreach(pts, i, pt) {
		n[i] = jnum(pt, "n");
		x[i] = jnum(pt, "status") ? NAN : jnum(pt, "iops");
		nmax = fmax(nmax, n[i]);
	}
	if (jnum(usl, "n_max") > 0)
		nmax = fmax(nmax, fmin(jnum(usl, "n_max") * 1.2, nmax * 4));
	fn = html_doubles(h, 200);
	fx = html_doubles(h, 200);
	if (!fn || !fx)
		return;
	p.x.log = log_x(n, np);
	for (unsigned k = 0; k < 200; k++) {
		fn[k] = p.x.log ? pow(nmax, k / 199.0) : 1 + (nmax - 1) * k / 199.0;
		fx[k] = lambda * fn[k] / (1 + sigma * (fn[k] - 1) + kappa * fn[k] * (fn[k] - 1));
	}
	p.title = html_printf(h, "%s: universal scalability law", src);
	p.x.label = "concurrency N = iodepth × numjobs";
	p.y.label = "IOPS";
	p.y.zero = true;
	if ((s = plot_add(&p, "measured", n, x, np, PLOT_POINTS)))
		s->color = 0;
	if ((s = plot_add(&p, html_printf(h, "USL fit: σ=%.4g κ=%.4g λ=%.4g", sigma, kappa, lambda), fn,
			  fx, 200, PLOT_LINE)))
		s->color = 1;
	if (jnum(usl, "n_max") > 0 && jnum(usl, "x_max") > 0)
		p.mark[p.nmark++] = (struct plot_mark){ jnum(usl, "n_max"), jnum(usl, "x_max"),
							html_printf(h, "peak %.3g IOPS at N=%.1f",
								    jnum(usl, "x_max"), jnum(usl, "n_max")), false };
	html_plot(h, &p, html_printf(h, "USL fit over the sweep: sigma (contention) %.4g, kappa (coherency) %.4g, peak at N=%s, R²=%.3f; limited by %s",
				     sigma, kappa,
				     jnum(usl, "n_max") > 0 ? html_printf(h, "%.1f", jnum(usl, "n_max")) : "none (no peak)",
				     jnum(usl, "r2"), jstr_get(usl, "limit") ?: "?"));
}

void html_sweep(struct html *h, const char *src, const json_t *doc)
{
	const json_t *pts = json_object_get(doc, "points");
	const char *xkey = sweep_x_key(pts);
	struct plot pi = { .kind = "sweep-iops", .has_y2 = true }, pl = { .kind = "sweep-latency" };
	struct sweep_lines sl;
	double lo = INFINITY, hi = 0;

	if (!xkey || !json_array_size(pts))
		return;
	sweep_group(h, pts, xkey, &sl);
	section_open(h, src, "sweep");
	pi.title = html_printf(h, "%s: IOPS and bandwidth against %s", src, xkey);
	pl.title = html_printf(h, "%s: latency against %s", src, xkey);
	pi.x.label = pl.x.label = xkey;
	pi.y.label = "IOPS";
	pi.y2.label = "bandwidth (MB/s)";
	pi.y.zero = pi.y2.zero = pl.y.zero = true;
	pl.y.label = "completion latency (µs)";
	for (unsigned l = 0; l < sl.nlines; l++) {
		const char *nm = sl.name[l][0] ? sl.name[l] : NULL;
		struct plot_series *s;
		double *p99 = sweep_col(h, pts, &sl, l, "clat_p99_us", 1);

		pi.x.log = pl.x.log = log_x(sl.x[l], sl.n[l]);
		if ((s = plot_add(&pi, nm ? html_printf(h, "IOPS %s", nm) : "IOPS", sl.x[l],
				  sweep_col(h, pts, &sl, l, "iops", 1), sl.n[l], PLOT_LINEPOINTS)))
			s->color = (int)l;
		if ((s = plot_add(&pi, nm ? html_printf(h, "MB/s %s", nm) : "MB/s", sl.x[l],
				  sweep_col(h, pts, &sl, l, "mb_s", 1), sl.n[l], PLOT_LINE))) {
			s->color = (int)l;
			s->dashed = s->right = true;
		}
		if ((s = plot_add(&pl, nm ? html_printf(h, "mean %s", nm) : "mean", sl.x[l],
				  sweep_col(h, pts, &sl, l, "clat_mean_us", 1), sl.n[l], PLOT_LINEPOINTS)))
			s->color = (int)l;
		if ((s = plot_add(&pl, nm ? html_printf(h, "p99 %s", nm) : "p99", sl.x[l], p99, sl.n[l],
				  PLOT_LINEPOINTS))) {
			s->color = (int)l;
			s->dashed = true;
		}
		for (size_t k = 0; p99 && k < sl.n[l]; k++)
			if (p99[k] > 0) {
				lo = fmin(lo, p99[k]);
				hi = fmax(hi, p99[k]);
			}
	}
	pl.y.log = lo > 0 && hi / lo >= 50;
	html_plot(h, &pi, html_printf(h, "IOPS (left) and bandwidth (right, dashed) at each %s", xkey));
	html_plot(h, &pl, html_printf(h, "mean (solid) and p99 (dashed) completion latency at each %s", xkey));
	sweep_usl(h, src, pts, json_object_get(doc, "usl"));
	sb_puts(&h->body, "</section>\n");
}

static int cmp_by_iops(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

void html_curve(struct html *h, const char *src, const json_t *doc)
{
	static const char *const cols[] = { "sched_lat_mean_us", "sched_lat_p99_us", "clat_mean_us" };
	static const char *const names[] = { "mean from intended start", "p99 from intended start",
					     "completion latency mean" };
	const json_t *pts = json_object_get(doc, "curve");
	size_t n = json_array_size(pts), i;
	double *rows = html_doubles(h, 5 * n), knee = jnum(doc, "knee_pct");
	struct plot p = { .kind = "curve" };
	json_t *pt;

	if (!n || !rows)
		return;
	json_array_foreach(pts, i, pt) {
		rows[5 * i] = jnum(pt, "status") ? NAN : jnum(pt, "iops");
		rows[5 * i + 1] = jnum(pt, "pct");
		for (unsigned c = 0; c < 3; c++)
			rows[5 * i + 2 + c] = jnum(pt, cols[c]);
	}
	qsort(rows, n, 5 * sizeof(double), cmp_by_iops);
	section_open(h, src, "curve");
	p.title = html_printf(h, "%s: latency against throughput", src);
	p.x.label = "achieved IOPS";
	p.x.zero = true;
	p.y.label = "latency (µs)";
	p.y.zero = true;
	for (unsigned c = 0; c < 3; c++) {
		double *x = html_doubles(h, n), *y = html_doubles(h, n);
		struct plot_series *s;

		for (size_t k = 0; x && y && k < n; k++) {
			x[k] = rows[5 * k];
			y[k] = rows[5 * k + 2 + c];
		}
		if ((s = plot_add(&p, names[c], x, y, n, PLOT_LINEPOINTS)))
			s->dashed = c == 1;
		for (size_t k = 0; c == 0 && knee > 0 && k < n; k++)
			if (fabs(rows[5 * k + 1] - knee) < 1e-9)
				p.mark[p.nmark++] = (struct plot_mark){ x[k], y[k],
					html_printf(h, "knee: %.0f%% of the maximum (%.0f IOPS)", knee, x[k]), false };
	}
	html_plot(h, &p, knee > 0 ? html_printf(h, "the knee: at %.0f%% of the maximum rate the mean latency from each IO's intended start passes twice the lightest load's", knee) :
				    "no knee: the latency stays within twice the lightest load's up to the highest load");
	sb_puts(&h->body, "</section>\n");
}

static void analysis_heatmap(struct html *h, const json_t *a, const char *name)
{
	const json_t *hm = json_object_get(a, "heatmap"), *cells = json_object_get(hm, "counts");
	unsigned rows = (unsigned)json_array_size(cells), cols;
	double span = jnum(hm, "bytes"), ios = jnum(a, "ios"), div = 1;
	const char *unit = "bytes";
	struct plot_grid *g;
	struct plot p = { .kind = "heatmap", .height = 340 };
	double *v;

	if (!rows || !(cols = (unsigned)json_array_size(json_array_get(cells, 0))) || !(span > 0))
		return;
	g = (struct plot_grid *)html_doubles(h, (sizeof(*g) + sizeof(double) - 1) / sizeof(double));
	v = html_doubles(h, (size_t)rows * cols);
	if (!g || !v)
		return;
	for (unsigned r = 0; r < rows; r++)
		for (unsigned c = 0; c < cols; c++)
			v[(size_t)r * cols + c] = json_number_value(json_array_get(json_array_get(cells, r), c));
	if (span >= 1024.0 * 1048576) {
		div = 1024.0 * 1048576;
		unit = "GiB";
	} else if (span >= 1048576) {
		div = 1048576;
		unit = "MiB";
	} else if (span >= 1024) {
		div = 1024;
		unit = "KiB";
	}
	*g = (struct plot_grid){ v, rows, cols, 0, ios, 0, span / div, "IOs per cell:" };
	p.grid = g;
	p.title = html_printf(h, "%s: where the IOs land", name);
	p.x.label = "IO number";
	p.x.fixed = true;
	p.x.max = ios;
	p.y.label = html_printf(h, "offset (%s)", unit);
	p.y.fixed = true;
	p.y.max = span / div;
	html_plot(h, &p, html_printf(h, "%s: offset of each generated IO (y) against its number (x), %u x %u cells; dark: many IOs",
				     name, cols, rows));
}

static void analysis_concentration(struct html *h, const json_t *a, const char *name)
{
	const json_t *c = json_object_get(json_object_get(a, "concentration"), "curve");
	const json_t *hot = json_object_get(json_object_get(a, "concentration"), "hottest_pct");
	size_t n = json_array_size(c), nh = json_object_size(hot), i = 0;
	double *x = html_doubles(h, n + 1), *y = html_doubles(h, n + 1);
	double *hx = html_doubles(h, nh), *hy = html_doubles(h, nh);
	struct plot p = { .kind = "concentration" };
	struct plot_series *s;
	const char *k;
	json_t *pt;

	if (!n || !x || !y || !hx || !hy)
		return;
	json_array_foreach(c, i, pt) {
		x[i] = jnum(pt, "blocks_pct");
		y[i] = jnum(pt, "ios_pct");
	}
	i = 0;
	json_object_foreach((json_t *)hot, k, pt) {
		hx[i] = strtod(k, NULL);
		hy[i++] = json_number_value(pt);
	}
	p.title = html_printf(h, "%s: concentration", name);
	p.x.label = "share of the blocks, hottest first (%, log scale)";
	p.x.log = true;
	p.y.label = "share of the IOs (%)";
	p.y.fixed = true;
	p.y.max = 100;
	if ((s = plot_add(&p, "IOs on the hottest blocks", x, y, n, PLOT_LINE)))
		s->color = 0;
	if ((s = plot_add(&p, "hottest 1, 5, 10, 20, 50 %", hx, hy, nh, PLOT_POINTS)))
		s->color = 1;
	html_plot(h, &p, html_printf(h, "%s: share of the IOs that fall on the hottest share of the blocks (blocks of %.0f bytes)",
				     name, jnum(json_object_get(a, "concentration"), "block_size")));
}

void html_analysis(struct html *h, const char *src, const json_t *doc)
{
	size_t i;
	json_t *a;

	if (!json_array_size(json_object_get(doc, "analysis")))
		return;
	section_open(h, src, "pattern");
	json_array_foreach(json_object_get(doc, "analysis"), i, a) {
		const char *name = jstr_get(a, "jobname") ?: "?";

		sb_puts(&h->body, "<h3>");
		sb_esc(&h->body, name);
		sb_printf(&h->body, "</h3>\n<p>%.0f IOs generated, none issued.</p>\n", jnum(a, "ios"));
		analysis_heatmap(h, a, name);
		analysis_concentration(h, a, name);
	}
	sb_puts(&h->body, "</section>\n");
}

void html_compare(struct html *h, const json_t *const *docs, const char *const *names, size_t n)
{
	struct plot p = { .kind = "compare" };
	double hi = 0, lo = INFINITY, xmax = 1, div;
	const char *unit;

	for (size_t f = 0; f < n; f++) {
		size_t j;
		json_t *job;

		json_array_foreach(json_object_get(docs[f], "jobs"), j, job) {
			for (unsigned d = 0; d < DDIR_NR; d++) {
				const json_t *dir = json_object_get(job, ddir_name(d)),
					     *lat = json_object_get(dir, "clat_ns");
				double *x, *y;
				size_t i;

				if (!json_object_get(lat, "percentile"))
					lat = json_object_get(dir, "lat_ns");
				if (!(jnum(dir, "total_ios") > 0) || !(i = html_pct_points(h, lat, &x, &y)))
					continue;
				for (size_t k = 0; k < i; k++) {
					xmax = fmax(xmax, x[k]);
					hi = fmax(hi, y[k]);
					lo = fmin(lo, y[k]);
				}
				plot_add(&p,
					 html_printf(h, "%s: %s %s", names[f],
						     jstr_get(job, "jobname") ?: "?", ddir_name(d)),
					 x, y, i, PLOT_LINEPOINTS);
			}
		}
	}
	if (!(hi > 0))
		return;
	unit = lat_unit(sqrt(fmax(1, lo) * hi), &div);
	for (unsigned s = 0; s < p.ns; s++)
		for (size_t i = 0; i < p.s[s].n; i++)
			((double *)p.s[s].y)[i] /= div;
	sb_puts(&h->body, "<section class=\"compare\">\n<h2>Runs compared</h2>\n");
	p.title = "completion latency percentiles, every run";
	p.x.label = "percentile (log scale of 1 - p)";
	p.x.ticks = PLOT_TICK_TAIL;
	p.x.fixed = true;
	p.x.max = ceil(xmax - 1e-9);
	p.y.label = html_printf(h, "completion latency (%s)", unit);
	p.y.log = lo > 0 && hi / lo >= 50;
	p.y.zero = true;
	html_plot(h, &p, "the percentiles each run reported, one line per run, job and direction");
	sb_puts(&h->body, "</section>\n");
}
