/* SPDX-License-Identifier: MIT */
/*
 * fio's --bandwidth-log: the run's aggregate bandwidth, all jobs together, in agg-read_bw.log,
 * agg-write_bw.log and agg-trim_bw.log in the current directory, as fio 3.33 writes them: every
 * bwavgtime (the shortest of the jobs', default 500 ms) one line per direction,
 * "time, KiB/s, ddir, 0, 0", time in ms since the run began, the rate that of the bytes done
 * since the line before.  Read by the run's main thread from the workers' counters.
 */
#ifndef IOWL_BWLOG_H
#define IOWL_BWLOG_H

#include <stdint.h>

#include "iowl/err.h"
#include "iowl/job.h"
#include "iowl/worker.h"

struct bwlog;

/* Creates the three files; t0 is when the run began.  Returns 0 or -errno with err set. */
int bwlog_open(struct bwlog **out, const struct job *jobs, unsigned njobs, uint64_t t0,
	       struct iowl_err *err);

/* A phase's workers start from nothing at now: the next line counts from there. */
void bwlog_phase(struct bwlog *b, uint64_t now);

/* Writes the lines that are due at now from the phase's n workers (b NULL: no log). */
void bwlog_poll(struct bwlog *b, const struct worker *const *w, unsigned n, uint64_t now);

/* Closes the files; a failed write is a warning.  b may be NULL. */
void bwlog_close(struct bwlog *b);

#endif
