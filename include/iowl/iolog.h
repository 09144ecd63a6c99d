/* SPDX-License-Identifier: MIT */
/*
 * write_iolog: fio's iolog version 2, the one writer for runs (a buffer per job clone, appended to
 * the shared file) and for --analyze.  The file has fio's shape: the header line, "<file> add" and
 * "<file> open" for each file of each clone, the IOs as "<file> <action> <offset> <length>", and
 * "<file> close" at the end, so fio's read_iolog replays it.
 */
#ifndef IOWL_IOLOG_H
#define IOWL_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/err.h"
#include "iowl/target.h"

#define IOLOG_BUF (64u << 10) /* bytes a writer gathers before one write(2) */

/* One clone's buffered writer.  fd -1: not logging. */
struct iolog_w {
	int fd;
	char *buf;
	size_t len;
	int err; /* errno of a failed write: the log is incomplete */
};

/*
 * Writes a clone's file lines to path: the header first when first is set (the file is created or
 * truncated), else appended.  Returns 0 or -errno with err filled in.
 */
int iolog_begin(const char *job_name, const char *path, bool first, const struct target_plan *plan,
		struct iowl_err *err);

/* Appends the "close" lines of a clone's files.  Returns 0 or -errno with err filled in. */
int iolog_end(const char *job_name, const char *path, const struct target_plan *plan,
	      struct iowl_err *err);

/* Opens a writer that appends to path (after iolog_begin).  Returns 0 or -errno with err. */
int iolog_w_open(struct iolog_w *l, const char *job_name, const char *path, struct iowl_err *err);

/* Records one IO (op: enum ddir; a sync has offset and length 0). No syscall until the buffer fills. */
void iolog_w_add(struct iolog_w *l, const char *file, unsigned op, uint64_t offset, uint32_t len);

/* Records "<file> open" or "<file> close" (openfiles: as the clone opens and closes it). */
void iolog_w_file(struct iolog_w *l, const char *file, const char *action);

/* Writes what is buffered; a failure closes the log and keeps its errno in l->err. */
void iolog_w_flush(struct iolog_w *l);

/* Flushes and closes.  Returns 0, or -errno of the first failed write (with err filled in). */
int iolog_w_close(struct iolog_w *l, const char *job_name, const char *path, struct iowl_err *err);

#endif
