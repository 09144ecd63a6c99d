// SPDX-License-Identifier: MIT
/* Target resolution: names, sizes, regions and alignment of a clone's files, and file layout before the run. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "iowl/pattern/rng.h"
#include "iowl/target.h"
#include "iowl/value.h"

void target_plan_release(struct target_plan *plan)
{
	for (unsigned i = 0; plan->files && i < plan->nfiles; i++)
		if (plan->files[i].fd >= 0)
			close(plan->files[i].fd);
	for (unsigned i = 0; plan->names && i < plan->nfiles; i++)
		free(plan->names[i]);
	free(plan->names);
	free(plan->files);
	memset(plan, 0, sizeof(*plan));
}

/* The directory of clone number clone: fio hands ':' separated directories out round-robin. */
static char *clone_dir(const char *dirs, unsigned clone)
{
	char why[VAL_WHY_LEN];
	char **v = val_split_names(dirs, why);
	unsigned n = 0;
	char *dir;

	if (!v)
		return NULL;
	while (v[n])
		n++;
	dir = n ? strdup(v[clone % n]) : NULL;
	val_strv_free(v);
	return dir;
}

/*
 * A generated file name from filename_format, as fio makes it: $jobname, $jobnum (the clone's
 * number) and $filenum replaced, anything else kept.  Returns 0, -ENOMEM, or -EINVAL for
 * $clientuid (fio's client/server mode, which iowl does not have).
 */
static int format_name(const char *fmt, const char *job, unsigned clone, unsigned file,
		       char **out)
{
	size_t len = 0;
	FILE *m = open_memstream(out, &len);
	int ret = 0;

	if (!m)
		return -ENOMEM;
	while (*fmt) {
		if (!strncmp(fmt, "$jobname", 8)) {
			fputs(job, m);
			fmt += 8;
		} else if (!strncmp(fmt, "$jobnum", 7)) {
			fprintf(m, "%u", clone);
			fmt += 7;
		} else if (!strncmp(fmt, "$filenum", 8)) {
			fprintf(m, "%u", file);
			fmt += 8;
		} else if (!strncmp(fmt, "$clientuid", 10)) {
			ret = -EINVAL;
			break;
		} else {
			fputc(*fmt++, m);
		}
	}
	if (fclose(m))
		ret = -ENOMEM;
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

static int make_names(const struct job *job, unsigned clone, struct target_plan *plan,
		      struct iowl_err *err)
{
	char *dir = NULL;

	if (job->o.directory && !(dir = clone_dir(job->o.directory, clone)))
		return job_opt_err(job, OPT_ID_directory, err,
				   "empty value (use names separated by ':', with '\\:' for a colon inside a name) (an unset ${VAR} expands to nothing)");
	for (unsigned i = 0; i < plan->nfiles; i++) {
		int r;

		/* As fio: directory goes in front of every name, an absolute one too (D//abs). */
		if (job->filenames && dir)
			r = asprintf(&plan->names[i], "%s/%s", dir, job->filenames[i]);
		else if (job->filenames)
			r = asprintf(&plan->names[i], "%s", job->filenames[i]);
		else if (job->o.filename_format) {
			char *name;

			r = format_name(job->o.filename_format, job->o.name, clone, i, &name);
			if (r == -EINVAL) {
				free(dir);
				return job_opt_err(job, OPT_ID_filename_format, err,
						   "$clientuid needs fio's client/server mode, which iowl does not have (use $jobname, $jobnum, $filenum)");
			}
			r = r ? -1 : asprintf(&plan->names[i], "%s%s%s", dir ? dir : "",
					      dir ? "/" : "", name);
			free(name);
		} else
			r = asprintf(&plan->names[i], "%s%s%s.%u.%u", dir ? dir : "",
				     dir ? "/" : "", job->o.name, clone, i);
		if (r < 0) {
			plan->names[i] = NULL;
			free(dir);
			return err_nomem(err, "out of memory");
		}
		plan->files[i].path = plan->names[i];
		plan->files[i].fd = -1;
	}
	free(dir);
	return 0;
}

static unsigned file_dio_align(const char *path, const struct stat *st)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
	return 512;
}

/* Size and alignment of an existing file or device; a missing file has real_size 0. */
static int probe(const struct job *job, struct target_file *f, struct iowl_err *err)
{
	struct stat st;

	f->lbs = 1;
	if (stat(f->path, &st)) {
		if (errno == ENOENT)
			return 0;
		return err_at(err, job->file, job->line, "job '%s': '%s': %s", job->o.name,
			      f->path, strerror(errno));
	}
	if (S_ISBLK(st.st_mode)) {
		int fd = open(f->path, O_RDONLY | O_CLOEXEC);
		int lbs = 512;
		uint64_t size = 0;

		if (fd < 0)
			return err_at(err, job->file, job->line, "job '%s': open '%s': %s",
				      job->o.name, f->path, strerror(errno));
		if (ioctl(fd, BLKGETSIZE64, &size) || ioctl(fd, BLKSSZGET, &lbs)) {
			int e = errno;

			close(fd);
			return err_at(err, job->file, job->line, "job '%s': '%s': %s",
				      job->o.name, f->path, strerror(e));
		}
		close(fd);
		f->is_bdev = true;
		f->real_size = size;
		f->lbs = (unsigned)lbs;
	} else if (S_ISREG(st.st_mode)) {
		f->real_size = (uint64_t)st.st_size;
		if (job->o.direct)
			f->lbs = file_dio_align(f->path, &st);
	} else if (S_ISDIR(st.st_mode)) {
		return err_at(err, job->file, job->line,
			      "job '%s': '%s' is a directory (use directory= for a place to put files, filename= for a file)",
			      job->o.name, f->path);
	} else {
		return err_at(err, job->file, job->line,
			      "job '%s': '%s' is neither a regular file nor a block device",
			      job->o.name, f->path);
	}
	return 0;
}

static uint64_t pct_of(double pct, uint64_t of)
{
	return (uint64_t)((long double)of * pct / 100.0L);
}

/* The largest byte offset a file can have (off_t is signed). */
#define TARGET_OFF_MAX ((uint64_t)INT64_MAX)

/* The option a region's start is blamed on: offset_increment for a later clone, else offset. */
static enum opt_id start_opt(const struct job *job, unsigned clone)
{
	if (clone && job_opt_is_set(job, OPT_ID_offset_increment))
		return OPT_ID_offset_increment;
	return job_opt_is_set(job, OPT_ID_offset) ? OPT_ID_offset : OPT_ID_size;
}

/* A region that does not fit, blamed on the option that placed it. */
static int region_err(const struct job *job, unsigned clone, const struct target_file *f,
		      uint64_t start, uint64_t size, struct iowl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static int region_err(const struct job *job, unsigned clone, const struct target_file *f,
		      uint64_t start, uint64_t size, struct iowl_err *err, const char *fmt, ...)
{
	char what[IOWL_ERR_LEN / 4], who[32] = "the region";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (clone)
		snprintf(who, sizeof(who), "clone %u's region", clone);
	return job_opt_err(job, start_opt(job, clone), err,
			   "%s of '%s' (offset %llu, %llu bytes) %s (give an offset and size within the %s)",
			   who, f->path, (unsigned long long)start, (unsigned long long)size, what,
			   f->is_bdev ? "device" : "file");
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The granularity fio rounds a region to: the smallest block size the job issues, and with
 * direct IO also f's logical block size (with bs_roundup the smallest size may be below it).
 */
static uint64_t region_bs(const struct job *job, const struct target_file *f)
{
	uint64_t m = UINT64_MAX;

	for (unsigned d = 0; d < DDIR_NR; d++)
		if (job_does_dir(job, d) && job->min_bs[d] < m)
			m = job->min_bs[d];
	if (m == UINT64_MAX)
		m = job->o.bs[0];
	if (job->o.direct && f->lbs > 1 && m % f->lbs)
		m = m / gcd64(m, f->lbs) * f->lbs;
	return m;
}

/*
 * Where clone's region starts in f: offset plus clone times offset_increment, each a size or a
 * percentage of the whole file or device.  As fio, a start that a percentage went into is
 * rounded up to offset_align, by default the smallest block size (with direct=1 to a logical
 * block as well).  Returns 0 or -EINVAL with err set.
 */
static int region_start(const struct job *job, unsigned clone, const struct target_file *f,
			uint64_t *start, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	bool pct = o->offset.is_pct || o->offset_increment.is_pct;
	uint64_t base, inc, step, bs = region_bs(job, f);

	if (o->file_append && !f->is_bdev) {	/* fio: the file's size, whatever offset says */
		*start = f->real_size;
		return 0;
	}

	if (pct && !f->real_size)
		return job_opt_err(job, o->offset.is_pct ? OPT_ID_offset : OPT_ID_offset_increment,
				   err,
				   "a percentage of '%s' needs the file to exist (give sizes in bytes to create it)",
				   f->path);
	base = o->offset.is_pct ? pct_of(o->offset.pct, f->real_size) : o->offset.bytes;
	inc = o->offset_increment.is_pct ? pct_of(o->offset_increment.pct, f->real_size) :
					   o->offset_increment.bytes;
	if (__builtin_mul_overflow(inc, (uint64_t)clone, &step) ||
	    __builtin_add_overflow(base, step, start) ||
	    (pct && o->offset_align && *start % o->offset_align &&
	     __builtin_add_overflow(*start, o->offset_align - *start % o->offset_align, start)) ||
	    (pct && (!o->offset_align || o->direct) && *start % bs &&
	     __builtin_add_overflow(*start, bs - *start % bs, start)))
		return job_opt_err(job, start_opt(job, clone), err,
				   "clone %u of job '%s' would start past 2^64 bytes in '%s' (offset + %u x offset_increment; give values within the file or device)",
				   clone, o->name, f->path, clone);
	return 0;
}

/* Bytes free for an unprivileged user in the file system that holds (or will hold) path. */
static uint64_t free_space(const char *path)
{
	char *dir = NULL, *slash;
	struct statvfs sv;
	int r = statvfs(path, &sv);

	if (r && (dir = strdup(path))) {	/* not there yet: its directory */
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		r = statvfs(slash ? (*dir ? dir : "/") : ".", &sv);
	}
	free(dir);
	return r ? 0 : (uint64_t)sv.f_bavail * sv.f_frsize;
}

/* rng_stream_id() kind of the filesize= range draws (the generators' kinds are small numbers). */
#define TARGET_RNG_FILESIZE 0x66737a00U

/*
 * The size of file number i of clone with filesize=: the size, or for a range lo-hi one drawn
 * in it from randseed, the clone and the file (the same on every run and in every place the
 * plan is made), rounded down to a whole block, as fio's; an existing file whose size is
 * already in the range keeps it.
 */
static uint64_t file_size_of(const struct job *job, unsigned clone, unsigned i,
			     const struct target_file *f)
{
	const struct job_opts *o = &job->o;
	uint64_t lo = o->filesize.lo, hi = o->filesize.hi, size, bs = region_bs(job, f);
	struct rng r;

	if (hi == lo)
		return lo;
	if (f->real_size >= lo && f->real_size <= hi)
		return f->real_size;
	rng_init(&r, o->randseed ^ rng_mix64(i + 1ULL), rng_stream_id(clone, TARGET_RNG_FILESIZE));
	size = lo + rng_below(&r, hi - lo);
	return size - size % bs;
}

/*
 * The length of file number i's region from start, before size=N% applies: up to the file's
 * filesize, size split over the files (the first ones a block longer with what does not
 * divide, as fio), or the rest of the file or device.  Returns 0 or -EINVAL with err set.
 */
static int region_len(const struct job *job, unsigned clone, unsigned i,
		      const struct target_plan *plan, const struct target_file *f, uint64_t start,
		      uint64_t *len, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	uint64_t bs = region_bs(job, f), each, fsize;

	if (o->filesize.hi) {
		fsize = file_size_of(job, clone, i, f);
		if (start >= fsize)
			return job_opt_err(job, start_opt(job, clone), err,
					   "%sthe region of '%s' starts at %llu, not before the end of the file (filesize %llu; give an offset below filesize)",
					   clone ? "in clone " : "", f->path, (unsigned long long)start,
					   (unsigned long long)fsize);
		*len = fsize - start;
	} else if (o->fill_device && !f->is_bdev && !o->size.bytes && !o->size.is_pct) {
		*len = (f->real_size > start ? f->real_size - start : 0) + free_space(f->path);
		*len -= *len % bs;
	} else if (o->size.is_pct || !o->size.bytes) {
		*len = f->real_size > start ? f->real_size - start : 0;
	} else {
		each = o->size.bytes / plan->nfiles;
		*len = each + (i < (o->size.bytes - each * plan->nfiles) / bs ? bs : 0);
	}
	return 0;
}

/* size=N%: N percent of the whole file (the region's start and length), rounded down to a block. */
static uint64_t region_pct(const struct job *job, const struct target_file *f, uint64_t start,
			   uint64_t len)
{
	uint64_t whole = start + len, size, bs = region_bs(job, f);

	if (!job->o.size.is_pct || job->o.size.pct >= 100)
		return len;
	size = pct_of(job->o.size.pct, whole);
	if (size > len)
		size = len;
	return size - size % bs;
}

/*
 * Region of one file: where it starts, and how long it is.  Every sum and product is checked:
 * a region that would run past 2^64 (or, in a regular file, past the largest file offset) is
 * refused, never wrapped round to the file's start.
 */
static int file_region(const struct job *job, unsigned clone, unsigned i,
		       struct target_plan *plan, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	struct target_file *f = &plan->files[i];
	uint64_t start = 0, size = 0, end;
	int ret;

	if (!f->real_size && o->size.is_pct && !o->filesize.hi)
		return job_opt_err(job, OPT_ID_size, err,
				   "a percentage of '%s' needs the file to exist (give sizes in bytes to create it)",
				   f->path);
	ret = region_start(job, clone, f, &start, err);
	if (!ret)
		ret = region_len(job, clone, i, plan, f, start, &size, err);
	if (ret)
		return ret;
	size = region_pct(job, f, start, size);
	if (!size && !f->real_size)
		return job_opt_err(job, OPT_ID_filename, err,
				   "'%s' does not exist and no size is given (set size=, e.g. size=1g)",
				   f->path);
	if (!size)
		return err_at(err, job->file, job->line,
			      "job '%s': no room for a region in '%s' (offset %llu, file size %llu)",
			      o->name, f->path, (unsigned long long)start,
			      (unsigned long long)f->real_size);
	if (__builtin_add_overflow(start, size, &end))
		return region_err(job, clone, f, start, size, err, "ends past 2^64 bytes");
	if (!f->is_bdev && end > TARGET_OFF_MAX)
		return region_err(job, clone, f, start, size, err,
				  "ends past the largest file offset, 2^63 - 1");
	f->cut = 0;
	if (f->is_bdev && end > f->real_size) {
		/* fio's meaning: the region ends with the device (said by target_report_ranges()) */
		uint64_t left = start < f->real_size ? f->real_size - start : 0;

		left -= left % region_bs(job, f);
		if (!left)
			return region_err(job, clone, f, start, size, err,
					  "starts %s the end of the device (%llu bytes)",
					  start < f->real_size ? "less than a block before" :
								 "past",
					  (unsigned long long)f->real_size);
		f->cut = size;
		size = left;
	}
	f->start = start;
	f->size = size;
	return 0;
}

static unsigned max3(const unsigned v[3])
{
	unsigned m = v[0] > v[1] ? v[0] : v[1];

	return m > v[2] ? m : v[2];
}

/*
 * An alignment error: at the option's own line for the job's options, at the stream= line
 * (named in who) for a stream's.
 */
static int align_err(const struct job *job, const char *who, enum opt_id opt, struct iowl_err *err,
		     const char *fmt, ...)
{
	char msg[IOWL_ERR_LEN / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!*who)
		return job_opt_err(job, opt, err, "%s", msg);
	return err_at(err, job->file, job->line, "job '%s'%s: %s", job->o.name, who, msg);
}

/* One block size against the logical block size: fine, rounded up with bs_roundup, or wrong. */
static int check_bs(const struct job *job, const char *who, enum opt_id opt,
		    const struct job_opts *o, const struct target_file *f, uint64_t bs,
		    struct iowl_err *err)
{
	if (!(bs % f->lbs) || (bs < f->lbs && o->bs_roundup))
		return 0;
	if (bs < f->lbs)
		return align_err(job, who, opt, err,
				 "direct=1 cannot issue %llu-byte IOs to '%s' (logical block size %u): set bs_roundup=1 to round them up to %u (reported), or change the sizes",
				 (unsigned long long)bs, f->path, f->lbs, f->lbs);
	return align_err(job, who, opt, err,
			 "direct=1 needs every block size to be a multiple of the %u-byte logical block size of '%s' (found %llu)",
			 f->lbs, f->path, (unsigned long long)bs);
}

static int check_align_opts(const struct job *job, const char *who, const struct job_opts *o,
			    unsigned dirs, const unsigned min_bs[DDIR_NR],
			    const unsigned max_bs[DDIR_NR], const struct target_file *f,
			    struct iowl_err *err)
{
	int ret = 0;

	for (unsigned d = 0; d < DDIR_NR && !ret; d++) {
		if (!(dirs & (1U << d)))
			continue;
		enum opt_id opt = o->bssplit[d].n  ? OPT_ID_bssplit :
				  o->bsrange[d].hi ? OPT_ID_bsrange :
						     OPT_ID_bs;

		for (unsigned i = 0; i < o->bssplit[d].n && !ret; i++)
			ret = check_bs(job, who, opt, o, f, o->bssplit[d].e[i].bs, err);
		if (!ret)
			ret = check_bs(job, who, opt, o, f, min_bs[d], err);
		if (!ret && !o->bssplit[d].n)
			ret = check_bs(job, who, opt, o, f, max_bs[d], err);
		if (!ret && o->blockalign[d] % f->lbs)
			ret = align_err(job, who, OPT_ID_blockalign, err,
					"direct=1 needs blockalign to be a multiple of the %u-byte logical block size of '%s' (found %llu)",
					f->lbs, f->path, (unsigned long long)o->blockalign[d]);
	}
	return ret;
}

static int check_align(const struct job *job, const struct target_file *f, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	int ret;

	if (!o->direct || f->lbs <= 1)
		return 0;
	if (f->start % f->lbs || f->size % f->lbs)
		return err_at(err, job->file, job->line,
			      "job '%s': direct=1 needs the region of '%s' aligned to its %u-byte logical blocks (offset %llu, size %llu)",
			      o->name, f->path, f->lbs, (unsigned long long)f->start,
			      (unsigned long long)f->size);
	if (!job->nstreams)
		return check_align_opts(job, "", o, job->dirs, job->min_bs, job->max_bs, f, err);
	for (unsigned i = 0; i < job->nstreams; i++) {
		const struct job_stream *s = &job->streams[i];
		char who[160];

		snprintf(who, sizeof(who), ", stream '%s'", s->name);
		ret = check_align_opts(job, who, &s->o, s->dirs, s->min_bs, s->max_bs, f, err);
		if (ret)
			return ret;
	}
	return 0;
}

uint64_t target_stream_align(const struct job_stream *js, const struct target_file *tf)
{
	bool direct = js->o.direct && tf->lbs > 1;
	uint64_t a = direct ? tf->lbs : 1;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		uint64_t u;

		if (!(js->dirs & (1U << d)))
			continue;
		u = js->o.blockalign[d] ? js->o.blockalign[d] : js->min_bs[d];
		if (direct && js->o.bs_roundup && u < tf->lbs)
			u = tf->lbs;
		if (u && a / gcd64(a, u) <= UINT32_MAX / u)	/* an absurd lcm: keep the last */
			a = a / gcd64(a, u) * u;
	}
	return a;
}

/* N% of the region, rounded down to a whole number of units of align. */
static uint64_t pct_down(double pct, uint64_t of, uint64_t align)
{
	uint64_t v = pct_of(pct, of);

	return v - v % align;
}

bool target_stream_range(const struct job_stream *js, const struct target_file *tf,
			 uint64_t *start, uint64_t *size)
{
	uint64_t off = 0, len, align = js ? target_stream_align(js, tf) : 1;
	bool fits = true;

	if (js && js->has_offset)
		off = js->o.offset.is_pct ? pct_down(js->o.offset.pct, tf->size, align) :
					    js->o.offset.bytes;
	if (off > tf->size) {
		off = tf->size;
		fits = false;
	}
	len = tf->size - off;
	if (js && js->has_size) {
		uint64_t want = js->o.size.is_pct ? pct_down(js->o.size.pct, tf->size, align) :
						    js->o.size.bytes;

		fits = fits && want <= len;
		len = want < len ? want : len;
	}
	*start = tf->start + off;
	*size = len;
	return fits;
}

/* One rounded percentage of a stream, said when the rounding changed it. */
static void say_rounded(FILE *info, const struct job *job, const struct job_stream *js,
			const char *opt, double pct, uint64_t of, uint64_t align, const char *what)
{
	uint64_t raw = pct_of(pct, of);

	if (raw % align)
		fprintf(info, "%s: stream '%s': %s=%g%% of %s is %llu bytes, rounded down to %llu (a multiple of %llu)\n",
			job->o.name, js->name, opt, pct, what, (unsigned long long)raw,
			(unsigned long long)(raw - raw % align), (unsigned long long)align);
}

void target_report_ranges(FILE *info, const struct job *job, const struct target_plan *plan)
{
	const struct target_file *tf = plan->nfiles ? &plan->files[0] : NULL;

	for (unsigned i = 0; info && i < plan->nfiles; i++)
		if (plan->files[i].cut)
			fprintf(info,
				"%s: the region of '%s' (offset %llu, %llu bytes) runs past the end of the device: it ends there, %llu bytes long (as in fio)\n",
				job->o.name, plan->files[i].path,
				(unsigned long long)plan->files[i].start,
				(unsigned long long)plan->files[i].cut,
				(unsigned long long)plan->files[i].size);

	for (unsigned i = 0; info && tf && i < job->nstreams; i++) {
		const struct job_stream *js = &job->streams[i];
		uint64_t align = target_stream_align(js, tf), start, len;

		if (js->has_offset && js->o.offset.is_pct)
			say_rounded(info, job, js, "offset", js->o.offset.pct, tf->size, align,
				    "the job's region");
		if (js->has_size && js->o.size.is_pct)
			say_rounded(info, job, js, "size", js->o.size.pct, tf->size, align,
				    "the job's region");
		target_stream_range(js, tf, &start, &len);
		if (js->o.walker_start.is_pct && !js->walker)
			say_rounded(info, job, js, "walker_start", js->o.walker_start.pct, len, align,
				    "its range");
	}
}

/* With direct IO a stream placed at a byte offset must start on a logical block (a percentage is rounded). */
static int check_stream_offset(const struct job *job, const struct job_stream *s,
			       const struct target_file *f, struct iowl_err *err)
{
	if (!s->o.direct || f->lbs <= 1 || !s->has_offset || s->o.offset.is_pct ||
	    !((f->start + s->o.offset.bytes) % f->lbs))
		return 0;
	return err_at(err, s->file, s->line,
		      "job '%s', stream '%s': offset=%llu is not a multiple of the %u-byte logical block size of '%s', which direct=1 needs (give a multiple of %u, or a percentage, which is rounded down)",
		      job->o.name, s->name, (unsigned long long)s->o.offset.bytes, f->lbs, f->path,
		      f->lbs);
}

/* Every stream's range fits its largest IO, in every file. */
static int check_streams(const struct job *job, const struct target_file *f, struct iowl_err *err)
{
	for (unsigned i = 0; i < job->nstreams; i++) {
		const struct job_stream *s = &job->streams[i];
		uint64_t start, size, maxbs = 0;

		for (unsigned d = 0; d < DDIR_NR; d++)
			if ((s->dirs & (1U << d)) && s->max_bs[d] > maxbs)
				maxbs = s->max_bs[d];
		if (check_stream_offset(job, s, f, err))
			return -EINVAL;
		if (!target_stream_range(s, f, &start, &size))
			return err_at(err, s->file, s->line,
				      "job '%s', stream '%s': its offset= and size= run past the end of the job's region in '%s' (%llu bytes; give them within it)",
				      job->o.name, s->name, f->path, (unsigned long long)f->size);
		if (size < maxbs)
			return err_at(err, s->file, s->line,
				      "job '%s', stream '%s': its range in '%s' (%llu bytes at offset %llu of the region) is smaller than its block size %llu",
				      job->o.name, s->name, f->path, (unsigned long long)size,
				      (unsigned long long)(start - f->start), (unsigned long long)maxbs);
	}
	return 0;
}

/* create_on_open leaves a short file to the job's open, which makes it empty: nothing to read. */
static int check_create_on_open(const struct job *job, const struct target_file *f,
				struct iowl_err *err)
{
	/* a queueing engine's read past the end gets nothing and is counted so, as in fio */
	if (!job->o.create_on_open || f->is_bdev || f->real_size >= f->start + f->size ||
	    !job_does_dir(job, 0) || !(job->engine->flags & ENGINE_F_SYNC))
		return 0;
	return job_opt_err(job, OPT_ID_create_on_open, err,
			   "'%s' is %llu bytes short of the region, and a synchronous engine's read there gets nothing (fio ends the job with EIO): lay it out (create_on_open=0), write it first, or use a queueing engine (libaio, io_uring: such a read counts as an IO of 0 bytes, as fio)",
			   f->path, (unsigned long long)(f->start + f->size - f->real_size));
}

int target_plan(const struct job *job, unsigned clone, struct target_plan *plan,
		struct iowl_err *err)
{
	unsigned n = job->filenames ? job->nfilenames : job->o.nrfiles;
	unsigned maxbs = max3(job->max_bs);
	int ret;

	memset(plan, 0, sizeof(*plan));
	plan->files = calloc(n, sizeof(*plan->files));
	plan->names = calloc(n, sizeof(*plan->names));
	plan->nfiles = n;
	if (!plan->files || !plan->names) {
		target_plan_release(plan);
		return err_nomem(err, "out of memory");
	}
	for (unsigned i = 0; i < n; i++)
		plan->files[i].fd = -1;
	ret = make_names(job, clone, plan, err);
	for (unsigned i = 0; i < n && !ret; i++) {
		struct target_file *f = &plan->files[i];

		ret = probe(job, f, err);
		if (!ret)
			ret = file_region(job, clone, i, plan, err);
		if (!ret && f->size < maxbs)
			ret = err_at(err, job->file, job->line,
				     "job '%s': the region of '%s' (%llu bytes) is smaller than the block size %u",
				     job->o.name, f->path, (unsigned long long)f->size, maxbs);
		if (!ret)
			ret = check_create_on_open(job, f, err);
		if (!ret)
			ret = check_align(job, f, err);
		if (!ret)
			ret = check_streams(job, f, err);
		if (!ret && __builtin_add_overflow(plan->total, f->size, &plan->total))
			ret = err_at(err, job->file, job->line,
				     "job '%s': the regions of its %u files add up past 2^64 bytes (make them smaller)",
				     job->o.name, n);
		if (f->lbs > plan->lbs)
			plan->lbs = f->lbs;
	}
	/* With filesize=, size= is the IO a pass does over the files, not their size (fio). */
	/* openfiles: a replay opens every file of its log (the log's open lines are not followed) */
	plan->lazy = job->o.openfiles && job->o.openfiles < n && !job->nreplays &&
		     !(job->engine->flags & ENGINE_F_NODATA);
	if (!ret && job->o.filesize.hi && !job->o.size.is_pct && job->o.size.bytes &&
	    job->o.size.bytes < plan->total)
		plan->total = job->o.size.bytes;
	if (ret)
		target_plan_release(plan);
	return ret;
}
