/* SPDX-License-Identifier: MIT */
/*
 * A worker's fio logs (write_bw_log, write_iops_log, write_lat_log, write_hist_log), written
 * by the worker itself in fio 3.33's formats: one line per IO by default, or averaged over
 * log_avg_msec windows; histogram lines every log_hist_msec.  Lines collect in a buffer per
 * file, written out when it fills (one write() per log_entries lines of 64 bytes, 64 KiB by
 * default), so a logged IO costs a conversion to decimal and no system call.
 */
#ifndef IOWL_WLOG_H
#define IOWL_WLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/engine.h"
#include "iowl/err.h"

struct job;
struct worker_stats;
struct wlog;

/*
 * Opens the logs job asks for, for the worker with thread number number (0-based; fio's N
 * is number + 1).  *out is NULL when the job logs nothing.  Returns 0 or -errno with err set.
 */
int wlog_open(struct wlog **out, const struct job *job, unsigned number, struct iowl_err *err);

/* True when every IO is logged (no log_avg_msec), so wlog_io() must be called per IO. */
bool wlog_per_io(const struct wlog *l);

/* When wlog_tick() is next due (ns); UINT64_MAX for never. */
uint64_t wlog_next(const struct wlog *l);

/*
 * Starts the logs' clock at t0 (the end of ramp_time): times are milliseconds from there, and
 * the windows start there.
 */
void wlog_start(struct wlog *l, const struct worker_stats *st, uint64_t t0);

/* Logs one completed IO (per-IO mode).  queued: it went through a queue and has a slat. */
void wlog_io(struct wlog *l, const struct io_u *io, bool queued, uint64_t now);

/* Writes the windows and histograms that ended by now, from the worker's cumulative figures. */
void wlog_tick(struct wlog *l, const struct worker_stats *st, uint64_t now);

/*
 * Closes the last windows at now and writes everything out.  Returns 0, or -errno of the
 * first failed write (the log is incomplete) with err set.
 */
int wlog_close(struct wlog *l, const struct worker_stats *st, uint64_t now, struct iowl_err *err);

void wlog_free(struct wlog *l);

#endif
