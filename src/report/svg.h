/* SPDX-License-Identifier: MIT */
/* A small plotting layer for the HTML report: a growing text buffer and plots drawn as inline SVG. */
#ifndef IOWL_REPORT_SVG_H
#define IOWL_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>

/* Text that grows as it is written; oom records a failed allocation (the text stops growing). */
struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_puts(struct sbuf *b, const char *s);
/* Appends s with &, <, >, " and ' escaped for XML text and attributes; bytes that are not UTF-8 become '?'. */
void sb_esc(struct sbuf *b, const char *s);
void sb_release(struct sbuf *b);

#define PLOT_MAX_SERIES	16
#define PLOT_MAX_BANDS	4
#define PLOT_MAX_MARKS	8

enum plot_style {
	PLOT_LINE,		/* a polyline through the points, in order */
	PLOT_POINTS,		/* a dot per point */
	PLOT_LINEPOINTS,	/* both */
	PLOT_BARS,		/* a bar from the x axis up to each y, x the bar's left edge, width to the next x */
};

/* How an axis labels its ticks. */
enum plot_ticks {
	PLOT_TICK_NUM,		/* 1, 2.5, 10k, 1.5M */
	PLOT_TICK_TAIL,		/* v = -log10(1 - p): labelled as the percentile 100 p (0, 90, 99, 99.9) */
};

struct plot_axis {
	const char *label;	/* with its unit: "latency (µs)" */
	bool log;		/* log10 scale (positive values only) */
	bool fixed;		/* min and max given; otherwise taken from the data */
	double min, max;
	bool zero;		/* a linear axis taken from the data starts at 0 */
	enum plot_ticks ticks;
};

struct plot_series {
	const char *name;	/* in the legend; NULL: not listed */
	const double *x, *y;
	size_t n;
	enum plot_style style;
	int color;		/* index into the palette */
	bool dashed;
	bool right;		/* drawn against the right-hand axis (y2) */
};

/* A shaded span of x (ramp, steady-state window). */
struct plot_band {
	double x0, x1;
	const char *label;
	int color;
};

/* A labelled point (the knee, the fit's peak); a vertical line at x when y is NaN. */
struct plot_mark {
	double x, y;
	const char *label;
	bool right;
};

/* A heat map filling the plot area: rows x cols values, row 0 at the bottom (y0). */
struct plot_grid {
	const double *v;	/* rows * cols, row-major */
	unsigned rows, cols;
	double x0, x1, y0, y1;	/* the area it covers, in axis units */
	const char *scale_label;	/* the colour scale's legend */
};

struct plot {
	const char *id;		/* the svg element's id (links from the diagnostics) */
	const char *kind;	/* data-plot attribute: what the plot shows */
	const char *title;
	unsigned width, height;	/* pixels; 0: 760 x 300 */
	struct plot_axis x, y, y2;
	bool has_y2;
	struct plot_series s[PLOT_MAX_SERIES];
	unsigned ns;
	struct plot_band band[PLOT_MAX_BANDS];
	unsigned nband;
	struct plot_mark mark[PLOT_MAX_MARKS];
	unsigned nmark;
	const struct plot_grid *grid;
};

/* Adds a series; returns it (NULL when the plot has PLOT_MAX_SERIES already). */
struct plot_series *plot_add(struct plot *p, const char *name, const double *x, const double *y,
			     size_t n, enum plot_style style);

/* True when at least one series has a point that can be drawn, or there is a grid. */
bool plot_has_data(const struct plot *p);

/* Writes p as one <svg> element: axes with ticks at round numbers, grid lines, series, legend. */
void plot_svg(struct sbuf *b, const struct plot *p);

/*
 * Round tick positions covering [lo, hi] (a log axis: powers of ten, with 2 and 5 between
 * them when there are few decades): up to max ticks into t.  Returns the number written.
 */
unsigned plot_ticks(double lo, double hi, bool log, double *t, unsigned max);

/* A tick label: 3 significant figures with k, M, G, T suffixes ("2.5k", "100", "0.05"). */
void plot_fmt_num(char *buf, size_t len, double v);

#endif
