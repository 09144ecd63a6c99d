/* SPDX-License-Identifier: MIT */
/*
 * cgroup= and cgroup_nodelete, fio 3.33's meaning: each clone's thread joins a control group of
 * that name in the first cgroup hierarchy that is either a cgroup v1 one with the blkio
 * controller or cgroup v2 (as fio picks it from /proc/mounts), made when missing; it moves back
 * to the hierarchy's root at its end, and the groups the run made are removed after the phase
 * unless cgroup_nodelete.  On cgroup v2 a thread cannot join a group of its own for block IO (the
 * io controller is not threaded): refused with that reason.
 */
#ifndef IOWL_CGROUP_H
#define IOWL_CGROUP_H

#include <stdbool.h>

#include "iowl/err.h"

/*
 * Checks that a group named name can be joined on this machine: fills why (at least 512 bytes)
 * and returns -EINVAL when not.
 */
int cgroup_check(const char *name, char *why, unsigned len);

/* The calling thread joins group name (made if missing, and removed later unless nodelete). */
int cgroup_join(const char *name, bool nodelete, const char *job, struct iowl_err *err);

/* The calling thread goes back to the hierarchy's root group. */
void cgroup_leave(void);

/* Removes the groups this run made (cgroup_nodelete=0), once their threads have ended. */
void cgroup_cleanup(void);

#endif
