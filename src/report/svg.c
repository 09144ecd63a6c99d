// SPDX-License-Identifier: MIT
/* The report's plots as inline SVG: round ticks, log scales, shaded spans, marks, heat maps, legends. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"

#define DEF_W		760
#define DEF_H		300
#define MARGIN_L	72
#define MARGIN_R	24
#define MARGIN_R2	72
#define MARGIN_T	30
#define MARGIN_B	44
#define LEGEND_ROW	16
#define MAX_TICKS	24
#define HEAT_SHADES	16	/* shades of the heat map: equal neighbours merge into one rectangle */
#define FONT		"font-family=\"sans-serif\" font-size=\"11\""

/* Colour-blind safe (Okabe-Ito, then Tol's muted). */
static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#882255",
	"#44aa99", "#999933", "#aa4499", "#332288",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static const char *color(int i)
{
	return palette[(unsigned)(i < 0 ? 0 : i) % NPALETTE];
}

static void sb_grow(struct sbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *s;

	if (b->oom || b->len + need + 1 <= b->cap)
		return;
	while (cap < b->len + need + 1)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return;
	}
	b->s = s;
	b->cap = cap;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_grow(b, (size_t)n);
	if (b->oom)
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_puts(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	sb_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

/* The length of the UTF-8 sequence at s (1..4), 0 when it is not one. */
static unsigned utf8_len(const unsigned char *s)
{
	unsigned n = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 : (*s & 0xf0) == 0xe0 ? 3 :
		     (*s & 0xf8) == 0xf0 ? 4 : 0;

	for (unsigned i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return *s >= 0x80 && n == 1 ? 0 : n;
}

void sb_esc(struct sbuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		unsigned n = utf8_len(p);
		char c[5] = "";

		switch (*p) {
		case '&': sb_puts(b, "&amp;"); break;
		case '<': sb_puts(b, "&lt;"); break;
		case '>': sb_puts(b, "&gt;"); break;
		case '"': sb_puts(b, "&quot;"); break;
		case '\'': sb_puts(b, "&#39;"); break;
		default:
			/* XML 1.0 allows no control characters but tab, newline and return. */
			if (!n || (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')) {
				sb_puts(b, "?");
				n = 1;
				break;
			}
			memcpy(c, p, n);
			sb_puts(b, c);
			break;
		}
		p += n ? n : 1;
	}
}

void sb_release(struct sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

struct plot_series *plot_add(struct plot *p, const char *name, const double *x, const double *y,
			     size_t n, enum plot_style style)
{
	struct plot_series *s;

	if (p->ns == PLOT_MAX_SERIES)
		return NULL;
	s = &p->s[p->ns];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->x = x;
	s->y = y;
	s->n = n;
	s->style = style;
	s->color = (int)p->ns;
	p->ns++;
	return s;
}

static bool drawable(double v, bool log)
{
	return isfinite(v) && (!log || v > 0);
}

bool plot_has_data(const struct plot *p)
{
	if (p->grid && p->grid->rows && p->grid->cols)
		return true;
	for (unsigned i = 0; i < p->ns; i++) {
		const struct plot_axis *ya = p->s[i].right ? &p->y2 : &p->y;

		for (size_t k = 0; k < p->s[i].n; k++)
			if (drawable(p->s[i].x[k], p->x.log) && drawable(p->s[i].y[k], ya->log))
				return true;
	}
	return false;
}

/* 1, 2 or 5 times a power of ten, the nearest at or above v. */
static double nice_step(double v)
{
	double e = pow(10, floor(log10(v))), f = v / e;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

unsigned plot_ticks(double lo, double hi, bool log, double *t, unsigned max)
{
	unsigned n = 0;

	if (!(hi > lo) || !isfinite(lo) || !isfinite(hi))
		return 0;
	if (log) {
		int d0 = (int)floor(log10(lo) + 1e-9), d1 = (int)ceil(log10(hi) - 1e-9);
		int every = (d1 - d0 + 7) / 8;
		static const double sub[] = { 1, 2, 5 };

		if (every < 1)
			every = 1;
		for (int d = d0; d <= d1 && n < max; d++) {
			for (unsigned k = 0; k < 3 && n < max; k++) {
				double v = sub[k] * pow(10, d);

				if ((k && (d1 - d0 > 2 || every > 1)) || (!k && (d - d0) % every))
					continue;
				if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
					t[n++] = v;
			}
		}
		return n;
	}
	double step = nice_step((hi - lo) / 5);

	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

void plot_fmt_num(char *buf, size_t len, double v)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T", "P" };
	unsigned u = 0;
	double a = fabs(v);

	while (a >= 1000 && u < 5) {
		a /= 1000;
		v /= 1000;
		u++;
	}
	if (a == 0)
		snprintf(buf, len, "0");
	else if (a >= 100 || a == floor(a))
		snprintf(buf, len, "%.0f%s", v, sfx[u]);
	else if (a >= 10)
		snprintf(buf, len, "%.3g%s", v, sfx[u]);
	else
		snprintf(buf, len, "%.3g%s", v, sfx[u]);
}

/* A percentile from v = -log10(1 - p): 0 -> "0", 1 -> "90", 2 -> "99", 3 -> "99.9". */
static void fmt_tail(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.*f", v > 2 ? (int)ceil(v - 2 - 1e-9) : 0, 100 * (1 - pow(10, -v)));
}

/* An axis's drawn range: fixed, or the data's rounded out to ticks. */
struct range {
	double lo, hi;
	bool log;
};

static void data_range(const struct plot *p, int axis, double *lo, double *hi)
{
	const struct plot_axis *ax = axis == 0 ? &p->x : axis == 1 ? &p->y : &p->y2;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (unsigned i = 0; i < p->ns; i++) {
		const struct plot_series *s = &p->s[i];
		const struct plot_axis *ya = s->right ? &p->y2 : &p->y;

		if (axis && (axis == 2) != s->right)
			continue;
		for (size_t k = 0; k < s->n; k++) {
			double v = axis ? s->y[k] : s->x[k];

			if (!drawable(s->x[k], p->x.log) || !drawable(s->y[k], ya->log))
				continue;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
	for (unsigned i = 0; i < p->nmark; i++) {
		double v = axis ? p->mark[i].y : p->mark[i].x;

		if ((axis && (axis == 2) != p->mark[i].right) || !drawable(v, ax->log))
			continue;
		*lo = fmin(*lo, v);
		*hi = fmax(*hi, v);
	}
	if (p->grid && axis < 2) {
		*lo = fmin(*lo, axis ? p->grid->y0 : p->grid->x0);
		*hi = fmax(*hi, axis ? p->grid->y1 : p->grid->x1);
	}
}

static struct range axis_range(const struct plot *p, int axis)
{
	const struct plot_axis *ax = axis == 0 ? &p->x : axis == 1 ? &p->y : &p->y2;
	struct range r = { ax->min, ax->max, ax->log };
	double lo, hi;

	if (ax->fixed)
		return r;
	data_range(p, axis, &lo, &hi);
	if (!isfinite(lo)) {
		lo = ax->log ? 1 : 0;
		hi = ax->log ? 10 : 1;
	}
	if (ax->log) {
		r.lo = pow(10, floor(log10(lo) + 1e-9));
		r.hi = pow(10, ceil(log10(hi) - 1e-9));
		if (r.hi <= r.lo)
			r.hi = r.lo * 10;
		return r;
	}
	if (ax->zero && lo > 0)
		lo = 0;
	if (hi <= lo) {
		double d = lo ? fabs(lo) * 0.1 : 1;

		lo -= lo ? d : 0;
		hi += d;
	}
	if (axis == 0 && !ax->zero) {	/* x: the data's own span (time, a swept value) */
		r.lo = lo;
		r.hi = hi;
		return r;
	}
	double step = nice_step((hi - lo) / 5);

	r.lo = floor(lo / step + 1e-9) * step;
	r.hi = ceil(hi / step - 1e-9) * step;
	return r;
}

/* Where a value lands on an axis of length px pixels starting at px0 (y: flipped). */
static double map(const struct range *r, double v, double px0, double px, bool flip)
{
	double f = r->log ? (log10(v) - log10(r->lo)) / (log10(r->hi) - log10(r->lo)) :
			    (v - r->lo) / (r->hi - r->lo);

	return flip ? px0 + px - f * px : px0 + f * px;
}

struct frame {
	struct range x, y, y2;
	double l, t, w, h;	/* the plot area */
};

static void tick_label(char *buf, size_t len, const struct plot_axis *ax, double v)
{
	if (ax->ticks == PLOT_TICK_TAIL)
		fmt_tail(buf, len, v);
	else
		plot_fmt_num(buf, len, v);
}

static void draw_axis_x(struct sbuf *b, const struct plot *p, const struct frame *f)
{
	double t[MAX_TICKS];
	unsigned n;
	char lab[32];

	if (p->x.ticks == PLOT_TICK_TAIL) {
		n = 0;
		for (double v = ceil(f->x.lo); v <= f->x.hi + 1e-9 && n < MAX_TICKS; v++)
			t[n++] = v;
	} else {
		n = plot_ticks(f->x.lo, f->x.hi, f->x.log, t, MAX_TICKS);
	}
	for (unsigned i = 0; i < n; i++) {
		double x = map(&f->x, t[i], f->l, f->w, false);

		tick_label(lab, sizeof(lab), &p->x, t[i]);
		sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
			  "<text class=\"tick-x\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			  x, f->t, x, f->t + f->h, x, f->t + f->h + 14, lab);
	}
	sb_printf(b, "<text class=\"label-x\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		  f->l + f->w / 2, f->t + f->h + 32);
	sb_esc(b, p->x.label);
	sb_puts(b, "</text>\n");
}

static void draw_axis_y(struct sbuf *b, const struct plot_axis *ax, const struct range *r,
			const struct frame *f, bool right)
{
	double t[MAX_TICKS], x = right ? f->l + f->w : f->l;
	unsigned n = plot_ticks(r->lo, r->hi, r->log, t, MAX_TICKS);
	char lab[32];

	for (unsigned i = 0; i < n; i++) {
		double y = map(r, t[i], f->t, f->h, true);

		tick_label(lab, sizeof(lab), ax, t[i]);
		if (!right)
			sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>",
				  f->l, y, f->l + f->w, y);
		sb_printf(b, "<text class=\"tick-y%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
			  right ? "2" : "", right ? x + 6 : x - 6, y + 4, right ? "start" : "end", lab);
	}
	sb_printf(b, "<text class=\"label-y%s\" transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">",
		  right ? "2" : "", right ? x + 58 : x - 58, f->t + f->h / 2);
	sb_esc(b, ax->label);
	sb_puts(b, "</text>\n");
}

static void draw_bands(struct sbuf *b, const struct plot *p, const struct frame *f)
{
	for (unsigned i = 0; i < p->nband; i++) {
		const struct plot_band *bd = &p->band[i];
		double x0 = map(&f->x, fmax(bd->x0, f->x.lo), f->l, f->w, false);
		double x1 = map(&f->x, fmin(bd->x1, f->x.hi), f->l, f->w, false);

		if (!(x1 > x0))
			continue;
		sb_printf(b, "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.12\"/>",
			  x0, f->t, x1 - x0, f->h, color(bd->color));
		sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\">", x0 + 3, f->t + 12);
		sb_esc(b, bd->label);
		sb_puts(b, "</text>\n");
	}
}

/* A line series as one path; at most two points per pixel column (its lowest and highest). */
static void draw_line(struct sbuf *b, const struct plot_series *s, const struct frame *f,
		      const struct range *yr)
{
	double col = NAN, lo = 0, hi = 0;
	bool pen = false;
	size_t drawn = 0;

	sb_printf(b, "<path class=\"series\" data-name=\"");
	sb_esc(b, s->name);
	sb_printf(b, "\" data-n=\"%zu\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s d=\"",
		  s->n, color(s->color), s->dashed ? " stroke-dasharray=\"5,3\"" : "");
	for (size_t k = 0; k <= s->n; k++) {
		bool ok = k < s->n && drawable(s->x[k], f->x.log) && drawable(s->y[k], yr->log);
		double x = ok ? floor(map(&f->x, s->x[k], f->l, f->w, false) * 2) / 2 : NAN;
		double y = ok ? map(yr, s->y[k], f->t, f->h, true) : NAN;

		if (ok && x == col) {
			lo = fmin(lo, y);
			hi = fmax(hi, y);
			continue;
		}
		if (!isnan(col)) {	/* close the last column */
			sb_printf(b, "%s%.1f %.1f", pen ? "L" : "M", col, lo);
			if (hi != lo)
				sb_printf(b, "L%.1f %.1f", col, hi);
			pen = true;
			drawn++;
		}
		if (!ok)
			pen = false;
		col = x;
		lo = hi = y;
	}
	sb_puts(b, "\"/>\n");
	(void)drawn;
}

static void draw_points(struct sbuf *b, const struct plot_series *s, const struct frame *f,
			const struct range *yr)
{
	sb_printf(b, "<g class=\"points\" fill=\"%s\">", color(s->color));
	for (size_t k = 0; k < s->n; k++)
		if (drawable(s->x[k], f->x.log) && drawable(s->y[k], yr->log))
			sb_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>",
				  map(&f->x, s->x[k], f->l, f->w, false), map(yr, s->y[k], f->t, f->h, true));
	sb_puts(b, "</g>\n");
}

static void draw_bars(struct sbuf *b, const struct plot_series *s, const struct frame *f,
		      const struct range *yr)
{
	double base = yr->log ? f->t + f->h : map(yr, fmax(0, yr->lo), f->t, f->h, true);

	sb_printf(b, "<g class=\"bars\" data-name=\"");
	sb_esc(b, s->name);
	sb_printf(b, "\" data-n=\"%zu\" fill=\"%s\">", s->n, color(s->color));
	for (size_t k = 0; k < s->n; k++) {
		double x, gap = INFINITY, y;

		if (!drawable(s->x[k], f->x.log) || !drawable(s->y[k], yr->log))
			continue;
		x = map(&f->x, s->x[k], f->l, f->w, false);
		if (k > 0 && drawable(s->x[k - 1], f->x.log))
			gap = fmin(gap, x - map(&f->x, s->x[k - 1], f->l, f->w, false));
		if (k + 1 < s->n && drawable(s->x[k + 1], f->x.log))
			gap = fmin(gap, map(&f->x, s->x[k + 1], f->l, f->w, false) - x);
		gap = isfinite(gap) ? fmax(1, fmin(gap * 0.8, 40)) : 20;
		y = map(yr, s->y[k], f->t, f->h, true);
		sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", x - gap / 2,
			  fmin(y, base), gap, fabs(base - y));
	}
	sb_puts(b, "</g>\n");
}

static void draw_marks(struct sbuf *b, const struct plot *p, const struct frame *f)
{
	for (unsigned i = 0; i < p->nmark; i++) {
		const struct plot_mark *m = &p->mark[i];
		const struct range *yr = m->right ? &f->y2 : &f->y;
		double x, y;

		if (!drawable(m->x, f->x.log))
			continue;
		x = map(&f->x, m->x, f->l, f->w, false);
		if (!drawable(m->y, yr->log)) {
			sb_printf(b, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"3,3\"/>",
				  x, f->t, x, f->t + f->h);
			y = f->t + 24 + 12.0 * i;
		} else {
			y = map(yr, m->y, f->t, f->h, true);
			sb_printf(b, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"#333\" stroke-width=\"2\"/>",
				  x, y);
		}
		sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x + (x > f->l + f->w * 0.7 ? -8 : 8),
			  y - 8, x > f->l + f->w * 0.7 ? "end" : "start");
		sb_esc(b, m->label);
		sb_puts(b, "</text>\n");
	}
}

/* White to dark blue over 0..1; a cell with any IO is never white. */
static void heat_color(double f, char *buf, size_t len)
{
	double g = 0.06 + 0.94 * fmin(1, fmax(0, f));

	snprintf(buf, len, "#%02x%02x%02x", (unsigned)(255 - g * 247), (unsigned)(255 - g * 207),
		 (unsigned)(255 - g * 148));
}

/* The grid's cells, a run of equal shade in a row as one rectangle. */
static void draw_grid(struct sbuf *b, const struct plot *p, const struct frame *f)
{
	const struct plot_grid *g = p->grid;
	double max = 0, cw, ch, x0 = map(&f->x, g->x0, f->l, f->w, false);
	double x1 = map(&f->x, g->x1, f->l, f->w, false), y0 = map(&f->y, g->y0, f->t, f->h, true);
	double y1 = map(&f->y, g->y1, f->t, f->h, true);
	char c[8];

	for (size_t i = 0; i < (size_t)g->rows * g->cols; i++)
		max = fmax(max, g->v[i]);
	cw = (x1 - x0) / g->cols;
	ch = (y0 - y1) / g->rows;
	sb_printf(b, "<g class=\"heatmap\" data-rows=\"%u\" data-cols=\"%u\" data-max=\"%.6g\" shape-rendering=\"crispEdges\">",
		  g->rows, g->cols, max);
	for (unsigned r = 0; max > 0 && r < g->rows; r++) {
		unsigned start = 0;

		for (unsigned k = 1; k <= g->cols; k++) {
			const double *row = g->v + (size_t)r * g->cols;
			int s0 = (int)fmin(HEAT_SHADES - 1, floor(row[start] / max * HEAT_SHADES));
			int s1 = k < g->cols ? (int)fmin(HEAT_SHADES - 1, floor(row[k] / max * HEAT_SHADES)) : -1;

			if (s1 == s0)
				continue;
			if (row[start] > 0) {
				heat_color((s0 + 0.5) / HEAT_SHADES, c, sizeof(c));
				sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>",
					  x0 + start * cw, y0 - (r + 1) * ch, (k - start) * cw, ch, c);
			}
			start = k;
		}
	}
	sb_puts(b, "</g>\n");
}

/* The grid's colour scale, above the plot area on the right. */
static void draw_grid_scale(struct sbuf *b, const struct plot *p, const struct frame *f)
{
	const struct plot_grid *g = p->grid;
	char lo[32], hi[32];
	double max = 0;

	for (size_t i = 0; i < (size_t)g->rows * g->cols; i++)
		max = fmax(max, g->v[i]);
	plot_fmt_num(lo, sizeof(lo), 0);
	plot_fmt_num(hi, sizeof(hi), max);
	sb_printf(b, "<g class=\"scale\"><rect x=\"%.1f\" y=\"%.1f\" width=\"100\" height=\"8\" fill=\"url(#%s-ramp)\" stroke=\"#999\"/>"
		  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", f->l + f->w - 100, f->t - 12,
		  p->id, f->l + f->w - 104, f->t - 4);
	sb_esc(b, g->scale_label);
	sb_printf(b, " %s</text><text x=\"%.1f\" y=\"%.1f\">%s</text></g>\n", lo, f->l + f->w + 2,
		  f->t - 4, hi);
}

/* The legend, in rows above the plot area; returns its height. */
static double legend_height(const struct plot *p, double width)
{
	double x = 0, rows = 0;

	for (unsigned i = 0; i < p->ns; i++) {
		double w = p->s[i].name ? 30 + 6.5 * (double)strlen(p->s[i].name) : 0;

		if (!w)
			continue;
		if (!rows || x + w > width) {
			rows++;
			x = 0;
		}
		x += w;
	}
	return rows * LEGEND_ROW;
}

static void draw_legend(struct sbuf *b, const struct plot *p, double left, double top, double width)
{
	double x = 0, y = top;
	bool first = true;

	sb_puts(b, "<g class=\"legend\">");
	for (unsigned i = 0; i < p->ns; i++) {
		const struct plot_series *s = &p->s[i];
		double w = s->name ? 30 + 6.5 * (double)strlen(s->name) : 0;

		if (!w)
			continue;
		if (first || x + w > width) {
			y += first ? 0 : LEGEND_ROW;
			x = 0;
			first = false;
		}
		if (s->style == PLOT_POINTS || s->style == PLOT_BARS)
			sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>",
				  left + x + 6, y - 9, color(s->color));
		else
			sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>",
				  left + x, y - 4, left + x + 22, y - 4, color(s->color),
				  s->dashed ? " stroke-dasharray=\"5,3\"" : "");
		sb_printf(b, "<text class=\"legend-item\" x=\"%.1f\" y=\"%.1f\">", left + x + 26, y);
		sb_esc(b, s->name);
		sb_puts(b, "</text>");
		x += w;
	}
	sb_puts(b, "</g>\n");
}

void plot_svg(struct sbuf *b, const struct plot *p)
{
	unsigned W = p->width ? p->width : DEF_W, H = p->height ? p->height : DEF_H;
	struct frame f;
	double lh;

	f.l = MARGIN_L;
	f.w = W - MARGIN_L - (p->has_y2 ? MARGIN_R2 : MARGIN_R);
	lh = legend_height(p, f.w);
	f.t = MARGIN_T + lh + (p->grid ? 14 : 0);
	f.h = H - MARGIN_B - MARGIN_T;
	H = (unsigned)(f.t + f.h + MARGIN_B);
	f.x = axis_range(p, 0);
	f.y = axis_range(p, 1);
	f.y2 = p->has_y2 ? axis_range(p, 2) : f.y;
	sb_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" data-plot=\"%s\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" " FONT ">\n",
		  p->id, p->kind ? p->kind : "", W, H, W, H);
	sb_puts(b, "<title>");
	sb_esc(b, p->title);
	sb_printf(b, "</title>\n<defs><clipPath id=\"%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>",
		  p->id, f.l, f.t, f.w, f.h);
	if (p->grid)
		sb_printf(b, "<linearGradient id=\"%s-ramp\"><stop offset=\"0\" stop-color=\"#ffffff\"/><stop offset=\"1\" stop-color=\"#086b9b\"/></linearGradient>",
			  p->id);
	sb_puts(b, "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
	sb_printf(b, "<text class=\"title\" x=\"%.1f\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", f.l);
	sb_esc(b, p->title);
	sb_puts(b, "</text>\n");
	draw_legend(b, p, f.l, MARGIN_T + 8, f.w);
	draw_axis_x(b, p, &f);
	draw_axis_y(b, &p->y, &f.y, &f, false);
	if (p->has_y2)
		draw_axis_y(b, &p->y2, &f.y2, &f, true);
	sb_printf(b, "<g clip-path=\"url(#%s-clip)\">\n", p->id);
	draw_bands(b, p, &f);
	if (p->grid)
		draw_grid(b, p, &f);
	for (unsigned i = 0; i < p->ns; i++) {
		const struct plot_series *s = &p->s[i];
		const struct range *yr = s->right ? &f.y2 : &f.y;

		if (s->style == PLOT_BARS)
			draw_bars(b, s, &f, yr);
		if (s->style == PLOT_LINE || s->style == PLOT_LINEPOINTS)
			draw_line(b, s, &f, yr);
		if (s->style == PLOT_POINTS || s->style == PLOT_LINEPOINTS)
			draw_points(b, s, &f, yr);
	}
	draw_marks(b, p, &f);
	sb_puts(b, "</g>\n");
	if (p->grid)
		draw_grid_scale(b, p, &f);
	sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n</svg>\n",
		  f.l, f.t, f.w, f.h);
}
