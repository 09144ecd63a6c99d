/* SPDX-License-Identifier: MIT */
/*
 * fio's --debug=TYPE[,TYPE]: iowl's own traces for fio's categories where iowl has something to
 * trace, on stderr as "TYPE     TID   message" (fio's layout).  Off, a trace point costs one
 * predictable branch on a global mask.
 */
#ifndef IOWL_DEBUG_H
#define IOWL_DEBUG_H

#include "iowl/err.h"

/* fio 3.33's categories, in its order (debug.h). */
enum debug_type {
	DBG_PROCESS,
	DBG_FILE,
	DBG_IO,
	DBG_MEM,
	DBG_BLKTRACE,
	DBG_VERIFY,
	DBG_RANDOM,
	DBG_PARSE,
	DBG_DISKUTIL,
	DBG_JOB,
	DBG_MUTEX,
	DBG_PROFILE,
	DBG_TIME,
	DBG_NET,
	DBG_RATE,
	DBG_COMPRESS,
	DBG_STEADYSTATE,
	DBG_HELPERTHREAD,
	DBG_ZBD,
	DBG_NR,
};

extern unsigned iowl_debug; /* bit t: category t traced */

#define dprint(type, ...)                                                     \
	do {                                                                  \
		if (__builtin_expect(iowl_debug & (1U << (type)), 0))         \
			debug_print(type, __VA_ARGS__);                       \
	} while (0)

void debug_print(enum debug_type type, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * --debug=LIST: sets the mask from fio's names (all: every one), or with "?" / "help" prints the
 * categories and what iowl traces for each and returns 1.  Returns 0, 1, or -EINVAL with err
 * naming the unknown category.
 */
int debug_parse(const char *list, struct iowl_err *err);

#endif
