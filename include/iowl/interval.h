/* SPDX-License-Identifier: MIT */
/*
 * The run's clock of intervals, kept by the main thread: it asks the workers for snapshots
 * (snap.h) every interval and turns their differences into each unit's interval series, the
 * --status-interval and --iostat output, the steady-state checks and the averaged fio logs.
 */
#ifndef IOWL_INTERVAL_H
#define IOWL_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iowl/ddir.h"
#include "iowl/lat.h"
#include "iowl/stats.h"

struct worker;
struct disk_set;
struct job;
struct steady;
struct steady;
struct hist;

/* One direction of one interval of a unit. */
struct ivl_dir {
	uint64_t ios, bytes, errors;
	double clat_mean;		/* ns */
	uint64_t clat_p50, clat_p99;	/* ns; 0 without a histogram or without IO */
	uint64_t clat_p999;		/* ns, p99.9; the same */
	uint64_t clat_max;		/* ns, the interval's largest (histogram bin, within 0.4 %); 0 without */
	struct lat_stat clat;		/* the interval's count, sum and sum of squares (min, max: the run's) */
};

/* One interval of a unit: what its workers completed in it (not cumulative). */
struct ivl_point {
	uint64_t t_ns;			/* end of the interval, from the start of the phase */
	uint64_t ns;			/* length */
	unsigned inflight;		/* IOs in flight at its end */
	struct cfill_stats cfill;		/* distinct blocks at its end (cumulative) */
	/* --iostat, buffered jobs: the page cache's share of the reads of the jobs on dev */
	int dev;			/* the device behind the unit's first target; -1: none */
	uint64_t dev_read_bytes;	/* what dev read in the interval */
	double cache_hit;		/* 1 - dev_read_bytes / reads of the jobs on dev; < 0: none */
	struct ivl_dir dir[DDIR_NR];
};

/* One non-empty bin of an interval's histogram. */
struct ivl_bin {
	uint32_t bin;			/* hist_index() */
	uint64_t count;
};

/* An interval's completion latency histogram of one direction: its non-empty bins, in order. */
struct ivl_hist {
	struct ivl_bin *b;
	uint32_t n;
};

/* A unit's series: every interval of its phase, in order; they add up to the unit's totals. */
struct ivl_series {
	struct ivl_point *p;
	unsigned n, cap;
	uint64_t period_ns;
	/*
	 * With ivl_opts.keep_hists: point i's histogram of direction d is h[i * DDIR_NR + d], so
	 * the series of several ranks add up exactly (ranks.h) and json+ prints each interval's
	 * bins.  NULL: not kept.
	 */
	struct ivl_hist *h;
};

/* dst += src, bin by bin.  Returns 0 or -ENOMEM (dst unchanged). */
int ivl_hist_add(struct ivl_hist *dst, const struct ivl_hist *src);

/*
 * Sets direction d's percentiles and largest latency of p from its histogram h, with p's own
 * count and extremes (as each interval's are computed on one rank).
 */
void ivl_point_pcts(struct ivl_point *p, unsigned d, const struct hist *h);

/*
 * Adds another rank's point of the same interval to x: IOs, bytes, errors and IOs in flight add,
 * the mean comes from the merged sums, the largest latency is the larger, the percentiles are
 * left to ivl_point_pcts() on the merged histograms (0 until then); the page cache's figures
 * and the distinct blocks are per host: left out.
 */
void ivl_point_merge(struct ivl_point *x, const struct ivl_point *p);

/* One unit's line of an interval's output. */
struct ivl_row {
	const struct job *job;
	unsigned group, clone, nworkers;
	const struct ivl_point *pt;
	const struct hist
		*hist[DDIR_NR]; /* the completion latencies of pt per direction; NULL: none */
};

/* What one interval's output shows. */
struct ivl_view {
	unsigned k;			/* interval number, from 1 */
	const struct ivl_row *rows;	/* NULL / 0 with --iostat alone */
	unsigned nrows;
	const struct disk_set *disks;	/* NULL: no device view */
	uint64_t t_ns, ns;		/* end of the interval from the phase start, length */
	unsigned nranks;		/* MPI: how many ranks' figures the rows add; 0: one run */
};

/*
 * Called with every interval of a phase as it closes (last false), and once when the phase
 * ends (last true) with what a last sliver too short to be an interval of its own added to the
 * last one (view NULL, or rows with NULL points, when there was none).
 */
typedef void (*ivl_watch_fn)(void *ctx, const struct ivl_view *view, bool last);

/* Prints one interval to f as text, or as one JSON document on one line.  Returns 0 or -errno. */
typedef int (*ivl_print_fn)(FILE *f, const struct ivl_view *v, bool json);

/* Where interval output goes, how it is printed, and how often. */
struct ivl_opts {
	uint64_t period_ns;		/* series, status and iostat interval */
	bool status;			/* --status-interval: print each interval's figures */
	bool iostat;			/* --iostat: print each interval's device view */
	bool json;			/* print intervals as JSON lines, not text */
	FILE *out;
	ivl_print_fn print;		/* the status and iostat lines (report_interval()) */
	ivl_watch_fn watch;		/* NULL: none */
	void *watch_ctx;
	bool watch_disks;		/* sample the devices every interval for the watch */
	bool keep_hists;		/* keep every interval's histograms in the series */
	/*
	 * --status-interval under MPI (ranks.h): each interval's rows go here instead of to out
	 * (last: the phase's last; rows NULL: the phase ended with interval k, no new figures).
	 */
	void (*emit)(void *ctx, const struct ivl_view *view, bool last);
	void *emit_ctx;
};

struct ivl;

/*
 * Starts the intervals of a phase whose n workers have just been told to go at start_ns.
 * disks may be NULL.  Returns NULL when out of memory (the run goes on without intervals).
 */
struct ivl *ivl_begin(const struct ivl_opts *o, struct worker **w, unsigned n,
		      struct disk_set *disks, uint64_t start_ns);

/*
 * Moves the phase's start to start_ns (later than ivl_begin()'s): the phase starts once
 * the intervals are set up, which with thousands of clones takes a while.
 */
void ivl_rebase(struct ivl *iv, uint64_t start_ns);

/* When something is next due (ns, clock_ns() scale). */
uint64_t ivl_next(const struct ivl *iv);

/* Does what is due at now: asks for snapshots, adds the series points, prints, checks steady state. */
void ivl_poll(struct ivl *iv, uint64_t now);

/*
 * Closes the phase at now: the last (partial) interval, from the workers' final figures when
 * joined (else from their last snapshots).
 */
void ivl_finish(struct ivl *iv, uint64_t now, bool joined);

/*
 * When worker i leads its unit, hands the unit's series to *series and, when it had one, its
 * steady-state window to *ss and *ss_attained_ns (returning true).
 */
bool ivl_hand_over(struct ivl *iv, unsigned i, struct ivl_series *series, struct steady *ss,
		   uint64_t *ss_attained_ns);

void ivl_free(struct ivl *iv);

/* Frees what a unit was handed. */
void ivl_series_release(struct ivl_series *s);

#endif
