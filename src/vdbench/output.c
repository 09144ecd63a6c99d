// SPDX-License-Identifier: MIT
/*
 * vdbench's own output beside iowl's: the interval lines of its summary (--vdbench-output) and the
 * columns of its flatfile as CSV (--output-format=vdbench-flat), one row per interval and one for
 * the average of each run, from iowl's interval series.  Warmup intervals are counted in the
 * numbering and left out of the lines and the average, as vdbench leaves them out of its avg.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "iowl/clock.h"
#include "iowl/job.h"
#include "iowl/lat.h"
#include "iowl/run.h"
#include "iowl/version.h"
#include "vdbench/vdbench_int.h"

/* What the intervals of one run add up to, reads [0] and writes [1]. */
struct acc {
	uint64_t ios[2], bytes[2];
	struct lat_stat lat[2];
	uint64_t max[2];
	uint64_t ns;
};

/* System CPU time from /proc/stat, in clock ticks. */
struct cpu {
	unsigned long long user, sys, wait, idle, total;
	bool ok;
};

struct vdb_out {
	struct vdb *v;
	struct iowl_run *run;
	bool lines, flat;
	FILE *flat_f;
	const struct vdb_step *step;
	struct acc acc;
	unsigned first_k, last_k;	/* measured intervals of the run */
	struct cpu cpu_prev, cpu_start;	/* the last sample; the start of the average */
	const struct vdb_phase *ph;
	char fortext[512], ratetext[64];
	double reqrate;
	bool header_done, flat_header;
};

static void cpu_read(struct cpu *c)
{
	const char *root = getenv("IOWL_SYSROOT");
	char path[4096];
	unsigned long long v[8] = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/stat", root ? root : "");
	c->ok = false;
	f = fopen(path, "r");
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) == 8) {
		c->user = v[0] + v[1];
		c->sys = v[2] + v[5] + v[6];
		c->idle = v[3];
		c->wait = v[4];
		c->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		c->ok = true;
	}
	fclose(f);
}

/* CPU use between two samples in percent: user+sys, sys, wait, idle. */
static void cpu_pct(const struct cpu *a, const struct cpu *b, double out[4])
{
	double t = a->ok && b->ok && b->total > a->total ? (double)(b->total - a->total) : 0;

	out[0] = t ? 100.0 * (double)(b->user - a->user + b->sys - a->sys) / t : 0;
	out[1] = t ? 100.0 * (double)(b->sys - a->sys) / t : 0;
	out[2] = t ? 100.0 * (double)(b->wait - a->wait) / t : 0;
	out[3] = t ? 100.0 * (double)(b->idle - a->idle) / t : 0;
}

struct vdb_out *vdb_out_new(struct vdb *v, struct iowl_run *run, bool lines, bool flat,
			    FILE *flat_f)
{
	struct vdb_out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->v = v;
	o->run = run;
	o->lines = lines;
	o->flat = flat;
	o->flat_f = flat_f;
	return o;
}

void vdb_out_step(struct vdb_out *o, const struct vdb_step *s)
{
	o->step = s;
	cpu_read(&o->cpu_prev);
}

void vdb_out_free(struct vdb_out *o)
{
	free(o);
}

/* The time of day ago_ns before now, as vdbench prints it: 14:36:52.054. */
static void tod(char *buf, size_t len, uint64_t ago_ns)
{
	struct timeval tv;
	struct tm tm;

	gettimeofday(&tv, NULL);
	tv.tv_usec -= (suseconds_t)(ago_ns % NSEC_PER_SEC / 1000);
	tv.tv_sec -= (time_t)(ago_ns / NSEC_PER_SEC);
	if (tv.tv_usec < 0) {
		tv.tv_usec += 1000000;
		tv.tv_sec--;
	}
	localtime_r(&tv.tv_sec, &tm);
	snprintf(buf, len, "%02d:%02d:%02d.%03ld", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (long)(tv.tv_usec / 1000));
}

/* The run's description: the phase's, with the point of a sweep or a curve from the --set list. */
static void describe(struct vdb_out *o, unsigned phase)
{
	const struct vdb_step *s = o->step;
	const struct run_opts *ro = &o->run->opts;
	size_t len = 0;

	o->ph = s && phase < s->nphases ? &s->phases[phase] : NULL;
	snprintf(o->fortext, sizeof(o->fortext), "%s", o->ph ? o->ph->fortext : "");
	snprintf(o->ratetext, sizeof(o->ratetext), "%s", o->ph ? o->ph->ratetext : "");
	o->reqrate = o->ph ? o->ph->reqrate : 0;
	len = strlen(o->fortext);
	for (unsigned i = 0; s && i < ro->nsets; i++) {
		const struct job_set *st = &ro->sets[i];

		for (unsigned k = 0; k < s->nsweeps; k++)
			if (!strcmp(st->key, s->sweeps[k].key) && len < sizeof(o->fortext) - 1)
				len += (size_t)snprintf(o->fortext + len, sizeof(o->fortext) - len,
							"%s%s=%s", len ? " " : "", s->sweep_var[k],
							st->value);
		if (s->ncurve && !strcmp(st->key, "rate_iops")) {
			double r = 0, w = 0;

			sscanf(st->value, "%lf,%lf", &r, &w);
			o->reqrate = r + w;
			snprintf(o->ratetext, sizeof(o->ratetext), "%.0f (curve)", r + w);
		}
	}
}

/* The run's start line and the column heads; the run started ago_ns before now. */
static void header(struct vdb_out *o, uint64_t ago_ns)
{
	FILE *f = stdout;
	char t[32], date[64];
	time_t now = time(NULL);
	struct tm tm;
	const struct vdb_rd *rd = o->ph ? o->ph->rd : NULL;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%b %d, %Y", &tm);
	tod(t, sizeof(t), ago_ns);
	fprintf(f, "%s Starting RD=%s; I/O rate: %s; elapsed=%.0f", t, rd ? rd->name : "?",
		o->ratetext, rd ? rd->elapsed : 0);
	if (rd && rd->warmup)
		fprintf(f, " warmup=%.0f", rd->warmup);
	fprintf(f, "; For loops: %s\n\n", *o->fortext ? o->fortext : "None");
	fprintf(f, "%-13s interval        i/o   MB/sec   bytes   read     resp     read    write     resp     resp queue  cpu%%  cpu%%\n",
		date);
	fprintf(f, "%-13s               rate  1024**2     i/o    pct     time     resp     resp      max   stddev depth sys+u   sys\n",
		"");
	fflush(f);
}

/* The figures of a line or a flatfile row. */
struct fig {
	double rate, mbs, bpio, rdpct, resp, rresp, wresp, max, rmax, wmax, sd, rsd, wsd, qd;
	double cpu[4];
};

static void figures(const struct acc *a, const double cpu[4], struct fig *x)
{
	double secs = (double)a->ns / 1e9;
	uint64_t ios = a->ios[0] + a->ios[1], bytes = a->bytes[0] + a->bytes[1];
	struct lat_stat all;

	lat_init(&all);
	lat_merge(&all, &a->lat[0]);
	lat_merge(&all, &a->lat[1]);
	memset(x, 0, sizeof(*x));
	x->rate = secs > 0 ? (double)ios / secs : 0;
	x->mbs = secs > 0 ? (double)bytes / secs / (1024.0 * 1024) : 0;
	x->bpio = ios ? (double)bytes / (double)ios : 0;
	x->rdpct = ios ? 100.0 * (double)a->ios[0] / (double)ios : 0;
	x->resp = lat_mean(&all) / 1e6;
	x->rresp = lat_mean(&a->lat[0]) / 1e6;
	x->wresp = lat_mean(&a->lat[1]) / 1e6;
	x->rmax = (double)a->max[0] / 1e6;
	x->wmax = (double)a->max[1] / 1e6;
	x->max = fmax(x->rmax, x->wmax);
	x->sd = lat_stddev(&all) / 1e6;
	x->rsd = lat_stddev(&a->lat[0]) / 1e6;
	x->wsd = lat_stddev(&a->lat[1]) / 1e6;
	x->qd = x->rate * x->resp / 1000;	/* Little's law, as vdbench computes its depth */
	memcpy(x->cpu, cpu, sizeof(x->cpu));
}

static void line(const char *label, const struct fig *x)
{
	char t[32];

	tod(t, sizeof(t), 0);
	printf("%s %9s %10.2f %8.2f %7.0f %6.2f %8.3f %8.3f %8.3f %8.3f %8.3f %5.1f %5.1f %5.1f\n",
	       t, label, x->rate, x->mbs, x->bpio, x->rdpct, x->resp, x->rresp, x->wresp, x->max,
	       x->sd, x->qd, x->cpu[0], x->cpu[1]);
	fflush(stdout);
}

static void opt(FILE *f, double x, const char *fmt)
{
	if (x >= 0)
		fprintf(f, fmt, x);
	fputc(',', f);
}

static void flat_row(struct vdb_out *o, const char *label, const struct fig *x)
{
	FILE *f = o->flat_f;
	const struct vdb_phase *ph = o->ph;
	char run[640];

	if (!o->flat_header) {
		fputs("Run,Interval,reqrate,rate,MB/sec,bytes/io,read%,resp,read_resp,write_resp,resp_max,read_max,write_max,resp_std,read_std,write_std,xfersize,threads,rdpct,rhpct,whpct,seekpct,lunsize,version,compratio,dedupratio,queue_depth,cpu_used,cpu_user,cpu_kernel,cpu_wait,cpu_idle\n",
		      f);
		o->flat_header = true;
	}
	snprintf(run, sizeof(run), "%s%s%s", ph ? ph->rd->name : "?", *o->fortext ? " " : "",
		 o->fortext);
	fprintf(f, "%s,%s,%.2f,%.2f,%.2f,%.0f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,",
		run, label, o->reqrate, x->rate, x->mbs, x->bpio, x->rdpct, x->resp, x->rresp,
		x->wresp, x->max, x->rmax, x->wmax, x->sd, x->rsd, x->wsd);
	opt(f, ph ? ph->xfersize : -1, "%.0f");
	opt(f, ph && ph->threads ? (double)ph->threads : -1, "%.0f");
	opt(f, ph ? ph->rdpct : -1, "%.2f");
	opt(f, ph ? ph->rhpct : -1, "%.2f");
	opt(f, ph ? ph->whpct : -1, "%.2f");
	opt(f, ph ? ph->seekpct : -1, "%.2f");
	fprintf(f, "%.3f,iowl-%s,%.2f,1.00,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n",
		ph ? (double)ph->lunsize / (1024.0 * 1024 * 1024) : 0, IOWL_VERSION,
		ph ? ph->compratio : 1, x->qd, x->cpu[0], x->cpu[0] - x->cpu[1], x->cpu[1],
		x->cpu[2], x->cpu[3]);
	fflush(f);
}

/* Adds the rows' points of one interval into a. */
static void add_rows(struct acc *a, const struct ivl_view *view)
{
	for (unsigned r = 0; r < view->nrows; r++) {
		const struct ivl_point *p = view->rows[r].pt;

		if (!p)
			continue;
		for (unsigned d = 0; d < 2; d++) {
			a->ios[d] += p->dir[d].ios;
			a->bytes[d] += p->dir[d].bytes;
			lat_merge(&a->lat[d], &p->dir[d].clat);
			a->max[d] = p->dir[d].clat_max > a->max[d] ? p->dir[d].clat_max : a->max[d];
		}
	}
}

static void acc_init(struct acc *a)
{
	memset(a, 0, sizeof(*a));
	lat_init(&a->lat[0]);
	lat_init(&a->lat[1]);
}

/* The ramp (warmup) of the phase's jobs. */
static uint64_t ramp_of(const struct ivl_view *view)
{
	return view->nrows ? view->rows[0].job->o.ramp_time : 0;
}

/* The pause of the run before (the jobs' startdelay): no interval of this run. */
static uint64_t delay_of(const struct ivl_view *view)
{
	return view->nrows ? view->rows[0].job->o.startdelay.lo : 0;
}

static void finish(struct vdb_out *o, const struct ivl_view *view)
{
	struct fig x;
	struct cpu now;
	double cpu[4];
	char label[64];

	if (view && view->nrows) {
		add_rows(&o->acc, view);
		o->acc.ns += view->ns;
	}
	cpu_read(&now);
	o->cpu_prev = now;
	if (!o->first_k || !o->header_done)
		return;
	cpu_pct(&o->cpu_start, &now, cpu);
	figures(&o->acc, cpu, &x);
	snprintf(label, sizeof(label), "avg_%u-%u", o->first_k, o->last_k);
	if (o->lines) {
		line(label, &x);
		putchar('\n');
	}
	if (o->flat)
		flat_row(o, label, &x);
	o->header_done = false;
}

void vdb_out_watch(void *ctx, const struct ivl_view *view, bool last)
{
	struct vdb_out *o = ctx;
	uint64_t delay, skip;
	struct acc one;
	struct fig x;
	struct cpu now;
	double cpu[4];
	char label[32];
	unsigned k;

	if (last) {
		finish(o, view);
		return;
	}
	/* the pause before the run is not part of it: its intervals are neither shown nor numbered */
	delay = delay_of(view);
	skip = view->ns ? (delay + view->ns / 2) / view->ns : 0;
	if (view->t_ns <= delay + view->ns / 2)
		return;
	k = view->k - (unsigned)skip;
	if (k == 1) {
		describe(o, view->nrows ? view->rows[0].job->phase : 0);
		acc_init(&o->acc);
		o->first_k = o->last_k = 0;
		o->header_done = true;
		if (o->lines)
			header(o, view->ns);
	}
	cpu_read(&now);
	/* warmup intervals keep their numbers but are not measured */
	if (view->t_ns <= delay + ramp_of(view) + view->ns / 2) {
		o->cpu_prev = now;
		return;
	}
	/* A busy machine can end the run a little late: what comes after vdbench's last interval
	 * (elapsed / interval) counts in the average, without a line of its own. */
	if (o->ph && k > (unsigned)(o->ph->rd->elapsed / o->ph->rd->interval + 0.5) &&
	    o->first_k && !o->run->opts.status_interval) {
		add_rows(&o->acc, view);
		o->acc.ns += view->ns;
		return;
	}
	acc_init(&one);
	add_rows(&one, view);
	one.ns = view->ns;
	/* Without warmup= vdbench's average starts at the second interval. */
	if (!(!o->first_k && !ramp_of(view) && k == 1)) {
		if (!o->first_k) {
			o->first_k = k;
			o->cpu_start = o->cpu_prev;
		}
		o->last_k = k;
		add_rows(&o->acc, view);
		o->acc.ns += view->ns;
	}
	cpu_pct(&o->cpu_prev, &now, cpu);
	o->cpu_prev = now;
	figures(&one, cpu, &x);
	snprintf(label, sizeof(label), "%u", k);
	if (o->lines)
		line(label, &x);
	if (o->flat)
		flat_row(o, label, &x);
}
