// SPDX-License-Identifier: MIT
/* Laying out a clone's files before its IO: creating the missing ones and extending short ones. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iowl/target.h"
#include "report/fmt.h"

static int fill_range(int fd, uint64_t from, uint64_t to, const char *path, struct iowl_err *err)
{
	const size_t chunk = 1 << 20;
	char *buf = malloc(chunk);
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ from;

	if (!buf)
		return err_set(err, "out of memory");
	while (from < to) {
		size_t n = to - from < chunk ? (size_t)(to - from) : chunk;
		ssize_t r;

		/* Fresh pseudo-random data per chunk: not zeros (thin devices serve those without
		 * touching the media) and not one repeated block (dedupe would fold it). */
		for (size_t i = 0; i < n; i += 8) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memcpy(buf + i, &x, n - i < 8 ? n - i : 8);
		}
		r = pwrite(fd, buf, n, (off_t)from);

		if (r <= 0) {
			int e = r < 0 ? errno : ENOSPC;

			free(buf);
			err_set(err, "laying out '%s' at offset %llu: %s", path,
				(unsigned long long)from, strerror(e));
			return -e;
		}
		from += (uint64_t)r;
	}
	free(buf);
	return 0;
}

/* The end of a regular file's region when the file is shorter than that, else 0. */
static uint64_t short_end(const struct target_file *f)
{
	uint64_t end = f->start + f->size;
	struct stat st;

	if (f->is_bdev)
		return 0;
	if (stat(f->path, &st))
		return end;	/* missing: created below, or the error comes from there */
	return (uint64_t)st.st_size < end ? end : 0;
}

/* fio's line, in a unit that does not round a small layout to 0: "(1 file / 16.0KiB)". */
static void say_layout(FILE *info, const struct job *job, unsigned n, uint64_t bytes)
{
	char size[FMT_NUM_LEN];

	if (!info || !n)
		return;
	fmt_num(size, sizeof(size), bytes, 4, true, FMT_UNIT_BYTE);
	fprintf(info, "%s: Laying out IO file%s (%u file%s / %s%s)\n", job->o.name,
		n > 1 ? "s" : "", n, n > 1 ? "s" : "", n > 1 ? "total " : "", size);
	fflush(info);
}

static int layout_one(const struct job *job, struct target_file *f, struct iowl_err *err)
{
	uint64_t end = f->start + f->size;
	struct stat st;
	int fd, ret;

	fd = open(f->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		err_set(err, "job '%s': create '%s': %s", job->o.name, f->path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) || (uint64_t)st.st_size >= end) {
		close(fd);
		return 0;
	}
	ret = fill_range(fd, (uint64_t)st.st_size > f->start ? (uint64_t)st.st_size : f->start,
			 end, f->path, err);
	if (!ret && fsync(fd)) {
		ret = -errno;
		err_set(err, "job '%s': fsync '%s': %s", job->o.name, f->path, strerror(-ret));
	}
	close(fd);
	if (!ret)
		f->real_size = end;
	return ret;
}

int target_layout(const struct job *job, struct target_plan *plan, FILE *info,
		  struct iowl_err *err)
{
	uint64_t bytes = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < plan->nfiles; i++) {
		uint64_t end = short_end(&plan->files[i]);

		n += end != 0;
		bytes += end;
	}
	say_layout(info, job, n, bytes);
	for (unsigned i = 0; i < plan->nfiles && n; i++) {
		int ret;

		if (!short_end(&plan->files[i]))
			continue;
		ret = layout_one(job, &plan->files[i], err);
		if (ret)
			return ret;
	}
	return 0;
}
