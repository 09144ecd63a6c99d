/* SPDX-License-Identifier: MIT */
/* IO directions, indexed as fio indexes its per-direction lists (read, write, trim). */
#ifndef IOWL_DDIR_H
#define IOWL_DDIR_H

enum ddir {
	DDIR_READ = 0,
	DDIR_WRITE = 1,
	DDIR_TRIM = 2,
	DDIR_RWDIR_CNT = 3,
	DDIR_SYNC = 3,		/* fsync / fdatasync issued by the worker */
	DDIR_NONE = 4,
};

#endif
