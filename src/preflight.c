// SPDX-License-Identifier: MIT
/* Everything a run can know before its first IO: targets, the files it writes, the write guard. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iowl/engine.h"
#include "iowl/fiolog.h"
#include "iowl/gen.h"
#include "iowl/preflight.h"
#include "iowl/verify.h"

#define WHY_LEN (IOWL_ERR_LEN / 2)

static unsigned job_allow(const struct job *job)
{
	return (job->o.allow_mounted_write ? GUARD_ALLOW_MOUNTED : 0) |
	       (job->o.allow_signature_write ? GUARD_ALLOW_SIGNATURE : 0);
}

static bool moves_data(const struct job *job)
{
	return !(job->engine->flags & ENGINE_F_NODATA);
}

/* The directory part of path ("." or "/" for none); NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* Whether a file can be created at path: its directory exists and takes new files. */
static int creatable(const char *path, dev_t *fsdev, char *why, size_t len)
{
	char *dir = dir_of(path);
	struct stat st;
	int r = 0;

	if (!dir) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	if (stat(dir, &st)) {
		r = -errno;
		if (r == -ENOENT)
			snprintf(why, len, "cannot create '%s': the directory '%s' does not exist (create it first, or name an existing directory)",
				 path, dir);
		else
			snprintf(why, len, "cannot create '%s': '%s': %s", path, dir, strerror(-r));
	} else if (!S_ISDIR(st.st_mode)) {
		r = -ENOTDIR;
		snprintf(why, len, "cannot create '%s': '%s' is not a directory", path, dir);
	} else if (access(dir, W_OK | X_OK)) {
		r = -errno;
		snprintf(why, len, "cannot create '%s' in '%s': %s", path, dir, strerror(-r));
	}
	if (!r && fsdev)
		*fsdev = st.st_dev;
	free(dir);
	return r;
}

/*
 * Whether iowl may write path: the write guard first, then an existing file that is not a
 * directory and is writable, or a place to create it.  Returns 0 or -errno with why set.
 */
static int writable(struct guard_set *g, const char *path, unsigned allow, bool hold, char *why,
		    size_t len)
{
	struct iowl_err gerr = { "" };
	struct stat st;
	int r = guard_set_check(g, path, allow, hold, &gerr);

	if (r == -ENOENT)
		return creatable(path, NULL, why, len);
	if (r) {
		snprintf(why, len, "%s", gerr.text);
		return r;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(why, len, "'%s' is a directory (name a file)", path);
		return -EISDIR;
	}
	if (access(path, W_OK)) {
		r = -errno;
		snprintf(why, len, "cannot write '%s': %s", path, strerror(-r));
	}
	return r;
}

/* The option that placed a target: filename= when the path is a name it gave, else directory=. */
static enum opt_id target_opt(const struct job *job, const char *path)
{
	for (unsigned i = 0; job->filenames && i < job->nfilenames; i++)
		if (!strcmp(job->filenames[i], path))
			return OPT_ID_filename;
	return job->o.directory ? OPT_ID_directory : OPT_ID_filename;
}

/* An existing target opened as the run will: readable, writable where written, direct IO. */
static int openable(const struct job *job, const struct target_file *f, const struct stat *st,
		    char *why, size_t len)
{
	bool writes = job_does_dir(job, 1) || job_does_dir(job, 2);
	bool grows = S_ISREG(st->st_mode) && f->start + f->size > (uint64_t)st->st_size;
	int fd, ro = 0, e;

	if (access(f->path, writes || grows ? R_OK | W_OK : R_OK)) {
		e = errno;
		snprintf(why, len, "cannot open '%s' for %s: %s", f->path,
			 writes || grows ? "writing" : "reading", strerror(e));
		return -e;
	}
	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
				   (job->o.direct && S_ISREG(st->st_mode) ? O_DIRECT : 0));
	if (fd < 0) {
		e = errno;
		if (e == EINVAL && job->o.direct)
			snprintf(why, len, "cannot open '%s' with O_DIRECT: the filesystem does not support direct IO (use direct=0)",
				 f->path);
		else
			snprintf(why, len, "cannot open '%s': %s", f->path, strerror(e));
		return -e;
	}
	if (S_ISBLK(st->st_mode) && writes && !ioctl(fd, BLKROGET, &ro) && ro) {
		close(fd);
		snprintf(why, len, "'%s' is a read-only device: a job that writes cannot open it (use a read job, or make it writable with blockdev --setrw)",
			 f->path);
		return -EROFS;
	}
	close(fd);
	return 0;
}

/*
 * True when laying out a short file takes space before the IO: it is written with data or
 * preallocated.  create_on_open lays out nothing, fill_device runs until the space is gone,
 * and fallocate=none or truncate only make the file as long as its region.
 */
static bool layout_takes_space(const struct job *job)
{
	if (job->o.create_on_open || job->o.fill_device)
		return false;
	return job_does_dir(job, 0) || job->o.overwrite ||
	       (job->o.fallocate != FALLOCATE_NONE && job->o.fallocate != FALLOCATE_TRUNCATE);
}

/* Remembers that the layout may write file f, which holds have bytes, up to its region's end. */
static int note_layout(struct preflight *pf, const struct job *job, const struct target_file *f,
		       uint64_t have, dev_t fsdev)
{
	struct preflight_layout *v;

	if (f->is_bdev || f->start + f->size <= have || !layout_takes_space(job))
		return 0;
	if (pf->nlayout == pf->cap) {
		unsigned cap = pf->cap ? 2 * pf->cap : 64;

		v = realloc(pf->layout, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		pf->layout = v;
		pf->cap = cap;
	}
	v = &pf->layout[pf->nlayout];
	v->path = strdup(f->path);
	if (!v->path)
		return -ENOMEM;
	v->job = job;
	v->seq = pf->nlayout;
	v->have = have;
	v->start = f->start;
	v->end = f->start + f->size;
	v->fsdev = fsdev;
	pf->nlayout++;
	return 0;
}

/*
 * zonemode=zbd: refused, with what the target is.  fio emulates zones on a device or file that
 * has none and drives a zoned one; iowl does neither, and says which case this is.
 */
static int refuse_zbd(const struct job *job, const struct target_file *f, struct iowl_err *err)
{
	char path[128], zoned[32] = "none";
	struct stat st;
	FILE *z;

	if (stat(f->path, &st) || !S_ISBLK(st.st_mode))
		return job_opt_err(job, OPT_ID_zonemode, err,
				   "zonemode=zbd needs a zoned block device: '%s' is not a block device (fio would emulate zones on it; iowl does not)",
				   f->path);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/zoned", major(st.st_rdev),
		 minor(st.st_rdev));
	z = fopen(path, "re");
	if (!z) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/zoned",
			 major(st.st_rdev), minor(st.st_rdev));
		z = fopen(path, "re");
	}
	if (z) {
		if (fscanf(z, "%31s", zoned) != 1)
			strcpy(zoned, "none");
		fclose(z);
	}
	if (!strcmp(zoned, "none"))
		return job_opt_err(job, OPT_ID_zonemode, err,
				   "zonemode=zbd needs a zoned block device: '%s' is not zoned (%s: none; fio would emulate zones on it, iowl does not)",
				   f->path, path);
	return job_opt_err(job, OPT_ID_zonemode, err,
			   "'%s' is a zoned block device (%s), but iowl does not drive zoned devices (write pointers, zone resets, open-zone limits): zonemode=zbd is refused",
			   f->path, zoned);
}

/* True when an earlier job's layout in this run creates path (allow_file_create=0 may use it). */
static bool laid_out_before(const struct preflight *pf, const char *path)
{
	for (unsigned i = 0; i < pf->nlayout; i++)
		if (!strcmp(pf->layout[i].path, path))
			return true;
	return false;
}

/* Every target file of the plan: openable, or creatable; the guard over written devices. */
static int check_targets(struct preflight *pf, const struct job *job,
			 const struct target_plan *plan, struct iowl_err *err)
{
	bool writes = job_does_dir(job, 1) || job_does_dir(job, 2);
	char why[WHY_LEN];
	struct stat st;
	dev_t fsdev = 0;
	int r;

	if (job->o.zonemode == ZONEMODE_ZBD && plan->nfiles)
		return refuse_zbd(job, &plan->files[0], err);
	if (!moves_data(job))
		return 0;
	for (unsigned i = 0; i < plan->nfiles; i++) {
		const struct target_file *f = &plan->files[i];
		bool missing = stat(f->path, &st) != 0;

		if (missing && errno != ENOENT) {
			r = -errno;
			snprintf(why, sizeof(why), "'%s': %s", f->path, strerror(-r));
		} else if (missing && !job->o.allow_file_create && !laid_out_before(pf, f->path)) {
			r = -ENOENT;
			snprintf(why, sizeof(why),
				 "'%s' does not exist, and allow_file_create=0 forbids creating it",
				 f->path);
		} else if (missing) {
			r = creatable(f->path, &fsdev, why, sizeof(why));
		} else {
			r = openable(job, f, &st, why, sizeof(why));
		}
		if (r) {
			job_opt_err(job, target_opt(job, f->path), err, "%s", why);
			return r;
		}
		if (note_layout(pf, job, f, missing ? 0 : (uint64_t)st.st_size,
				missing ? fsdev : st.st_dev))
			return err_nomem(err, "out of memory");
		if (f->is_bdev && writes) {
			struct iowl_err gerr = { "" };

			r = guard_set_check(pf->guard, f->path, job_allow(job), pf->hold, &gerr);
			if (r) {
				job_opt_err(job, OPT_ID_filename, err, "%s", gerr.text);
				return r;
			}
		}
	}
	return 0;
}

/* One file the job writes, named by option opt. */
static int check_written(struct preflight *pf, const struct job *job, enum opt_id opt,
			 const char *path, struct iowl_err *err)
{
	char why[WHY_LEN];
	int r = writable(pf->guard, path, job_allow(job), pf->hold, why, sizeof(why));

	if (r)
		job_opt_err(job, opt, err, "%s", why);
	return r;
}

/* write_iolog and the write_*_log files of thread number number. */
static int check_logs(struct preflight *pf, const struct job *job, unsigned number,
		      struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	const struct {
		enum opt_id opt;
		const char *name;
		enum fiolog_kind kind;
	} logs[] = {
		{ OPT_ID_write_bw_log, o->write_bw_log, FIOLOG_BW },
		{ OPT_ID_write_iops_log, o->write_iops_log, FIOLOG_IOPS },
		{ OPT_ID_write_lat_log, o->write_lat_log, FIOLOG_LAT },
		{ OPT_ID_write_lat_log, o->write_lat_log, FIOLOG_SLAT },
		{ OPT_ID_write_lat_log, o->write_lat_log, FIOLOG_CLAT },
		{ OPT_ID_write_hist_log, o->write_hist_log, FIOLOG_CLAT_HIST },
	};
	char path[PATH_MAX];
	int r = 0;

	if (o->write_iolog)
		r = check_written(pf, job, OPT_ID_write_iolog, o->write_iolog, err);
	if (!r && o->merge_blktrace_file && *o->merge_blktrace_file)
		r = check_written(pf, job, OPT_ID_merge_blktrace_file, o->merge_blktrace_file, err);
	for (unsigned i = 0; !r && i < sizeof(logs) / sizeof(logs[0]); i++) {
		if (!logs[i].name)
			continue;
		if (fiolog_name(path, sizeof(path), logs[i].name, o->name, logs[i].kind, number + 1,
				o->per_job_logs))
			return job_opt_err(job, logs[i].opt, err, "the log's name is longer than %d bytes",
					   PATH_MAX - 1);
		r = check_written(pf, job, logs[i].opt, path, err);
	}
	return r;
}

/* The CPUs this process may run on, as "0-3,8" (or "none"). */
static void cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n < len; c++) {
		int last = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		n += (size_t)snprintf(buf + n, len - n, last > c ? "%s%d-%d" : "%s%d", n ? "," : "", c,
				      last);
		c = last;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* What the job asks of the machine: the CPU of io_uring's submission thread exists for us. */
static int check_system(const struct job *job, struct iowl_err *err)
{
	int cpu = job->o.sqthread_poll_cpu;
	char cpus[128];
	cpu_set_t set;

	if (!job->o.sqthread_poll || !job_opt_is_set(job, OPT_ID_sqthread_poll_cpu) ||
	    sched_getaffinity(0, sizeof(set), &set))
		return 0;
	if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set))
		return 0;
	cpu_list(&set, cpus, sizeof(cpus));
	return job_opt_err(job, OPT_ID_sqthread_poll_cpu, err,
			   "CPU %d is not one this process may run on (it may use %s)", cpu, cpus);
}

static void human(uint64_t bytes, char *buf, size_t len);

/* Two clones at once on one region, one of them verifying it: the message, at the line to change. */
static int overlap_err(const struct preflight_region *a, const struct preflight_region *b,
		       uint64_t lo, uint64_t hi, struct iowl_err *err)
{
	const struct job *jb = b->job;
	char len[32], whoa[320];

	human(hi - lo, len, sizeof(len));
	if (a->job == jb)
		return job_opt_err(jb,
				   job_opt_is_set(jb, OPT_ID_offset_increment) ?
					   OPT_ID_offset_increment :
					   OPT_ID_numjobs,
				   err,
				   "clones %u and %u of job '%s' both write bytes %" PRIu64
				   " to %" PRIu64
				   " of '%s' (%s) with verify: each would report the other's blocks as corrupt (give each clone its own region: an offset_increment of at least the size, %" PRIu64
				   " bytes here)",
				   a->clone, b->clone, jb->o.name, lo, hi - 1, b->path, len,
				   b->end - b->start);
	snprintf(whoa, sizeof(whoa), "job '%s' (%s:%u)", a->job->o.name, a->job->file, a->job->line);
	return job_opt_err(b->verify ? jb : a->job, OPT_ID_verify, err,
			   "job '%s' and %s %s bytes %" PRIu64 " to %" PRIu64
			   " of '%s' (%s) at the same time, with verify: the verifying job would report the other's writes as corrupt (give them separate regions, or run them one after the other with stonewall)",
			   jb->o.name, whoa,
			   a->writes && b->writes ? "both write" : "write and verify", lo, hi - 1,
			   b->path, len);
}

/*
 * Records the regions clone writes or verifies, and refuses one that overlaps a region of a
 * clone of the same phase when one of the two writes it and the other verifies it.
 */
static int check_overlap(struct preflight *pf, const struct job *job, unsigned clone,
			 const struct target_plan *plan, struct iowl_err *err)
{
	struct preflight_region r = {
		.job = job, .clone = clone, .writes = job_does_dir(job, 1) || job_does_dir(job, 2),
		.verify = job->o.verify && moves_data(job),
	};

	if (!r.writes && !r.verify)
		return 0;
	pf->any_verify = pf->any_verify || r.verify;
	for (unsigned i = 0; i < plan->nfiles; i++) {
		const struct target_file *f = &plan->files[i];

		r.path = (char *)f->path;
		r.start = f->start;
		r.end = f->start + f->size;
		for (unsigned k = 0; pf->any_verify && k < pf->nregions; k++) {
			const struct preflight_region *o = &pf->regions[k];
			uint64_t lo = o->start > r.start ? o->start : r.start;
			uint64_t hi = o->end < r.end ? o->end : r.end;

			if (lo >= hi || o->job->phase != job->phase ||
			    !((o->verify && r.writes) || (r.verify && o->writes)) ||
			    strcmp(o->path, r.path))
				continue;
			return overlap_err(o, &r, lo, hi, err);
		}
		if (pf->nregions == pf->rcap) {
			unsigned cap = pf->rcap ? 2 * pf->rcap : 64;
			struct preflight_region *v = realloc(pf->regions, cap * sizeof(*v));

			if (!v)
				return err_nomem(err, "out of memory");
			pf->regions = v;
			pf->rcap = cap;
		}
		pf->regions[pf->nregions] = r;
		if (!(pf->regions[pf->nregions].path = strdup(f->path)))
			return err_nomem(err, "out of memory");
		pf->nregions++;
	}
	return 0;
}

void preflight_init(struct preflight *pf, struct guard_set *g, bool hold)
{
	memset(pf, 0, sizeof(*pf));
	pf->guard = g;
	pf->hold = hold;
}

void preflight_release(struct preflight *pf)
{
	for (unsigned i = 0; i < pf->nlayout; i++)
		free(pf->layout[i].path);
	free(pf->layout);
	for (unsigned i = 0; i < pf->nregions; i++)
		free(pf->regions[i].path);
	free(pf->regions);
	memset(pf, 0, sizeof(*pf));
}

int preflight_clone(struct preflight *pf, const struct job *job, unsigned clone, unsigned number,
		    const struct target_plan *plan, struct iowl_err *err)
{
	struct gen *gen = gen_new(job, clone, number, plan, err);
	int r;

	if (!gen)
		return -EINVAL;
	gen_free(gen);
	r = clone ? 0 : check_system(job, err);
	if (!r && !clone)
		r = verify_check_job(job, err);
	if (!r)
		r = verify_check_plan(job, plan, err);
	if (!r)
		r = check_targets(pf, job, plan, err);
	if (!r)
		r = check_logs(pf, job, number, err);
	if (!r)
		r = check_overlap(pf, job, clone, plan, err);
	return r;
}

/* --output: the guard (allowed what every job allows) and a writable place. */
static int check_output(struct preflight *pf, const char *path, const struct job *jobs,
			unsigned njobs, struct iowl_err *err)
{
	unsigned allow = GUARD_ALLOW_ALL;
	char why[WHY_LEN];
	int r;

	for (unsigned j = 0; j < njobs; j++)
		allow &= job_allow(&jobs[j]);
	r = writable(pf->guard, path, allow, pf->hold, why, sizeof(why));
	if (r)
		err_set(err, "--output '%s': %s", path, why);
	return r;
}

static int layout_order(const void *a, const void *b)
{
	const struct preflight_layout *x = a, *y = b;
	int c = x->fsdev < y->fsdev ? -1 : x->fsdev > y->fsdev;

	if (!c)
		c = strcmp(x->path, y->path);
	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* "1.5 GiB", "512.0 KiB" */
static void human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	unsigned u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

/* Whether need bytes fit the free space of the filesystem of path's directory; err when not. */
static bool space_short(const struct job *job, const char *path, uint64_t need,
			struct iowl_err *err)
{
	char *dir = dir_of(path), a[32], b[32];
	struct statvfs sv;
	uint64_t avail;
	bool short_ = false;

	if (dir && !statvfs(dir, &sv)) {	/* when it cannot tell, the layout will */
		avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		short_ = need > avail;
		if (short_) {
			human(need, a, sizeof(a));
			human(avail, b, sizeof(b));
			job_opt_err(job, OPT_ID_size, err,
				    "laying out the run's files needs %s on the filesystem of '%s', which has %s free (free some space, or give smaller sizes)",
				    a, dir, b);
		}
	}
	free(dir);
	return short_;
}

/*
 * The bytes the layout will write or preallocate, as target_layout() does it: a file shorter
 * than a region's end is filled from its end (or the region's start, whichever is further) to
 * the region's end, once, in the order the phases meet the regions.  They must fit each
 * filesystem's free space.
 */
static int check_space(struct preflight *pf, struct iowl_err *err)
{
	struct preflight_layout *v = pf->layout;
	uint64_t need = 0, size = 0;
	const struct job *first = NULL;

	if (!pf->nlayout)
		return 0;
	qsort(v, pf->nlayout, sizeof(*v), layout_order);
	for (unsigned i = 0; i < pf->nlayout; i++) {
		if (!i || strcmp(v[i].path, v[i - 1].path))
			size = v[i].have;
		if (v[i].end > size) {
			need += v[i].end - (size > v[i].start ? size : v[i].start);
			size = v[i].end;
		}
		if (!first || v[i].job->index < first->index)
			first = v[i].job;
		if (i + 1 < pf->nlayout && v[i + 1].fsdev == v[i].fsdev)
			continue;
		if (need && space_short(first, v[i].path, need, err))
			return -ENOSPC;
		need = 0;
		first = NULL;
	}
	return 0;
}

/* The AIO events of one phase's libaio clones, at most fs.aio-max-nr at once. */
static int check_aio(const struct job *jobs, unsigned njobs, struct iowl_err *err)
{
	unsigned long long max = 0, sum = 0;
	const struct job *last = NULL;
	FILE *f = fopen("/proc/sys/fs/aio-max-nr", "re");
	int ok = f && fscanf(f, "%llu", &max) == 1;

	if (f)
		fclose(f);
	if (!ok)
		return 0;
	for (unsigned j = 0; j < njobs; j++) {
		const struct job *job = &jobs[j];

		if (j && job->phase != jobs[j - 1].phase)
			sum = 0;
		if (strcmp(job->o.ioengine, "libaio"))
			continue;
		sum += (unsigned long long)job->o.iodepth * job->o.numjobs;
		last = job;
		if (sum > max)
			return job_opt_err(last, OPT_ID_iodepth, err,
					   "the libaio clones running with this job need %llu AIO events at once, more than fs.aio-max-nr=%llu allows (raise it with sysctl fs.aio-max-nr=%llu, or lower iodepth or numjobs)",
					   sum, max, sum);
	}
	return 0;
}

int preflight_finish(struct preflight *pf, const char *output, const struct job *jobs,
		     unsigned njobs, struct iowl_err *err)
{
	int r = check_space(pf, err);

	if (!r)
		r = check_aio(jobs, njobs, err);
	if (!r && output)
		r = check_output(pf, output, jobs, njobs, err);
	return r;
}
