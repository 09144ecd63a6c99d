/* SPDX-License-Identifier: MIT */
/* Everything a run can know before its first IO: targets, the files it writes, the write guard. */
#ifndef IOWL_PREFLIGHT_H
#define IOWL_PREFLIGHT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "iowl/err.h"
#include "iowl/guard.h"
#include "iowl/job.h"
#include "iowl/target.h"

/* A region the layout may write: file path holds have bytes now, the region is [start, end). */
struct preflight_layout {
	char *path;
	const struct job *job;
	unsigned seq;			/* the order the layout meets it in */
	uint64_t have, start, end;
	dev_t fsdev;
};

/* A file region a clone writes or verifies: [start, end) of path. */
struct preflight_region {
	char *path;
	const struct job *job;
	unsigned clone;
	uint64_t start, end;
	bool writes, verify;
};

/* The checks of one run before its first IO, over every clone. */
struct preflight {
	struct guard_set *guard;	/* the run's written devices (borrowed) */
	bool hold;			/* hold them with O_EXCL (a run, not --parse-only) */
	struct preflight_layout *layout;
	unsigned nlayout, cap;
	struct preflight_region *regions;	/* of clones that write or verify */
	unsigned nregions, rcap;
	bool any_verify;
};

void preflight_init(struct preflight *pf, struct guard_set *g, bool hold);

/*
 * Checks clone number clone of job, thread number number of the run (fio's numbering, from 0),
 * with its resolved plan, without IO and without creating anything:
 *  - its generator builds over the plan (zoned_abs zones within the region, streams), and
 *    io_uring's sqthread_poll_cpu is a CPU this process may use;
 *  - verification fits the logical block size;
 *  - each target can be opened as the run will open it: an existing file or device readable,
 *    and writable when the job writes or the file must be extended, not a read-only device; a
 *    missing file creatable (its directory exists and is writable); direct=1 accepted by an
 *    existing file's filesystem;
 *  - each file the job writes (write_iolog, the write_*_log files) can be written: not a
 *    directory, its directory exists and is writable;
 *  - every block device the job writes (targets of a job that writes or trims, logs) passes the
 *    write guard with the job's allow_mounted_write / allow_signature_write, through pf->guard.
 *   - no two clones that run at once (one phase) write the same region of a file where one of
 *    them verifies it (each would report the other's writes as corrupt), clones of one job
 *    included.
 * Returns 0 or -errno with err set, at the line of the option to change.
 */
int preflight_clone(struct preflight *pf, const struct job *job, unsigned clone, unsigned number,
		    const struct target_plan *plan, struct iowl_err *err);

/*
 * The checks over the whole run, after every clone's: the files to lay out fit the free space
 * of their filesystems; each phase's libaio clones need at most fs.aio-max-nr AIO events;
 * --output (output, NULL for stdout) can be written, and passes the guard only with what every
 * job allows.  Returns 0 or -errno with err set.
 */
int preflight_finish(struct preflight *pf, const char *output, const struct job *jobs,
		     unsigned njobs, struct iowl_err *err);

void preflight_release(struct preflight *pf);

#endif
