/* SPDX-License-Identifier: MIT */
/* Shared by ranks.c, ranks_live.c, ranks_wire.c and ranks_jobs.c: the bytes of a message as they are put together and read back. */
#ifndef IOWL_RANKS_INT_H
#define IOWL_RANKS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/stats.h"

struct hist;
struct ivl_hist;
struct job_result;

/* A growing buffer of bytes; err is set once anything failed. */
struct wire {
	char *p;
	size_t len, cap;
	bool err;
};

/* Appends n bytes of b (nothing when n is 0: b may be NULL). */
void wire_put(struct wire *w, const void *b, size_t n);

/* A reader over a received buffer; bad is set on a short or inconsistent message. */
struct wire_rd {
	const char *p;
	size_t len, off;
	bool bad;
};

/* Reads n bytes into b; past the end (or after), b is zeroed and r->bad set. */
void wire_get(struct wire_rd *r, void *b, size_t n);

/*
 * A unit of a rank's results; its reason, its histograms, its interval points and (hists) the
 * points' histograms follow.
 */
struct wire_unit {
	uint32_t job, clone, nworkers, hmask, whylen, npoints, hists;
	uint64_t period_ns;
	int32_t error;
	uint8_t not_run;
	uint64_t elapsed_ns;
	struct worker_stats st; /* pointers cleared */
};

/* The histograms of a unit's statistics travel in a fixed order: WIRE_NHIST slots. */
#define WIRE_NHIST 12
struct hist **wire_hist_slot(struct worker_stats *st, unsigned i);

/* Adds a histogram as wire_put_hist() wrote it (its non-empty bins) to h. */
void wire_get_hist(struct wire_rd *r, struct hist *h);

/* A unit of this rank's results, as merge_unit() (ranks.c) reads it back. */
void wire_put_unit(struct wire *w, const struct job_result *u);

/* Reads a unit's per-stream and worker-ramp figures into st.  Returns 0 or -errno. */
int wire_get_parts(struct wire_rd *r, struct worker_stats *st);

/* Reads a unit's points' histograms (n points) into *out (free with wire_point_hists_free()). */
int wire_get_point_hists(struct wire_rd *r, unsigned n, struct ivl_hist **out);
void wire_point_hists_free(struct ivl_hist *h, unsigned n);

/*
 * ranks_merge.c: reads a unit from another rank (r) and adds it into o's unit of the same job
 * and clone of rr's jobs; the series' percentiles are set once every rank's are in
 * (ranks_series_pcts()).  Return 0 or -errno (-EPROTO: a bad message).
 */
struct ranks_run;
struct run_outcome;
struct ivl_series;
int ranks_merge_unit(const struct ranks_run *rr, struct run_outcome *o, struct wire_rd *r);
int ranks_series_pcts(struct ivl_series *s);

#endif
