/* SPDX-License-Identifier: MIT */
/* Diagnostics from the field notes: what the numbers of a run say beyond themselves. */
#ifndef IOWL_DIAGNOSE_H
#define IOWL_DIAGNOSE_H

#include "iowl/ddir.h"
#include "iowl/result.h"

struct job;

/* What the diagnostics measure of one unit (jobs[].iowl.diagnose in JSON). */
struct diag_figures {
	const struct disk_dev *dev;	/* the block device behind its target; NULL: none found */
	struct disk_iostat x;		/* dev over its group's phases (nfields 0: no figures) */
	double asked;			/* IOs in flight asked: iodepth (1 for a synchronous
					 * engine) x clones */
	double kept;			/* IOs in flight kept, by Little's law: IOPS x mean lat */
	double iops;
	bool paced;			/* worker_ramp, thinktime or a rate: fewer in flight by design */
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
};

/*
 * Names the device limit that explains requests of seen bytes into buf: "max_sectors_kb=N" when
 * they are that size, "max_segments=N: ..." when they are that many pages (one scatter-gather
 * entry per 4 KiB page of a buffer, or per max_segment_size when smaller), else both figures.
 */
void diag_split_limit(char *buf, size_t len, const struct disk_limits *lim, double seen);

/* Fills f for unit u of run r. */
void diag_unit_figures(const struct run_result *r, const struct job_result *u,
		       struct diag_figures *f);

/*
 * Looks at a collected run (units, the device figures) and lists what it notices, per reporting
 * group (over its own phases) and per device, naming the jobs and the device: IOs split by the
 * device (with the limit that splits them), a queue depth not reached, the concurrency achieved
 * (Little's law), reads served by the page cache, reads of zeros, iodepth given to a synchronous
 * engine, and a worker that used nearly all its CPU in user space.
 */
void diagnose(const struct run_result *r, const struct job *jobs, unsigned njobs,
	      struct diag_list *out);

#endif
