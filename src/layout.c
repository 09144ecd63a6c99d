// SPDX-License-Identifier: MIT
/*
 * The life of a clone's files, as fio's options make it: laid out before the IO (created,
 * preallocated by fallocate=, written where the job reads them or asks to overwrite), opened,
 * made anew every loop (unlink_each_loop) and removed at the end (unlink).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iowl/options.h"
#include "iowl/pattern/rng.h"
#include "iowl/run.h"
#include "iowl/target.h"
#include "report/fmt.h"

/*
 * Writes fresh pseudo-random data over [from, to) of fd, and sets *reached to where it got.
 * With stop_at_full (fill_device), ENOSPC or EDQUOT ends the layout early instead of failing
 * it.  A signal ends it within a chunk: -EINTR.  Returns 0 or -errno with err set.
 */
static int fill_range(int fd, uint64_t from, uint64_t to, const char *path, bool stop_at_full,
		      uint64_t *reached, struct iowl_err *err)
{
	const size_t chunk = 1 << 20;
	char *buf = malloc(chunk);
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ from;

	if (!buf)
		return err_nomem(err, "out of memory"), -ENOMEM;
	while (from < to) {
		size_t n = to - from < chunk ? (size_t)(to - from) : chunk;
		ssize_t r;

		run_busy(); /* the ranks' heartbeat goes on through a long layout */
		if (run_signal_seen()) {
			free(buf);
			*reached = from;
			err_set(err, "laying out '%s' was interrupted by %s", path,
				run_signal_seen() == SIGTERM ? "SIGTERM" : "SIGINT");
			return -EINTR;
		}

		/* Fresh pseudo-random data per chunk: not zeros (thin devices serve those without
		 * touching the media) and not one repeated block (dedupe would fold it). */
		rng_fill(buf, n, &x);
		r = pwrite(fd, buf, n, (off_t)from);
		if (r <= 0) {
			int e = r < 0 ? errno : ENOSPC;

			if (stop_at_full && (e == ENOSPC || e == EDQUOT))
				break;
			free(buf);
			err_errno(err, e, "laying out '%s' at offset %llu", path,
				  (unsigned long long)from);
			return -e;
		}
		from += (uint64_t)r;
	}
	free(buf);
	*reached = from;
	return 0;
}

/*
 * Preallocates [0, end) of fd as fallocate= says.  native falls back to nothing where the file
 * system has no fallocate(2), as fio's does.  Returns 0 or -errno with err set.
 */
static int preallocate(const struct job *job, int fd, const char *path, uint64_t end,
		       struct iowl_err *err)
{
	unsigned mode = job->o.fallocate;
	const struct opt_value *v = opt_by_id(OPT_ID_fallocate)->values;
	int r = 0;

	switch (mode) {
	case FALLOCATE_NATIVE:
		if (fallocate(fd, 0, 0, (off_t)end) && errno != EOPNOTSUPP && errno != ENOSYS)
			r = errno;
		break;
	case FALLOCATE_POSIX:
		r = posix_fallocate(fd, 0, (off_t)end);
		break;
	case FALLOCATE_KEEP:
		r = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)end) ? errno : 0;
		break;
	case FALLOCATE_TRUNCATE:
		r = ftruncate(fd, (off_t)end) ? errno : 0;
		break;
	default:
		break;
	}
	if (!r)
		return 0;
	while (v->name && v->value != mode)	/* the option table's name for the mode */
		v++;
	err_errno(err, r, "job '%s': preallocating '%s' (%llu bytes, fallocate=%s)", job->o.name,
		  path, (unsigned long long)end, v->name ? v->name : "?");
	return -r;
}

/*
 * The end of a regular file's region when the file must be laid out (it is shorter), else 0.
 * With create_on_open nothing is: the job's open creates the file.
 */
static uint64_t short_end(const struct job *job, const struct target_file *f)
{
	uint64_t end = f->start + f->size;
	struct stat st;

	if (f->is_bdev || job->o.create_on_open)
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

/*
 * Fills a laid-out file's missing part with data, as fio does for a job that reads it and for
 * overwrite=1 (a write-only job's new file is only preallocated, so its writes allocate).  The
 * part before the region stays as it is: a hole, or preallocated.  With fill_device the data
 * goes until the file system is full, and the region ends there.  Returns 0 or -errno.
 */
static int fill_file(const struct job *job, struct target_plan *plan, struct target_file *f,
		     int fd, uint64_t cur, struct iowl_err *err)
{
	uint64_t end = f->start + f->size, from = cur > f->start ? cur : f->start, reached = 0;
	int ret;

	if (!job_does_dir(job, 0) && !job->o.overwrite)
		return 0;
	ret = fill_range(fd, from, end, f->path, job->o.fill_device, &reached, err);
	/*
	 * Interrupted: the preallocated part without data goes, or the next run would take the
	 * file as laid out and read unwritten blocks.  What was there before stays.
	 */
	if (ret == -EINTR && reached < end && ftruncate(fd, (off_t)(reached > cur ? reached : cur)))
		iowl_warn("job '%s': cannot cut '%s' back to its data: %s", job->o.name, f->path,
			  strerror(errno));
	if (ret)
		return ret;
	if (job->o.create_fsync && fsync(fd)) {
		ret = -errno;
		err_errno(err, -ret, "job '%s': fsync '%s'", job->o.name, f->path);
		return ret;
	}
	if (reached < end) {	/* fill_device: the file system is full */
		uint64_t size = reached > f->start ? reached - f->start : 0;

		if (!size) {
			err_set(err, "job '%s': no space for '%s' (fill_device)", job->o.name, f->path);
			return -ENOSPC;
		}
		plan->total -= plan->total > f->size - size ? f->size - size : plan->total;
		f->size = size;
	}
	return 0;
}

static int layout_one(const struct job *job, struct target_plan *plan, struct target_file *f,
		      struct iowl_err *err)
{
	uint64_t end = f->start + f->size;
	struct stat st;
	int fd, ret = 0;

	fd = open(f->path, O_RDWR | O_CLOEXEC | (job->o.allow_file_create ? O_CREAT : 0), 0644);
	if (fd < 0) {
		ret = -errno;
		err_errno(err, -ret, "job '%s': create '%s'%s", job->o.name, f->path,
			  ret == -ENOENT && !job->o.allow_file_create ?
				  " (allow_file_create=0 forbids creating it)" :
				  "");
		return ret;
	}
	if (fstat(fd, &st) || (uint64_t)st.st_size >= end)
		goto out_close;
	/* fio does not preallocate for fill_device: the region is the file system's free space. */
	if (!job->o.fill_device)
		ret = preallocate(job, fd, f->path, end, err);
	if (!ret)
		ret = fill_file(job, plan, f, fd, (uint64_t)st.st_size, err);
	if (!ret && !fstat(fd, &st))
		f->real_size = (uint64_t)st.st_size;
out_close:
	close(fd);
	return ret;
}

int target_layout(const struct job *job, struct target_plan *plan, FILE *info,
		  struct iowl_err *err)
{
	uint64_t bytes = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < plan->nfiles; i++) {
		uint64_t end = short_end(job, &plan->files[i]);

		n += end != 0;
		bytes += end;
	}
	say_layout(info, job, n, bytes);
	for (unsigned i = 0; i < plan->nfiles && n; i++) {
		int ret;

		if (!short_end(job, &plan->files[i]))
			continue;
		ret = layout_one(job, plan, &plan->files[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

/* How the job opens f: for its directions, O_DIRECT when asked, and O_CREAT for a regular file it writes. */
static int open_flags(const struct job *job, const struct target_file *f)
{
	bool writes = job_does_dir(job, 1) || job_does_dir(job, 2);

	return (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC | (job->o.direct ? O_DIRECT : 0) |
	       (int)job->o.sync_io |
	       (writes && !f->is_bdev && job->o.allow_file_create ? O_CREAT : 0);
}

/* An open that failed with errno e.  Returns -e. */
static int open_err(const struct job *job, const struct target_file *f, int e,
		    struct iowl_err *err)
{
	if (e == EINVAL && job->o.direct)
		err_set(err, "job '%s': open '%s' with O_DIRECT: %s (the filesystem does not support direct IO; use direct=0)",
			job->o.name, f->path, strerror(e));
	else
		err_errno(err, e, "job '%s': open '%s'%s", job->o.name, f->path,
			  e == ENOENT && !job->o.allow_file_create ?
				  " (allow_file_create=0 forbids creating it)" :
				  "");
	return -e;
}

/*
 * fio's hints on an opened file: posix_fadvise() over its region (fadvise_hint; a failure is
 * only a warning, as in fio) and the write life time (write_hint; a failure fails the job).
 * fio 3.33 sets the hint with F_SET_FILE_RW_HINT under direct=1, which Linux removed in 5.17;
 * iowl always sets the inode's hint (F_SET_RW_HINT), which O_DIRECT writes carry too.
 */
static int file_hints(const struct job *job, const struct target_file *f, struct iowl_err *err)
{
	unsigned h = job->o.fadvise_hint;
	int adv = h == FADVISE_RANDOM || (h == FADVISE_TYPE && (job->o.rw & RW_F_RANDOM)) ?
			  POSIX_FADV_RANDOM :
			  POSIX_FADV_SEQUENTIAL;
	uint64_t life = job->o.write_hint;

	if (h != FADVISE_NONE && posix_fadvise(f->fd, (off_t)f->start, (off_t)f->size, adv))
		iowl_warn("job '%s': fadvise_hint on '%s' failed", job->o.name, f->path);
	if (life && fcntl(f->fd, F_SET_RW_HINT, &life)) {
		int e = errno;

		err_set(err, "job '%s': write_hint on '%s' (fcntl F_SET_RW_HINT): %s", job->o.name,
			f->path, strerror(e));
		return -e;
	}
	return 0;
}

int target_open_one(const struct job *job, struct target_plan *plan, unsigned i,
		    struct iowl_err *err)
{
	struct target_file *f = &plan->files[i];

	f->fd = open(f->path, open_flags(job, f), 0644);
	if (f->fd < 0)
		return open_err(job, f, errno, err);
	return file_hints(job, f, err);
}

int target_open(const struct job *job, struct target_plan *plan, struct iowl_err *err)
{
	for (unsigned i = 0; !plan->lazy && i < plan->nfiles; i++) {
		int ret = target_open_one(job, plan, i, err);

		if (ret)
			return ret;
	}
	return 0;
}

int target_renew(const struct job *job, struct target_plan *plan, struct iowl_err *err)
{
	for (unsigned i = 0; i < plan->nfiles; i++) {
		struct target_file *f = &plan->files[i];
		int fd, ret;

		if (f->is_bdev || (f->fd < 0 && !plan->lazy))
			continue;
		if (unlink(f->path) && errno != ENOENT) {
			int e = errno;

			err_errno(err, e, "job '%s': unlink '%s'", job->o.name, f->path);
			return -e;
		}
		fd = open(f->path, open_flags(job, f) | O_CREAT, 0644);
		if (fd < 0)
			return open_err(job, f, errno, err);
		if (f->fd < 0) { /* openfiles: a file closed now is opened again at its first IO */
			close(fd);
			continue;
		}
		/* The same descriptor number: the engine keeps using the file it was given. */
		if (dup3(fd, f->fd, O_CLOEXEC) < 0) {
			int e = errno;

			close(fd);
			err_errno(err, e, "job '%s': reopen '%s'", job->o.name, f->path);
			return -e;
		}
		close(fd);
		ret = file_hints(job, f, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Drops f's cached pages through fd.  Returns 0 or an errno, with what failed in *call. */
static int drop_cache(const struct target_file *f, int fd, const char **call)
{
	if (f->is_bdev) {
		*call = "BLKFLSBUF";
		return ioctl(fd, BLKFLSBUF, 0) ? errno : 0;
	}
	*call = "posix_fadvise";
	return posix_fadvise(fd, (off_t)f->start, (off_t)f->size, POSIX_FADV_DONTNEED);
}

int target_invalidate(const struct target_plan *plan, bool open_fds, struct iowl_err *err)
{
	int first = 0;

	for (unsigned i = 0; i < plan->nfiles; i++) {
		const struct target_file *f = &plan->files[i];
		bool own = !open_fds || f->fd < 0; /* openfiles: a file not open now */
		int fd = own ? open(f->path, O_RDONLY | O_CLOEXEC) : f->fd;
		const char *call = "open";
		int e = fd < 0 ? errno : drop_cache(f, fd, &call);

		if (own && fd >= 0)
			close(fd);
		if (e && !first) {
			first = -e;
			if (err)
				err_set(err, "cannot drop the page cache of '%s' (%s: %s): buffered reads may be served from memory%s",
					f->path, call, strerror(e),
					e == EACCES || e == EPERM ? "; run as root or use direct=1" : "");
		}
	}
	return first;
}

int target_pre_read(const struct job *job, const struct target_plan *plan, struct iowl_err *err)
{
	const size_t chunk = 1 << 20;
	char *buf = malloc(chunk);
	int ret = 0;

	if (!buf)
		return err_set(err, "out of memory"), -ENOMEM;
	for (unsigned i = 0; i < plan->nfiles && !ret; i++) {
		const struct target_file *f = &plan->files[i];
		uint64_t at = f->start, end = f->start + f->size;
		int fd = open(f->path, O_RDONLY | O_CLOEXEC);

		while (fd >= 0 && at < end && !run_signal_seen()) {
			ssize_t r = pread(fd, buf, end - at < chunk ? (size_t)(end - at) : chunk,
					  (off_t)at);

			run_busy();

			if (r <= 0) {
				ret = r < 0 ? -errno : 0;
				break;
			}
			at += (uint64_t)r;
		}
		if (fd < 0)
			ret = -errno;
		else
			close(fd);
		if (ret)
			err_set(err, "job '%s': pre_read '%s': %s", job->o.name, f->path,
				strerror(-ret));
	}
	free(buf);
	return ret;
}

void target_unlink(const struct target_plan *plan)
{
	for (unsigned i = 0; i < plan->nfiles; i++)
		if (!plan->files[i].is_bdev)
			unlink(plan->files[i].path);	/* gone already (a clone sharing it): fine */
}
