/* SPDX-License-Identifier: MIT */
/* Before any IO: what a run can know about its targets and the files it writes, and the write guard over all of them. */
#ifndef IOWL_PREFLIGHT_H
#define IOWL_PREFLIGHT_H

#include <stdbool.h>

#include "iowl/err.h"
#include "iowl/guard.h"
#include "iowl/job.h"
#include "iowl/target.h"

/*
 * Checks clone number clone of job, thread number number of the run (fio's numbering, from 0),
 * with its resolved plan, without IO and without creating anything:
 *  - its generator builds over the plan (zoned_abs zones within the region, streams);
 *  - verification fits the logical block size;
 *  - each target can be opened as the run will open it: an existing file or device readable,
 *    and writable when the job writes or the file must be extended; a missing file creatable
 *    (its directory exists and is writable); direct=1 accepted by an existing file's filesystem;
 *  - each file the job writes (write_iolog, the write_*_log files) can be written: not a
 *    directory, its directory exists and is writable;
 *  - every block device the job writes (targets of a job that writes or trims, logs) passes the
 *    write guard with the job's allow_mounted_write / allow_signature_write, through g (each
 *    device checked once; held with O_EXCL when hold).
 * Returns 0 or -errno with err set, at the line of the option to change.
 */
int preflight_clone(struct guard_set *g, const struct job *job, unsigned clone, unsigned number,
		    const struct target_plan *plan, bool hold, struct iowl_err *err);

/*
 * Checks --output's path as preflight_clone() checks the files a job writes; a block device
 * passes the guard only with what every job allows.  Returns 0 or -errno with err set.
 */
int preflight_output(struct guard_set *g, const char *path, const struct job *jobs,
		     unsigned njobs, bool hold, struct iowl_err *err);

#endif
