/* SPDX-License-Identifier: MIT */
/*
 * The direction of an IO, as fio indexes its per-direction lists: read, write, trim (DDIR_NR
 * data directions, the size of every per-direction array); an io_u's op is one of them or one
 * of the syncs the worker issues.
 */
#ifndef IOWL_DDIR_H
#define IOWL_DDIR_H

enum ddir {
	DDIR_READ = 0,
	DDIR_WRITE = 1,
	DDIR_TRIM = 2,
	DDIR_NR = 3, /* the data directions */
	DDIR_FSYNC = 3,
	DDIR_FDATASYNC = 4,
};

/* "read", "write", "trim", "fsync", "fdatasync"; "unknown" past them. */
const char *ddir_name(unsigned d);

#endif
