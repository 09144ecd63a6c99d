/* SPDX-License-Identifier: MIT */
/* Sweeps: every job run at each point of a cross product of option values, one table, and a USL fit. */
#ifndef IOWL_SWEEP_H
#define IOWL_SWEEP_H

#include "iowl/err.h"
#include "iowl/run.h"

#define SWEEP_MAX_VALUES 64

/* One --sweep KEY=V1,V2,... or KEY=A..B xF / KEY=A..B +S. */
struct sweep_key {
	char key[64];
	char *values[SWEEP_MAX_VALUES];	/* as passed to --set */
	unsigned nvalues;
};

/*
 * Parses text into k: a comma list, a multiplicative range "1..256x2" (or "4k..1m x2"), or an
 * additive one "8..64+8".  Returns 0 or -EINVAL with err set.  Release with sweep_key_release().
 */
int sweep_key_parse(const char *text, struct sweep_key *k, struct iowl_err *err);

void sweep_key_release(struct sweep_key *k);

/*
 * Builds and plans the jobs of every point of run->opts.sweeps before any of them runs (also for
 * --parse-only), so that a bad value stops nothing midway.  Leaves run's jobs built for some
 * point.  Returns 0 or -errno with err set.
 */
int sweep_prepare(struct iowl_run *run, struct iowl_err *err);

/*
 * Runs the jobs at every point of the cross product of run->opts.sweeps (the first key
 * outermost), each point a complete run with the point's values applied as --set, and prints one
 * table (text, CSV or JSON per --output-format) with a universal-scalability-law fit when the
 * swept keys change the concurrency.  Call sweep_prepare() first.  Returns the exit status: the
 * worst of the points.
 */
int sweep_run(struct iowl_run *run);

#endif
