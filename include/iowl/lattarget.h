/* SPDX-License-Identifier: MIT */
/* fio's latency limits: max_latency, and latency_target's search for the deepest queue that keeps it. */
#ifndef IOWL_LATTARGET_H
#define IOWL_LATTARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/ddir.h"

struct job_opts;

/*
 * The option parsers behind the option table's latency_percentile (above 0, at most 100) and
 * max_latency (per direction).  Return 0 or -EINVAL with why set (VAL_WHY_LEN).
 */
int lt_parse_percentile(double *out, const char *v, char *why);
int lt_parse_max_latency(uint64_t max[DDIR_NR], const char *v, char *why);

/* What lt_check() asks of the worker. */
enum lt_action {
	LT_NONE = 0,
	LT_QUIESCE, /* the depth went down: let what is in flight complete first */
	LT_FINAL,   /* the depth is found: quiesce, reset the statistics, run one more window */
	LT_DONE,    /* the final window kept the target: the job ends */
	LT_FATAL,   /* the target is out of reach: the job ends with ETIMEDOUT */
};

/*
 * The search, as fio's: the depth starts at 1 and doubles while a window of latency_window
 * keeps latency_percentile of its IOs at or under latency_target, then bisects between the
 * last depth that kept it and the first that did not; when the depth stops changing it runs
 * one more window with fresh statistics and ends (or, with latency_run, goes on adjusting).
 */
struct lat_target {
	uint64_t target_ns, window_ns;
	double pct;
	bool run;     /* latency_run: never ends, keeps adjusting */
	unsigned max; /* iodepth */
	unsigned qd, qd_low, qd_high;
	bool end_run;	 /* in the final window */
	unsigned stable; /* successes in a row one below a depth that failed */
	uint64_t window_start, window_ios, failed;
};

/* Starts the search at now, with ios completed so far. */
void lt_init(struct lat_target *lt, const struct job_opts *o, unsigned iodepth, uint64_t now,
	     uint64_t ios);

/*
 * One completed IO of latency lat_ns, ios completed so far.  Returns LT_FATAL when the target
 * is out of reach (an IO over it at depth 1 with latency_percentile=100: the job ends with
 * ETIMEDOUT, as fio's), LT_QUIESCE when the depth went down, else LT_NONE.
 */
enum lt_action lt_io(struct lat_target *lt, uint64_t lat_ns, uint64_t now, uint64_t ios);

/* At the end of a window: the next depth.  Returns what the worker must do. */
enum lt_action lt_check(struct lat_target *lt, uint64_t now, uint64_t ios);

#endif
