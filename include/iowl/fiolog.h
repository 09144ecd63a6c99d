/* SPDX-License-Identifier: MIT */
/* fio 3.33's per-IO and histogram log lines (write_*_log, write_hist_log) and their file names. */
#ifndef IOWL_FIOLOG_H
#define IOWL_FIOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/hist.h"

/*
 * One bw, iops, clat, slat or lat log sample.  fio 3.33 (iolog.c, flush_samples()) writes
 *   "%lu, %" PRId64 ", %u, %llu, %u\n"          time, value, ddir, bs, prio
 *   "%lu, %" PRId64 ", %u, %llu, %llu, %u\n"    the same with log_offset=1: offset before prio
 * and with log_prio=1 the last field as "0x%04x".  time is ms since the job started; value is
 * ns for latency logs, KiB/s for bw, a count for iops; ddir is 0 read, 1 write, 2 trim; prio
 * is 1 for an IO of the real-time priority class and 0 otherwise (log_prio=0), or the raw
 * ioprio value (log_prio=1).  Under log_avg_msec fio writes bs and offset as 0.
 */
struct fiolog_entry {
	uint64_t time_ms;
	uint64_t value;
	uint32_t ddir;
	uint64_t bs;
	uint64_t offset;	/* written only with log_offset */
	uint32_t prio;
};

/* Longest line fiolog_format() writes, newline and terminating NUL included. */
#define FIOLOG_LINE_MAX	128

/*
 * Writes e as one log line with its newline into buf (FIOLOG_LINE_MAX bytes), NUL-terminated,
 * and returns its length without the NUL.  Byte for byte what fio 3.33 writes with log_prio=0,
 * including its quirk of printing value signed (PRId64): values of 2^63 and up come out
 * negative.  No printf: this runs per IO when every IO is logged.
 */
size_t fiolog_format(char *buf, const struct fiolog_entry *e, bool log_offset);

/* As fiolog_format(), with the priority as fio's log_prio=1 writes it: "0x%04x". */
size_t fiolog_format_prio(char *buf, const struct fiolog_entry *e, bool log_offset);

/*
 * fio's latency bins (stat.h): values 0..127 ns exact, then for a value with most significant
 * bit m (7..33) 64 bins of width 2^(m-6); index (m - 5) * 64 + ((v >> (m - 6)) & 63).  From
 * 2^34 ns (17.2 s) on, everything lands in the last bin, 1855.
 */
#define FIOLOG_HIST_BITS	6
#define FIOLOG_HIST_VAL		(1U << FIOLOG_HIST_BITS)	/* 64 */
#define FIOLOG_HIST_GROUPS	29
#define FIOLOG_HIST_NR		(FIOLOG_HIST_GROUPS * FIOLOG_HIST_VAL)	/* 1856 */
#define FIOLOG_HIST_COARSE_MAX	6	/* log_hist_coarseness range 0..6 */

/*
 * Converts an iowl histogram (or an interval delta from hist_sub()) to fio's 1856 bins,
 * overwriting out[].  Each iowl bin lies wholly inside one fio bin (iowl has twice fio's
 * resolution on the same power-of-two grid, and exact bins where fio has them), so this only
 * adds counts up, no splitting and no error beyond fio's own.  iowl bins above 2^34 ns go to
 * fio's last bin, as fio's plat_val_to_idx() clamps them.  The counts sum to hist_total(h).
 */
void fiolog_hist_bins(const struct hist *h, uint64_t out[FIOLOG_HIST_NR]);

/* Longest line fiolog_hist_format() writes, newline and terminating NUL included. */
#define FIOLOG_HIST_LINE_MAX	(64 + FIOLOG_HIST_NR * 22)

/*
 * Writes one histogram log line as fio 3.33 does (iolog.c, flush_hist_samples()):
 * "%lu, %u, %llu, " for time (ms), ddir and bs, then the bins as "%llu" separated by ", ",
 * then a newline.  fio logs the clat histogram of one direction, and the counts are the
 * interval's: the difference from the previous sample of that direction, so pass the bins of
 * a hist_sub() delta.  bs is that of the IO whose completion took the sample.  coarseness
 * (log_hist_coarseness, 0..6; larger is taken as 6) sums each 2^coarseness adjacent bins, so
 * a line has 1856 >> coarseness counts.  buf holds FIOLOG_HIST_LINE_MAX bytes; returns the
 * length written without the terminating NUL.
 */
size_t fiolog_hist_format(char *buf, uint64_t time_ms, uint32_t ddir, uint64_t bs,
			  const uint64_t bins[FIOLOG_HIST_NR], unsigned coarseness);

/* fio's log files: "<name>_<kind>.<N>.log", the middle name being the kind's. */
enum fiolog_kind {
	FIOLOG_BW,		/* write_bw_log: "bw" */
	FIOLOG_IOPS,		/* write_iops_log: "iops" */
	FIOLOG_LAT,		/* write_lat_log: "lat", "slat" and "clat" */
	FIOLOG_SLAT,
	FIOLOG_CLAT,
	FIOLOG_CLAT_HIST,	/* write_hist_log: "clat_hist" */
};

/*
 * Writes the name of a log file into buf (len bytes) as fio 3.33's gen_log_name() does:
 * "<name>_<kind>.<N>.log", or "<name>_<kind>.log" with per_job_logs=0 (fio then appends to
 * the file rather than truncating it, so every job of that name shares it).  name is the
 * write_*_log value, or jobname when that is NULL or empty (fio's make_log_name()).  N is
 * fio's thread_number: 1 for the first job of the run, counting every job and every clone
 * (numjobs) in the order they are created.  Returns 0, or -ENAMETOOLONG when the name does
 * not fit (buf then holds a truncated, terminated string).
 */
int fiolog_name(char *buf, size_t len, const char *name, const char *jobname,
		enum fiolog_kind kind, unsigned job_nr, bool per_job_logs);

#endif
