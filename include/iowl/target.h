/* SPDX-License-Identifier: MIT */
/* Targets: file names, sizes, regions and alignment of each job clone, and laying out files. */
#ifndef IOWL_TARGET_H
#define IOWL_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iowl/engine.h"
#include "iowl/err.h"
#include "iowl/job.h"

/* The files one clone works on, with their regions; names are owned by the plan. */
struct target_plan {
	struct target_file *files;
	char **names;
	unsigned nfiles;
	uint64_t total;		/* bytes of IO per pass: the regions' sizes, or size= with filesize= */
	unsigned lbs;		/* largest logical block size among the files (direct IO) */
	bool lazy;		/* openfiles below nfiles: each file opened at its first IO */
};

/*
 * Resolves the files of clone number clone of job: names (given or generated as fio's
 * jobname.clone.filenum), sizes of existing files and devices, the region of each file
 * (offset, offset_increment, size, filesize) and, with direct=1, the alignment every offset and
 * block size must have.  Looks but changes nothing (safe for --parse-only).  fds are -1.
 * Returns 0 or -errno with err set.
 */
int target_plan(const struct job *job, unsigned clone, struct target_plan *plan,
		struct iowl_err *err);

/*
 * Lays out the plan's short regular files as fio does: creates them, preallocates them to the
 * region's end (fallocate=), and writes data over the missing part of the region when the job
 * reads them or with overwrite (fill_device: until the file system is full, which ends the
 * region); create_on_open lays out nothing.  One line on info for the clone (fio's "NAME: Laying out IO files (N files /
 * total SIZE)"; info NULL: none).  Block devices are left alone.  Returns 0 or -errno with
 * err set.
 */
int target_layout(const struct job *job, struct target_plan *plan, FILE *info,
		  struct iowl_err *err);

/*
 * Opens every file of the plan for the job's directions (O_DIRECT when asked; a regular file
 * the job writes is created when missing, as with create_on_open).  Returns 0 or -errno.
 */
int target_open(const struct job *job, struct target_plan *plan, struct iowl_err *err);

/* Opens file i of the plan as target_open() does (openfiles: at its first IO).  Returns 0 or -errno. */
int target_open_one(const struct job *job, struct target_plan *plan, unsigned i,
		    struct iowl_err *err);

/*
 * unlink_each_loop: removes each open regular file of the plan and creates it anew under the
 * same descriptor number (the engine goes on with it); with openfiles, a file closed now too
 * (left closed).  Returns 0 or -errno with err set.
 */
int target_renew(const struct job *job, struct target_plan *plan, struct iowl_err *err);

/*
 * invalidate: drops the page cache of the plan's files, as fio does before a job's IO, every
 * loop and every time_based pass: posix_fadvise(POSIX_FADV_DONTNEED) over a regular file's
 * region, BLKFLSBUF for a block device (which needs CAP_SYS_ADMIN).  With open_fds the plan's
 * descriptors are used, else each file is opened for it.  Returns 0 or the first failure as
 * -errno, with err (when not NULL) saying which file and why.
 */
int target_invalidate(const struct target_plan *plan, bool open_fds, struct iowl_err *err);

/*
 * pre_read: reads each file's region once through the page cache (a buffered descriptor of
 * its own), so the job's IO finds it cached, as fio's pre_read does.  Returns 0 or -errno
 * with err set.
 */
int target_pre_read(const struct job *job, const struct target_plan *plan, struct iowl_err *err);

/* unlink: removes the plan's regular files (one already gone is fine). */
void target_unlink(const struct target_plan *plan);

/*
 * The unit a stream's range is rounded to in file tf: the least common multiple of each of its
 * directions' offset unit (blockalign, else the smallest block size, rounded up to the logical
 * block size with direct and bs_roundup) and, with direct IO, tf's logical block size.
 */
uint64_t target_stream_align(const struct job_stream *js, const struct target_file *tf);

/*
 * The range of stream js in file tf: its offset= and size= (bytes, or percent of the job's
 * region rounded down to target_stream_align()) within the job's region, or the whole region
 * when it gave none (js NULL: the job itself).  Returns false when the range asked for runs
 * past the region (it is then cut to the region).
 */
bool target_stream_range(const struct job_stream *js, const struct target_file *tf,
			 uint64_t *start, uint64_t *size);

/*
 * Says on info which percentages of the job's streams (offset=, size=, walker_start=) the
 * rounding changed in the plan's first file, one line each.  info NULL: nothing.
 */
void target_report_ranges(FILE *info, const struct job *job, const struct target_plan *plan);

/* Closes the files and frees the plan. */
void target_plan_release(struct target_plan *plan);

#endif
