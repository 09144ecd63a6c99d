/* SPDX-License-Identifier: MIT */
/* Error reports that carry where they happened: a file, a line and a message, printed once. */
#ifndef IOWL_ERR_H
#define IOWL_ERR_H

#include <stdarg.h>

#define IOWL_ERR_LEN 1024

/*
 * An error report filled in by the module that found the problem and printed by the caller at
 * the boundary.  text holds the whole message without the "iowl: " prefix, for example
 * "jobs/a.ini:12: unknown option 'iodepht' (did you mean 'iodepth'?)".
 */
struct iowl_err {
	char text[IOWL_ERR_LEN];
};

/*
 * Formats a message into err, prefixed with "file:line: " when file is not NULL (line 0 leaves
 * the line out).  Returns -EINVAL so callers can write "return err_at(...)".
 */
int err_at(struct iowl_err *err, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Like err_at() with a va_list.  Returns -EINVAL. */
int err_vat(struct iowl_err *err, const char *file, unsigned line, const char *fmt, va_list ap);

/* Formats a message with no position.  Returns -EINVAL. */
int err_set(struct iowl_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Like err_set() followed by ": " and strerror(errnum) (either sign), as git's error_errno();
 * returns -errnum, so the cause reaches the caller (-EINVAL when errnum is 0).  Save errno before
 * any call that may change it.
 */
int err_errno(struct iowl_err *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like err_set() for a failed allocation ("out of memory ..."): returns -ENOMEM. */
int err_nomem(struct iowl_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "iowl: <msg>\n" to stderr for a message with no struct (warnings included). */
void iowl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* How many warnings iowl_warn() printed so far (--warnings-fatal). */
unsigned iowl_warnings(void);

#endif
