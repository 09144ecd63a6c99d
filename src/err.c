// SPDX-License-Identifier: MIT
/* Formatting of positioned error reports and warnings. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iowl/err.h"

int err_vat(struct iowl_err *err, const char *file, unsigned line, const char *fmt, va_list ap)
{
	size_t n = 0;
	int r;

	if (!err)
		return -EINVAL;
	if (file && line)
		r = snprintf(err->text, sizeof(err->text), "%s:%u: ", file, line);
	else if (file)
		r = snprintf(err->text, sizeof(err->text), "%s: ", file);
	else
		r = 0;
	if (r > 0)
		n = (size_t)r < sizeof(err->text) ? (size_t)r : sizeof(err->text) - 1;
	vsnprintf(err->text + n, sizeof(err->text) - n, fmt, ap);
	return -EINVAL;
}

int err_at(struct iowl_err *err, const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vat(err, file, line, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int err_set(struct iowl_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vat(err, NULL, 0, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int err_errno(struct iowl_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	err_vat(err, NULL, 0, fmt, ap);
	va_end(ap);
	if (errnum < 0)
		errnum = -errnum;
	if (!err)
		return errnum ? -errnum : -EINVAL;
	n = strlen(err->text);
	if (errnum && n < sizeof(err->text) - 1)
		snprintf(err->text + n, sizeof(err->text) - n, ": %s", strerror(errnum));
	return errnum ? -errnum : -EINVAL;
}

int err_nomem(struct iowl_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vat(err, NULL, 0, fmt, ap);
	va_end(ap);
	return -ENOMEM;
}

/* Warnings printed so far, for --warnings-fatal (a relaxed counter: warnings come from threads too). */
static unsigned warned;

unsigned iowl_warnings(void)
{
	return __atomic_load_n(&warned, __ATOMIC_RELAXED);
}

void iowl_warn(const char *fmt, ...)
{
	va_list ap;

	__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED);
	fputs("iowl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
