/* SPDX-License-Identifier: MIT */
/* Diagnostics from the field notes: what the numbers of a run say beyond themselves. */
#ifndef IOWL_DIAGNOSE_H
#define IOWL_DIAGNOSE_H

#include "iowl/report.h"

#define DIAG_MAX 32

struct diag {
	char kind[24];		/* "device_split", "queue_depth", "concurrency", "page_cache", "saturated" */
	char text[320];
};

struct diag_list {
	struct diag d[DIAG_MAX];
	unsigned n;
};

struct job;

/*
 * Looks at a collected run (units, the device figures) and lists what it notices: IOs split by
 * the device, a queue depth not reached, the concurrency achieved (Little's law), reads served
 * by the page cache, and a worker that used nearly all its CPU in user space.
 */
void diagnose(const struct run_result *r, const struct job *jobs, unsigned njobs,
	      struct diag_list *out);

#endif
