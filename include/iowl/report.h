/* SPDX-License-Identifier: MIT */
/* Results of a run as the reports see them, and the report writers (normal text, fio-compatible JSON). */
#ifndef IOWL_REPORT_H
#define IOWL_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "iowl/ddir.h"
#include "iowl/diskstats.h"
#include "iowl/result.h"

/* Prints the results as fio's normal output does.  Returns 0 or -errno. */
int report_text(FILE *f, const struct run_result *r);

/* Prints the results as one fio-compatible JSON document (json+ adds the histogram bins).  Returns 0 or -errno. */
int report_json(FILE *f, const struct run_result *r, bool plus);

/* Prints one fio terse line per reported unit, terse version ver (2 to 5).  Returns 0 or -errno. */
int report_terse(FILE *f, const struct run_result *r, unsigned ver);

/* The JSON document report_json() prints (new reference), NULL when out of memory. */
struct json_t *report_json_tree(const struct run_result *r, bool plus);

/* The machine a run ran on, for the reports. */
struct report_host {
	char hostname[256], kernel[128], machine[128];
	long cpus;
};
void report_host(struct report_host *h);

/* What the HTML report says about where the results came from (NULL fields: not known). */
struct report_meta {
	const char *command;		/* the command line, for a report written by the run itself */
};

/*
 * Writes one self-contained HTML page (report.c, html.c) drawn from one source's JSON
 * documents (a run, its --status-interval lines, a sweep, a curve, an analysis).  Returns 0
 * or -errno.
 */
int report_html(FILE *f, const char *name, struct json_t *const *docs, size_t n,
		const struct report_meta *m);
int report_html_file(const char *path, const char *name, struct json_t *const *docs, size_t n,
		     const struct report_meta *m);

/* Prints one interval as text, or as one JSON document on one line (an ivl_print_fn).  Returns 0 or -errno. */
int report_interval(FILE *f, const struct ivl_view *v, bool json);

/* The devices' iostat -x figures of the set's last interval, as a JSON array (new reference). */
struct json_t *report_iostat_json(const struct disk_set *s);

/*
 * An ivl_watch_fn that appends each interval's device figures ({"t_ms", "ms", "devices"}) to
 * the JSON array *(json_t **)ctx, made on first use.
 */
struct ivl_view;
void report_iostat_record(void *ctx, const struct ivl_view *v, bool last);

/*
 * Writes the page at path for doc and extra (another document on the same page, e.g. the jobs'
 * analysis; NULL: none), named name, naming the command (NULL: not known); takes both references.
 * Says on stderr why it could not.  Returns 0 or -errno.
 */
int report_html_page(const char *path, const char *name, const char *command, struct json_t *doc,
		     struct json_t *extra);

/* iowl report RESULTS.json [MORE.json ...] -o FILE.html (argv[0] is "report").  Returns the exit status. */
int report_html_main(int argc, char **argv);

#endif
