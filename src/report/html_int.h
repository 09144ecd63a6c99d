/* SPDX-License-Identifier: MIT */
/* What the HTML report's files share: the page being built, JSON accessors and the plot sections. */
#ifndef IOWL_REPORT_HTML_INT_H
#define IOWL_REPORT_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "report/svg.h"

/* The page being built: the sections' text, memory the plots point into, and link targets. */
struct html {
	struct sbuf body;
	void **mem;
	size_t nmem, capmem;
	unsigned nplots;
	bool oom;
	char first_lat[48];		/* the first latency-over-time plot's id, for the diagnostics */
	char first_tput[48];
	char first_hist[48];
	char first_iostat[48];
};

/* Zeroed memory for n doubles that lives until the page is written (NULL: out of memory). */
double *html_doubles(struct html *h, size_t n);

/* A copy of s that lives as long (NULL: out of memory). */
char *html_strdup(struct html *h, const char *s);
char *html_printf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Draws p into the page, when it has data, with a caption; its id is set here.  Returns the id or NULL. */
const char *html_plot(struct html *h, struct plot *p, const char *caption);

/* A number from o[key] (integer or real), NAN when absent. */
double jnum(const json_t *o, const char *key);
/* A string from o[key], NULL when absent. */
const char *jstr_get(const json_t *o, const char *key);

/*
 * fio's percentile list of a latency object (clat_ns, lat_ns) as points (x: -log10(1 - p), y:
 * ns), the 100th left out.  Returns how many (0: none).
 */
size_t html_pct_points(struct html *h, const json_t *lat, double **x, double **y);

/* A latency unit for values up to max ns: its name and divisor. */
const char *lat_unit(double max_ns, double *div);

/* The plots of one run document (iowl's or fio's JSON); lines: --status-interval JSON lines. */
void html_run(struct html *h, const char *src, const json_t *doc, json_t *const *lines,
	      size_t nlines);
/* Plots of a --sweep, a --curve and an --analyze document. */
void html_sweep(struct html *h, const char *src, const json_t *doc);
void html_curve(struct html *h, const char *src, const json_t *doc);
void html_analysis(struct html *h, const char *src, const json_t *doc);
/* Percentile curves of the same job across several runs, when more than one run is given. */
void html_compare(struct html *h, const json_t *const *docs, const char *const *names, size_t n);

#endif
