// SPDX-License-Identifier: MIT
/* The results file: a temporary file beside the one named, renamed over it when complete. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iowl/outfile.h"

/* "dir/.name.iowl-XXXXXX" beside path, or NULL when out of memory. */
static char *tmp_name(const char *path)
{
	char *d = strdup(path), *b = strdup(path), *t = NULL;

	if (d && b && asprintf(&t, "%s/.%s.iowl-XXXXXX", dirname(d), basename(b)) < 0)
		t = NULL;
	free(d);
	free(b);
	return t;
}

/* A temporary file for path, with the mode a new file would get (or the old file's). */
static int open_tmp(struct outfile *o, const char *path)
{
	mode_t mask = umask(0), mode = 0666 & ~mask;
	struct stat st;
	int fd;

	umask(mask);
	if (!stat(path, &st))
		mode = st.st_mode & 07777;
	o->tmp = tmp_name(path);
	if (!o->tmp)
		return -ENOMEM;
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0 || fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return -e;
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, struct iowl_err *err)
{
	struct stat st;
	char *real = NULL;

	memset(o, 0, sizeof(*o));
	if (!path) {
		o->f = stdout;
		return 0;
	}
	/* Beside a symbolic link's target, which the rename replaces (not the link). */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		real = realpath(path, NULL);
	o->path = strdup(real ? real : path);
	free(real);
	if (!o->path)
		return err_nomem(err, "out of memory"), -ENOMEM;
	/* A regular or new file; a directory that takes no new file (but a writable file) is
	 * written in place. */
	if ((stat(o->path, &st) || S_ISREG(st.st_mode)) && !open_tmp(o, o->path))
		return 0;
	o->f = fopen(o->path, "w");
	if (!o->f) {
		int e = errno;

		err_errno(err, e, "--output '%s'", path);
		free(o->path);
		o->path = NULL;
		return -e;
	}
	return 0;
}

int outfile_close(struct outfile *o, struct iowl_err *err)
{
	const char *name = o->path ? o->path : "standard output";
	int e = 0;

	if (!o->f)
		return 0;
	if (fflush(o->f))
		e = errno;
	else if (ferror(o->f) || o->err)	/* an earlier write failed */
		e = o->err ? o->err : EIO;
	if (o->tmp && !e && fsync(fileno(o->f)))
		e = errno;
	if (o->f != stdout && fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (o->tmp && !e && rename(o->tmp, o->path))
		e = errno;
	if (o->tmp && e)
		unlink(o->tmp);
	if (e)
		err_set(err, "writing the results to %s: %s%s", name, strerror(e),
			o->tmp ? "; the file keeps what it held" : "");
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return -e;
}

int fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
