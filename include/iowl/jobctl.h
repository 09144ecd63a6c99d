/* SPDX-License-Identifier: MIT */
/* What a job's thread does around its IO, as fio's job options: exec_prerun/exec_postrun, uid/gid. */
#ifndef IOWL_JOBCTL_H
#define IOWL_JOBCTL_H

#include "iowl/err.h"

/*
 * Runs cmd with /bin/sh -c, its output (stdout and stderr) to NAME.MODE.txt in the current
 * directory, as fio's exec_prerun and exec_postrun; the command gets default signal handling
 * whatever the calling thread blocks.  Waits for it.  Returns 0, or -errno (-ECHILD when it
 * exited with a status other than 0, or died of a signal) with err saying which.
 */
int jobctl_exec(const char *cmd, const char *name, const char *mode, struct iowl_err *err);

/*
 * Sets the calling thread's group ID, then its user ID (real, effective and saved) to gid and
 * uid, where each is not -1: the system calls themselves, which change this thread only, where
 * the C library's change every thread of the process.  Returns 0 or -errno with err set.
 */
int jobctl_set_ids(long uid, long gid, const char *name, struct iowl_err *err);

#endif
