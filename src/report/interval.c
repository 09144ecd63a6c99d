// SPDX-License-Identifier: MIT
/*
 * One interval's output (--status-interval, --iostat): what each unit did in that interval
 * alone, and sysstat's iostat -x view of the devices over the same interval.  As text, a short
 * block per interval; as JSON, one complete document per line (fio's status dumps are
 * cumulative and, concatenated, not valid JSON).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <jansson.h>

#include "fmt.h"
#include "iowl/clock.h"
#include "iowl/diskstats.h"
#include "iowl/interval.h"

#define JI(v) ((json_int_t)(v))

static double per_sec(uint64_t v, uint64_t ns)
{
	return ns ? (double)v * 1e9 / (double)ns : 0;
}

/* A latency in ns as "812ns", "81.2us", "1.25ms" or "2.50s": three significant figures. */
static void fmt_lat_short(char *buf, size_t len, double ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	unsigned u = 0;

	while (ns >= 1000 && u < 3) {
		ns /= 1000;
		u++;
	}
	if (!u || ns >= 100)
		snprintf(buf, len, "%.0f%s", ns, unit[u]);
	else
		snprintf(buf, len, "%.*f%s", ns >= 10 ? 1 : 2, ns, unit[u]);
}

static void text_row(FILE *f, const struct ivl_row *r)
{
	bool pow2 = fmt_kb_base(r->job->o.kb_base) == 1024;

	fprintf(f, "%s: (groupid=%u, jobs=%u):", r->job->o.name, r->group, r->nworkers);
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct ivl_dir *x = &r->pt->dir[d];
		char iops[FMT_NUM_LEN], bw[FMT_NUM_LEN], bw10[FMT_NUM_LEN];
		char mean[32], p50[32], p99[32];
		uint64_t bps = (uint64_t)per_sec(x->bytes, r->pt->ns);

		if (!job_does_dir(r->job, d))
			continue;
		fmt_num(iops, sizeof(iops), (uint64_t)(per_sec(x->ios, r->pt->ns) + 0.5),
			FMT_SIG_FIGS, false, FMT_UNIT_NONE);
		fmt_num(bw, sizeof(bw), bps, FMT_SIG_FIGS, pow2, FMT_UNIT_BYTE_SEC);
		fmt_num(bw10, sizeof(bw10), bps, FMT_SIG_FIGS, !pow2, FMT_UNIT_BYTE_SEC);
		fprintf(f, " %s: IOPS=%s, BW=%s (%s)", ddir_name(d), iops, bw, bw10);
		if (!x->ios) {
			fputc(';', f);
			continue;
		}
		fmt_lat_short(mean, sizeof(mean), x->clat_mean);
		fprintf(f, ", clat avg=%s", mean);
		if (x->clat_p99) {
			fmt_lat_short(p50, sizeof(p50), (double)x->clat_p50);
			fmt_lat_short(p99, sizeof(p99), (double)x->clat_p99);
			fprintf(f, " p50=%s p99=%s", p50, p99);
		}
		fputc(';', f);
	}
	fputc('\n', f);
}

/* Every device of the set, as iostat lists the devices it is given: targets and their members. */
static void text_iostat(FILE *f, const struct disk_set *s)
{
	bool header = false;

	for (unsigned i = 0; i < s->n; i++) {
		const struct disk_dev *d = &s->devs[i];
		struct disk_iostat x;

		if (!d->prev.nfields || !d->last.nfields)
			continue;
		disk_calc_iostat(&d->prev, &d->last, &x);
		if (!header)
			fprintf(f, "%-12s %10s %10s %11s %11s %8s %8s %8s %8s %7s %8s %8s %7s\n",
				"Device", "r/s", "w/s", "rkB/s", "wkB/s", "rrqm/s", "wrqm/s",
				"r_await", "w_await", "aqu-sz", "rareq-sz", "wareq-sz", "%util");
		header = true;
		fprintf(f, "%-12s %10.2f %10.2f %11.2f %11.2f %8.2f %8.2f %8.2f %8.2f %7.2f %8.2f %8.2f %7.2f\n",
			d->name, x.rd.ios_s, x.wr.ios_s, x.rd.kb_s, x.wr.kb_s, x.rd.rqm_s, x.wr.rqm_s,
			x.rd.await, x.wr.await, x.aqu_sz, x.rd.areq_sz, x.wr.areq_sz, x.util);
	}
}

static json_t *json_row(const struct ivl_row *r)
{
	json_t *o = json_pack("{s:s, s:I, s:I, s:I}", "jobname", r->job->o.name, "groupid",
			      JI(r->group), "clone", JI(r->clone), "workers", JI(r->nworkers));

	for (unsigned d = 0; o && d < DDIR_NR; d++) {
		const struct ivl_dir *x = &r->pt->dir[d];
		uint64_t bps = (uint64_t)per_sec(x->bytes, r->pt->ns);

		if (!job_does_dir(r->job, d))
			continue;
		json_object_set_new(o, ddir_name(d),
				    json_pack("{s:I, s:I, s:f, s:I, s:I, s:{s:f, s:I, s:I, s:I}}",
					      "io_bytes", JI(x->bytes), "total_ios", JI(x->ios),
					      "iops", per_sec(x->ios, r->pt->ns), "bw_bytes",
					      JI(bps), "bw", JI(bps / 1024), "clat_ns", "mean",
					      x->clat_mean, "p50", JI(x->clat_p50), "p99",
					      JI(x->clat_p99), "p99.9", JI(x->clat_p999)));
	}
	return o;
}

json_t *report_iostat_json(const struct disk_set *s)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < s->n; i++) {
		const struct disk_dev *d = &s->devs[i];
		struct disk_iostat x;

		if (!d->prev.nfields || !d->last.nfields)
			continue;
		disk_calc_iostat(&d->prev, &d->last, &x);
		json_array_append_new(a, json_pack("{s:s, s:b, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
						   "name", d->name, "target", d->is_target,
						   "r/s", x.rd.ios_s, "w/s", x.wr.ios_s,
						   "rkB/s", x.rd.kb_s, "wkB/s", x.wr.kb_s,
						   "rrqm/s", x.rd.rqm_s, "wrqm/s", x.wr.rqm_s,
						   "r_await", x.rd.await, "w_await", x.wr.await,
						   "aqu-sz", x.aqu_sz, "rareq-sz", x.rd.areq_sz,
						   "wareq-sz", x.wr.areq_sz, "%util", x.util,
						   "seconds", x.secs));
	}
	return a;
}

static int interval_json(FILE *f, const struct ivl_view *v)
{
	json_t *o = json_pack("{s:I, s:I, s:I}", "interval", JI(v->k), "t_ms",
			      JI(v->t_ns / 1000000), "ms", JI(v->ns / 1000000));
	json_t *jobs = json_array();
	int ret = 0;

	if (o && v->nranks) /* MPI: the rows are the sum of this many ranks' */
		json_object_set_new(o, "ranks", json_integer(JI(v->nranks)));

	if (!o || !jobs) {
		json_decref(o);
		json_decref(jobs);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < v->nrows; i++)
		json_array_append_new(jobs, json_row(&v->rows[i]));
	if (v->nrows)
		json_object_set_new(o, "jobs", jobs);
	else
		json_decref(jobs);
	if (v->disks)
		json_object_set_new(o, "iostat", report_iostat_json(v->disks));
	if (json_dumpf(o, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) ||
	    fputc('\n', f) == EOF)
		ret = -EIO;
	json_decref(o);
	return ret;
}

void report_iostat_record(void *ctx, const struct ivl_view *v, bool last)
{
	json_t **log = ctx;

	if (last || !v || !v->disks)
		return;
	if (!*log)
		*log = json_array();
	json_array_append_new(*log, json_pack("{s:I, s:I, s:o}", "t_ms", JI(v->t_ns / 1000000), "ms",
					      JI(v->ns / 1000000), "devices", report_iostat_json(v->disks)));
}

int report_interval(FILE *f, const struct ivl_view *v, bool json)
{
	if (json)
		return interval_json(f, v);
	fprintf(f, "-- interval %u: %.3f-%.3f s", v->k, (double)(v->t_ns - v->ns) / 1e9,
		(double)v->t_ns / 1e9);
	if (v->nranks)
		fprintf(f, " (%u rank%s)", v->nranks, v->nranks == 1 ? "" : "s");
	fputc('\n', f);
	for (unsigned i = 0; i < v->nrows; i++)
		if (v->rows[i].pt)
			text_row(f, &v->rows[i]);
	if (v->disks)
		text_iostat(f, v->disks);
	return ferror(f) ? -EIO : 0;
}
