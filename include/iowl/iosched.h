/* SPDX-License-Identifier: MIT */
/*
 * ioscheduler=: the IO scheduler of the block device behind a job's files, switched as fio does
 * (written to /sys/block/DEV/queue/scheduler and read back) and, unlike fio, put back as it was
 * when the run ends.
 */
#ifndef IOWL_IOSCHED_H
#define IOWL_IOSCHED_H

#include "iowl/err.h"

/*
 * Checks that the device behind path (a block device, or the file system of a file or of the
 * directory it will be made in) offers scheduler name.  Changes nothing.  Returns 0 or -errno
 * with err saying what the device offers.
 */
int iosched_check(const char *path, const char *name, struct iowl_err *err);

/* Switches that device to name, first noting the scheduler it had.  Returns 0 or -errno. */
int iosched_switch(const char *job, const char *path, const char *name, struct iowl_err *err);

/* Puts back every scheduler iosched_switch() changed. */
void iosched_restore(void);

#endif
