/* SPDX-License-Identifier: MIT */
/* lockfile=: locks on files shared by jobs and clones, as fio's file locks. */
#ifndef IOWL_FLOCK_H
#define IOWL_FLOCK_H

#include <stdbool.h>

enum lockfile_mode {
	LOCKFILE_NONE = 0,
	LOCKFILE_EXCLUSIVE = 1, /* one IO at a time on the file */
	LOCKFILE_READWRITE = 2, /* reads together, any other IO alone */
};

struct file_lock;

/*
 * The lock of the file open as fd (its device and inode, or a block device's number), made on
 * first use and shared by every clone of every job that locks the same file.  Returns NULL
 * (errno set) when fd cannot be looked at or memory runs out.  Locks live until the process ends.
 */
struct file_lock *file_lock_get(int fd);

/* Takes the lock for one IO: exclusive, or with readwrite shared for a read. */
void file_lock_take(struct file_lock *l, enum lockfile_mode mode, bool read);

/* Gives the lock back after the IO's submission. */
void file_lock_drop(struct file_lock *l, enum lockfile_mode mode);

#endif
