// SPDX-License-Identifier: MIT
/*
 * End-of-run diagnostics: device splits, unreached queue depth, Little's law, page cache, zero
 * reads, a saturated generator.  Each is judged per reporting group (its phases' own device
 * window, not the whole run's) and per device, and names the jobs and the device.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "iowl/diagnose.h"
#include "iowl/engine.h"
#include "iowl/job.h"

static void add(struct diag_list *l, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct diag_list *l, const char *kind, const char *fmt, ...)
{
	va_list ap;

	if (l->n == DIAG_MAX)
		return;
	snprintf(l->d[l->n].kind, sizeof(l->d[l->n].kind), "%s", kind);
	va_start(ap, fmt);
	vsnprintf(l->d[l->n].text, sizeof(l->d[l->n].text), fmt, ap);
	va_end(ap);
	l->n++;
}

/*
 * The device a job's IO goes to: its first target's block device (a device node's own number,
 * a file's filesystem's, the directory's for generated names), found among the run's devices;
 * NULL when none is.
 */
static const struct disk_dev *job_device(const struct run_result *r, const struct job *job)
{
	const char *path;
	struct stat sb;
	unsigned maj, min;

	if (!job || !r->disks)
		return NULL;
	path = job->filenames && job->nfilenames ? job->filenames[0] :
	       job->o.directory && *job->o.directory ? job->o.directory : ".";
	if (stat(path, &sb))
		return NULL;
	maj = S_ISBLK(sb.st_mode) ? major(sb.st_rdev) : major(sb.st_dev);
	min = S_ISBLK(sb.st_mode) ? minor(sb.st_rdev) : minor(sb.st_dev);
	for (unsigned i = 0; i < r->disks->n; i++)
		if (r->disks->devs[i].is_target && r->disks->devs[i].major == maj &&
		    r->disks->devs[i].minor == min)
			return &r->disks->devs[i];
	return NULL;
}

static bool sync_engine(const struct job *job)
{
	const struct engine_ops *ops = job->engine;

	return ops && (ops->flags & ENGINE_F_SYNC);
}

void diag_unit_figures(const struct run_result *r, const struct job_result *u,
		       struct diag_figures *f)
{
	const struct job *job = u->job;
	const struct disk_sample *first, *last;
	double secs = (double)u->st.runtime_ns / 1e9;

	memset(f, 0, sizeof(*f));
	if (!job)
		return;
	f->dev = job_device(r, job);
	if (f->dev && result_group_disks(r, u->group, &first, &last)) {
		unsigned i = (unsigned)(f->dev - r->disks->devs);

		if (first[i].nfields && last[i].nfields)
			disk_calc_iostat(&first[i], &last[i], &f->x);
	}
	/* A synchronous engine has one IO in flight per clone, whatever iodepth says. */
	f->asked = (double)(sync_engine(job) ? 1 : job->o.iodepth) * (u->nworkers ? u->nworkers : 1);
	f->paced = job->o.thinktime || job->o.worker_ramp;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		double iops = secs > 0 ? (double)u->st.dir[d].ios / secs : 0;

		f->paced = f->paced || job->o.rate[d] || job->o.rate_iops[d];
		f->iops += iops;
		f->kept += iops * lat_mean(&u->st.dir[d].lat) / 1e9;	/* Little's law */
		f->ios[d] = u->st.dir[d].ios;
		f->bytes[d] = u->st.dir[d].bytes;
	}
}

/* One group's units on one device (dev NULL: those with no device found), added up. */
struct bucket {
	unsigned group;
	const struct disk_dev *dev;
	struct disk_iostat x;
	double asked, kept, iops;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR], buffered_reads;
	bool paced, direct_file;
	char jobs[160];		/* "job 'a'" or "jobs 'a', 'b'" */
	unsigned njobs;
};

static void bucket_add_job(struct bucket *b, const struct job *job)
{
	char name[96];
	size_t len = strlen(b->jobs);

	snprintf(name, sizeof(name), "'%s'", job->o.name);
	if (strstr(b->jobs, name))
		return;
	if (!b->njobs++)
		snprintf(b->jobs, sizeof(b->jobs), "job %s", name);
	else if (len + strlen(name) + 3 < sizeof(b->jobs)) {
		if (b->njobs == 2) {	/* "job 'a'" becomes "jobs 'a', 'b'" */
			memmove(b->jobs + 4, b->jobs + 3, len - 2);
			b->jobs[3] = 's';
		}
		strcat(b->jobs, ", ");
		strcat(b->jobs, name);
	}
}

static unsigned buckets(const struct run_result *r, unsigned g, struct bucket *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nunits; i++) {
		const struct job_result *u = &r->units[i];
		struct diag_figures f;
		struct bucket *b = NULL;

		if (u->group != g || !u->job || u->not_run)
			continue;
		diag_unit_figures(r, u, &f);
		for (unsigned k = 0; k < n && !b; k++)
			if (out[k].dev == f.dev)
				b = &out[k];
		if (!b) {
			if (n == max)
				continue;
			b = &out[n++];
			memset(b, 0, sizeof(*b));
			b->group = g;
			b->dev = f.dev;
			b->x = f.x;
		}
		bucket_add_job(b, u->job);
		b->asked += f.asked;
		b->kept += f.kept;
		b->iops += f.iops;
		b->paced = b->paced || f.paced;
		for (unsigned d = 0; d < DDIR_NR; d++) {
			b->ios[d] += f.ios[d];
			b->bytes[d] += f.bytes[d];
		}
		if (!u->job->o.direct)
			b->buffered_reads += f.ios[0];
		/* a target outside /dev is a file on a filesystem */
		b->direct_file = b->direct_file ||
				 (u->job->o.direct && (!u->job->filenames ||
						       strncmp(u->job->filenames[0], "/dev/", 5)));
	}
	return n;
}

static void size_text(char *buf, size_t len, double bytes)
{
	if (bytes >= 1048576 && fmod(bytes, 1048576) == 0)
		snprintf(buf, len, "%.0fm", bytes / 1048576);
	else if (bytes >= 1024)
		snprintf(buf, len, "%.0fk", bytes / 1024);
	else
		snprintf(buf, len, "%.0f", bytes);
}

/*
 * The device limit that explains requests of seen bytes: max_sectors_kb when they are that
 * size, else max_segments when they are that many pages (a buffer's 4 KiB pages are one
 * scatter-gather entry each, unless max_segment_size is smaller), else both figures.
 */
void diag_split_limit(char *buf, size_t len, const struct disk_limits *lim, double seen)
{
	double sectors = (double)lim->max_sectors_kb * 1024;
	double seg = lim->max_segment_size && lim->max_segment_size < 4096 ? lim->max_segment_size : 4096;
	double segs = (double)lim->max_segments * seg;

	if (lim->max_sectors_kb && seen > 0.75 * sectors && seen < 1.05 * sectors)
		snprintf(buf, len, "max_sectors_kb=%u", lim->max_sectors_kb);
	else if (lim->max_segments && seen > 0.75 * segs && seen < 1.05 * segs)
		snprintf(buf, len, "max_segments=%u: %u pages of %.0f bytes", lim->max_segments,
			 lim->max_segments, seg);
	else
		snprintf(buf, len, "max_sectors_kb=%u, max_segments=%u", lim->max_sectors_kb,
			 lim->max_segments);
}

/* "Why does my SSD not issue 1MB IO's?": the device saw smaller requests than iowl issued. */
static void device_split(const char *where, const struct bucket *b, struct diag_list *l)
{
	static const char *const names[2] = { "reads", "writes" };

	for (unsigned d = 0; d < 2; d++) {
		double issued = b->ios[d] ? (double)b->bytes[d] / (double)b->ios[d] : 0;
		double seen = (d ? b->x.wr.areq_sz : b->x.rd.areq_sz) * 1024;
		char a[32], s[32], lim[96];

		if (b->ios[d] < 100 || seen <= 0 || seen > 0.75 * issued)
			continue;
		size_text(a, sizeof(a), issued);
		size_text(s, sizeof(s), seen);
		diag_split_limit(lim, sizeof(lim), &b->dev->lim, seen);
		add(l, "device_split",
		    "%s: %s: bs=%s but the device %s received %s requests (%s): it splits each IO, so it never sees the size asked for",
		    where, names[d], a, b->dev->name, s, lim);
	}
}

/* The vdbench-on-ext4 notes: the outstanding IOs asked for never reached the device. */
static void queue_depth(const char *where, const struct bucket *b, struct diag_list *l)
{
	/* Ramps, think time and rates keep fewer in flight by design: nothing to judge. */
	if (b->paced || b->asked < 2 || b->iops <= 0 || b->x.aqu_sz >= 0.5 * b->asked)
		return;
	add(l, "queue_depth",
	    "%s: asked for %.0f IOs in flight, iowl kept %.1f in flight and the device %s saw %.2f (aqu-sz)%s%s",
	    where, b->asked, b->kept, b->dev->name, b->x.aqu_sz,
	    b->dev->lim.nr_requests && b->dev->lim.nr_requests < b->asked ?
		    "; the device queue holds fewer requests (queue/nr_requests)" : "",
	    b->direct_file ? "; a filesystem may serialise direct IO to one file" : "");
}

/* "Here be Zeroes": reads of regions never written come back as zeros without touching the media. */
static void zero_reads(const struct run_result *r, struct diag_list *l)
{
	for (unsigned i = 0; i < r->nunits; i++) {
		const struct job_result *u = &r->units[i];
		const struct disk_dev *dev = job_device(r, u->job);
		double share = stats_zero_share(&u->st.dir[0]);

		if (u->job && u->st.dir[0].zero_checked >= 100 && share > 0.1)
			add(l, "zero_reads",
			    "job '%s'%s%s: %.1f %% of the reads returned all zeros: unwritten or thin-provisioned regions are served without touching the media, so they measure metadata, not the storage (prefill the target with a write pass first)",
			    u->job->o.name, dev ? " on " : "", dev ? dev->name : "", 100.0 * share);
	}
}

/* iodepth above 1 with a synchronous engine does nothing: said once per job. */
static void sync_depth(const struct job *jobs, unsigned njobs, struct diag_list *l)
{
	for (unsigned j = 0; j < njobs; j++)
		if (jobs[j].o.iodepth > 1 && sync_engine(&jobs[j]))
			add(l, "sync_iodepth",
			    "job '%s': iodepth=%u has no effect with the synchronous ioengine %s: it keeps one IO in flight per clone (use libaio or io_uring, or more numjobs)",
			    jobs[j].o.name, jobs[j].o.iodepth, jobs[j].o.ioengine);
}

#define MAX_BUCKETS 16

void diagnose(const struct run_result *r, const struct job *jobs, unsigned njobs,
	      struct diag_list *l)
{
	memset(l, 0, sizeof(*l));
	for (unsigned g = 0; g < r->ngroups; g++) {
		struct bucket b[MAX_BUCKETS];
		unsigned n = buckets(r, g, b, MAX_BUCKETS);

		for (unsigned k = 0; k < n; k++) {
			char where[200];

			if (r->ngroups > 1)
				snprintf(where, sizeof(where), "group %u, %s%s%s", g, b[k].jobs,
					 b[k].dev ? " on " : "", b[k].dev ? b[k].dev->name : "");
			else
				snprintf(where, sizeof(where), "%s%s%s", b[k].jobs,
					 b[k].dev ? " on " : "", b[k].dev ? b[k].dev->name : "");
			if (b[k].iops > 0)
				add(l, "concurrency",
				    "%s: achieved concurrency (Little's law: %.0f IOPS x mean latency) = %.2f IOs in flight",
				    where, b[k].iops, b[k].kept);
			if (!b[k].dev || !b[k].x.nfields)
				continue;
			device_split(where, &b[k], l);
			queue_depth(where, &b[k], l);
			if (b[k].buffered_reads >= 1000 && b[k].x.secs > 0 &&
			    b[k].x.rd.ios_s * b[k].x.secs < 0.5 * (double)b[k].buffered_reads)
				add(l, "page_cache",
				    "%s: %.0f %% of the reads never reached the device %s: the page cache served them (set direct=1 to measure the device)",
				    where,
				    100.0 * (1.0 - b[k].x.rd.ios_s * b[k].x.secs / (double)b[k].buffered_reads),
				    b[k].dev->name);
		}
	}
	sync_depth(jobs, njobs, l);
	zero_reads(r, l);
	for (unsigned i = 0; i < r->nunits; i++) {
		const struct job_result *u = &r->units[i];
		const struct disk_dev *dev = job_device(r, u->job);
		double busy = u->st.runtime_ns ? (double)u->st.usr_ns / (double)u->st.runtime_ns /
							 (u->nworkers ? u->nworkers : 1) :
						 0;

		if (busy > 0.8 && u->job)
			add(l, "saturated",
			    "job '%s'%s%s: its workers spent %.0f %% of their time in iowl itself: the result may measure iowl, not the storage",
			    u->job->o.name, dev ? " on " : "", dev ? dev->name : "", 100 * busy);
	}
}
