// SPDX-License-Identifier: MIT
/* The results file (--output): written beside its place and renamed there once complete. */
#ifndef IOWL_OUTFILE_H
#define IOWL_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "iowl/err.h"

struct outfile {
	FILE *f;		/* where to write: stdout, the temporary file, or the path itself */
	char *path;		/* NULL: standard output */
	char *tmp;		/* the temporary file renamed to path at the end, NULL: none */
	int err;		/* errno of a failed write, when the writer knows it (else EIO) */
};

/*
 * Opens where the results go: standard output for a NULL path; for a regular file or a new one,
 * a temporary file in the same directory, so that the file named is replaced only by complete
 * results (a full file system, a run that is killed, leave it as it was); anything else (a
 * device, a FIFO, /dev/stdout) is written in place.  Returns 0 or -errno with err set.
 */
int outfile_open(struct outfile *o, const char *path, struct iowl_err *err);

/*
 * Ends the results: flushes and closes the file and renames the temporary file to its place.
 * Any failure of a write to it, then or before, returns -errno with err saying where (the file
 * named then keeps what it held; the temporary file is removed).
 */
int outfile_close(struct outfile *o, struct iowl_err *err);

/*
 * Writes all len bytes of buf to fd, again after a short write or EINTR (a full disk gives its
 * ENOSPC on the next try).  Returns 0, or the errno of the failed write (EIO for a write of 0).
 */
int fd_write_all(int fd, const void *buf, size_t len);

#endif
