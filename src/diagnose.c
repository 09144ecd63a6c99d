// SPDX-License-Identifier: MIT
/* End-of-run diagnostics: device splits, unreached queue depth, Little's law, page cache, a saturated generator. */
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

/* What iowl did over the whole run: IOs and bytes per direction, IOPS, concurrency. */
struct totals {
	uint64_t ios[3], bytes[3];
	double iops, inflight;
};

static void totals(const struct run_result *r, struct totals *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < r->nunits; i++) {
		const struct worker_stats *st = &r->units[i].st;
		double secs = (double)st->runtime_ns / 1e9;

		for (unsigned d = 0; d < 3; d++) {
			double iops = secs > 0 ? (double)st->dir[d].ios / secs : 0;

			t->ios[d] += st->dir[d].ios;
			t->bytes[d] += st->dir[d].bytes;
			t->iops += iops;
			t->inflight += iops * lat_mean(&st->dir[d].lat) / 1e9;	/* Little's law */
		}
	}
}

static const struct disk_dev *first_device(const struct run_result *r)
{
	for (unsigned i = 0; r->disks && i < r->disks->n; i++)
		if (r->disks->devs[i].is_target && r->disks->devs[i].last.nfields)
			return &r->disks->devs[i];
	return NULL;
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

/* "Why does my SSD not issue 1MB IO's?": the device saw smaller requests than iowl issued. */
static void device_split(const struct totals *t, const struct disk_dev *dev,
			 const struct disk_iostat *x, struct diag_list *l)
{
	static const char *const names[2] = { "reads", "writes" };

	for (unsigned d = 0; d < 2; d++) {
		double issued = t->ios[d] ? (double)t->bytes[d] / (double)t->ios[d] : 0;
		double seen = (d ? x->wr.areq_sz : x->rd.areq_sz) * 1024;
		char a[32], b[32];

		if (t->ios[d] < 100 || seen <= 0 || seen > 0.75 * issued)
			continue;
		size_text(a, sizeof(a), issued);
		size_text(b, sizeof(b), seen);
		add(l, "device_split",
		    "%s: bs=%s but the device %s received %s requests (max_sectors_kb=%u): it splits each IO, so it never sees the size asked for",
		    names[d], a, dev->name, b, dev->lim.max_sectors_kb);
	}
}

/* The vdbench-on-ext4 notes: the outstanding IOs asked for never reached the device. */
static void queue_depth(const struct totals *t, const struct job *jobs, unsigned njobs,
			const struct disk_dev *dev, const struct disk_iostat *x,
			struct diag_list *l)
{
	double asked = 0;
	bool sync = false, direct_file = false;

	for (unsigned j = 0; j < njobs; j++) {
		const struct engine_ops *ops = engine_find(jobs[j].o.ioengine);

		asked += (double)jobs[j].o.iodepth * jobs[j].o.numjobs;
		sync = sync || (ops && (ops->flags & ENGINE_F_SYNC) && jobs[j].o.iodepth > 1);
		/* a target outside /dev is a file on a filesystem */
		direct_file = direct_file || (jobs[j].o.direct && (!jobs[j].filenames ||
								   strncmp(jobs[j].filenames[0], "/dev/", 5)));
	}
	if (asked < 2 || !dev || x->aqu_sz >= 0.5 * asked || t->iops <= 0)
		return;
	add(l, "queue_depth",
	    "asked for %.0f IOs in flight, iowl kept %.1f in flight and the device %s saw %.2f (aqu-sz)%s%s%s",
	    asked, t->inflight, dev->name, x->aqu_sz,
	    sync ? "; a synchronous ioengine has one IO in flight per clone (use libaio or io_uring, or more numjobs)" : "",
	    dev->lim.nr_requests && dev->lim.nr_requests < asked ? "; the device queue holds fewer requests (queue/nr_requests)" : "",
	    !sync && direct_file ? "; a filesystem may serialise direct IO to one file" : "");
}

/*
 * The device a job's IO goes to: its first target's block device (a device node's own number,
 * a file's filesystem's), found among the run's devices; NULL when none is.
 */
static const struct disk_dev *job_device(const struct run_result *r, const struct job *job)
{
	struct stat sb;
	unsigned maj, min;

	if (!job || !r->disks || !job->filenames || !job->nfilenames ||
	    stat(job->filenames[0], &sb))
		return NULL;
	maj = S_ISBLK(sb.st_mode) ? major(sb.st_rdev) : major(sb.st_dev);
	min = S_ISBLK(sb.st_mode) ? minor(sb.st_rdev) : minor(sb.st_dev);
	for (unsigned i = 0; i < r->disks->n; i++)
		if (r->disks->devs[i].is_target && r->disks->devs[i].major == maj &&
		    r->disks->devs[i].minor == min)
			return &r->disks->devs[i];
	return NULL;
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

void diagnose(const struct run_result *r, const struct job *jobs, unsigned njobs,
	      struct diag_list *l)
{
	const struct disk_dev *dev = first_device(r);
	struct disk_iostat x;
	struct totals t;
	bool buffered = false;

	memset(l, 0, sizeof(*l));
	totals(r, &t);
	memset(&x, 0, sizeof(x));
	if (dev)
		disk_calc_iostat(&dev->first, &dev->last, &x);
	if (t.iops > 0)
		add(l, "concurrency",
		    "achieved concurrency (Little's law: %.0f IOPS x mean latency) = %.2f IOs in flight",
		    t.iops, t.inflight);
	if (dev) {
		device_split(&t, dev, &x, l);
		queue_depth(&t, jobs, njobs, dev, &x, l);
	}
	for (unsigned j = 0; j < njobs; j++)
		buffered = buffered || !jobs[j].o.direct;
	if (dev && buffered && t.ios[0] >= 1000 && x.secs > 0 &&
	    x.rd.ios_s * x.secs < 0.5 * (double)t.ios[0])
		add(l, "page_cache",
		    "%.0f %% of the reads never reached the device %s: the page cache served them (set direct=1 to measure the device)",
		    100.0 * (1.0 - x.rd.ios_s * x.secs / (double)t.ios[0]), dev->name);
	zero_reads(r, l);
	for (unsigned i = 0; i < r->nunits; i++) {
		const struct job_result *u = &r->units[i];
		double busy = u->st.runtime_ns ? (double)u->st.usr_ns / (double)u->st.runtime_ns /
							 (u->nworkers ? u->nworkers : 1) :
						 0;

		if (busy > 0.8 && u->job)
			add(l, "saturated",
			    "job '%s': its workers spent %.0f %% of their time in iowl itself: the result may measure iowl, not the storage",
			    u->job->o.name, 100 * busy);
	}
}
