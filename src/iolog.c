// SPDX-License-Identifier: MIT
/* write_iolog in fio's iolog version 2: the file lines, and a buffered writer per job clone. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "iowl/engine.h"
#include "iowl/iolog.h"
#include "iowl/outfile.h"

static const char *const iolog_actions[] = { "read", "write", "trim", "sync", "datasync" };

/*
 * Appends to path (or, first, creates it with header) one line "<file> <action>" per file of the
 * plan and action, files in order; a failed write is reported.
 */
static int iolog_lines(const char *job_name, const char *path, bool first, const char *header,
		       const struct target_plan *plan, const char *const *actions,
		       unsigned nactions, struct iowl_err *err)
{
	FILE *f = fopen(path, first ? "w" : "a");
	int e;

	if (!f)
		return err_errno(err, errno, "job '%s': write_iolog '%s'", job_name, path);
	if (first && header)
		fputs(header, f);
	for (unsigned k = 0; k < plan->nfiles; k++)
		for (unsigned a = 0; a < nactions; a++)
			fprintf(f, "%s %s\n", plan->files[k].path, actions[a]);
	errno = 0;
	if (ferror(f) | fclose(f)) {
		e = errno ? errno : EIO;
		return err_errno(err, e, "job '%s': write_iolog '%s'", job_name, path);
	}
	return 0;
}

int iolog_begin(const char *job_name, const char *path, bool first, const struct target_plan *plan,
		struct iowl_err *err)
{
	static const char *const actions[] = { "add", "open" };

	/* openfiles: the clone's writer logs each open as it happens */
	return iolog_lines(job_name, path, first, "fio version 2 iolog\n", plan, actions,
			   plan->lazy ? 1 : 2, err);
}

int iolog_end(const char *job_name, const char *path, const struct target_plan *plan,
	      struct iowl_err *err)
{
	static const char *const actions[] = { "close" };

	return iolog_lines(job_name, path, false, NULL, plan, actions, plan->lazy ? 0 : 1, err);
}

int iolog_w_open(struct iolog_w *l, const char *job_name, const char *path, struct iowl_err *err)
{
	l->len = 0;
	l->err = 0;
	l->buf = malloc(IOLOG_BUF);
	if (!l->buf) {
		l->fd = -1;
		return err_nomem(err, "job '%s': write_iolog '%s': out of memory", job_name, path);
	}
	l->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (l->fd < 0)
		return err_errno(err, errno, "job '%s': write_iolog '%s'", job_name, path);
	return 0;
}

void iolog_w_flush(struct iolog_w *l)
{
	if (l->fd >= 0 && l->len && (l->err = fd_write_all(l->fd, l->buf, l->len))) {
		close(l->fd);
		l->fd = -1;
	}
	l->len = 0;
}

void iolog_w_add(struct iolog_w *l, const char *file, unsigned op, uint64_t offset, uint32_t len)
{
	size_t room = IOLOG_BUF - l->len;
	int n;

	if (room < 4096) {
		iolog_w_flush(l);
		room = IOLOG_BUF;
	}
	if (op > DDIR_FDATASYNC)
		return;
	n = snprintf(l->buf + l->len, room, "%s %s %" PRIu64 " %" PRIu32 "\n", file,
		     iolog_actions[op], offset, len);
	if (n > 0 && (size_t)n < room)
		l->len += (size_t)n;
}

void iolog_w_file(struct iolog_w *l, const char *file, const char *action)
{
	size_t room = IOLOG_BUF - l->len;
	int n;

	if (room < 4096) {
		iolog_w_flush(l);
		room = IOLOG_BUF;
	}
	n = snprintf(l->buf + l->len, room, "%s %s\n", file, action);
	if (n > 0 && (size_t)n < room)
		l->len += (size_t)n;
}

int iolog_w_close(struct iolog_w *l, const char *job_name, const char *path, struct iowl_err *err)
{
	int ret = 0;

	iolog_w_flush(l);
	if (l->fd >= 0 && close(l->fd) && !l->err)
		l->err = errno;
	l->fd = -1;
	free(l->buf);
	l->buf = NULL;
	if (l->err)
		ret = err_errno(err, l->err, "job '%s': write_iolog '%s' (the log is incomplete)",
				job_name, path);
	return ret;
}
