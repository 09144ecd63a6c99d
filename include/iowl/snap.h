/* SPDX-License-Identifier: MIT */
/*
 * Interval snapshots: a worker's cumulative figures, copied by the worker itself when the run
 * asks for them, so the main thread never reads counters a worker is writing.
 *
 * The protocol has one buffer per worker and needs no lock: the main thread raises
 * run_ctl.snap_req; a worker that sees a request it has not answered copies its figures into
 * its snap and then stores the request number in snap.seq (release).  The main thread reads a
 * snap only when its seq equals the current request (acquire), and raises the next request
 * only after reading, so the worker never writes a snap that is being read.  A worker that
 * does not answer in time (a long IO, a hung device) simply counts in a later interval.
 */
#ifndef IOWL_SNAP_H
#define IOWL_SNAP_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/ddir.h"
#include "iowl/hist.h"
#include "iowl/lat.h"
#include "iowl/stats.h"

struct worker_stats;

/* The cumulative figures of one direction. */
struct snap_dir {
	uint64_t ios, bytes, errors;
	struct lat_stat slat, clat, lat;
};

struct snap {
	unsigned seq;			/* the request answered (atomic; written last) */
	bool running;			/* past ramp_time: the figures count (else all zero) */
	unsigned inflight;		/* IOs in flight when it answered */
	struct cfill_stats cfill;		/* distinct blocks so far */
	struct snap_dir dir[DDIR_NR];
	struct hist *clat_hist[DDIR_NR];	/* copies, for the directions that keep a histogram */
};

/* Gives s histogram copies where st keeps completion histograms.  Returns 0 or -ENOMEM. */
int snap_init(struct snap *s, const struct worker_stats *st);

/*
 * Gives a zeroed s (never written yet) the histogram copies it still lacks, so that they can be
 * allocated when first needed.  Returns 0 or -ENOMEM.
 */
int snap_hists(struct snap *s, const struct worker_stats *st);

/* Copies the cumulative counters and latency summaries of st's three directions into dir[]. */
void snap_dirs_take(struct snap_dir dir[DDIR_NR], const struct worker_stats *st);

/* Copies st's cumulative figures into s (running), or zeroes them (still ramping). */
void snap_take(struct snap *s, const struct worker_stats *st, bool running);

/* Sets dst = a - b (a the later), histograms included where all three have them. */
void snap_sub(struct snap *dst, const struct snap *a, const struct snap *b);

/* Copies src into dst, histograms included where both have them. */
void snap_copy(struct snap *dst, const struct snap *src);

void snap_release(struct snap *s);

#endif
