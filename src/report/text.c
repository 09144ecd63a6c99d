// SPDX-License-Identifier: MIT
/* fio's normal output: a block per reported unit, then the run status line of each group. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "disk.h"
#include "iowl/idleprof.h"
#include "iowl/diagnose.h"
#include "iowl/report.h"
#include "iowl/verify.h"
#include "report/fmt.h"
#include "report/ranks.h"

#define PCT_LINE_WIDTH	73	/* fio fits a percentile line in 80 - 7 columns */
#define BUCKETS_PER_LINE 5

static const char *const bucket_labels[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

static const char *unit_name(const struct job_result *u)
{
	return u->job && u->job->o.name ? u->job->o.name : "";
}

static unsigned unit_kb_base(const struct job_result *u)
{
	return fmt_kb_base(u->job ? u->job->o.kb_base : 0);
}

static void text_header(FILE *f, const struct run_result *r, const struct job_result *u)
{
	const struct io_error *e = &u->st.first_error;
	const char *desc = u->job ? u->job->o.description : NULL;
	char date[64];

	if (!ctime_r(&r->start, date))
		strcpy(date, "\n");
	fprintf(f, "%s: (groupid=%u, jobs=%u): ", unit_name(u), u->group, u->nworkers ? u->nworkers : 1);
	if (u->not_run) {
		fprintf(f, "not run: %s\n", u->why);
		return;
	}
	fprintf(f, "err=%2d", u->error);
	if (u->error)
		fprintf(f, " (error=%s)", strerror(u->error));
	fprintf(f, ": pid=%d: %s", u->pid, date);
	if (e->err)
		fprintf(f, "iowl: io error on file %s: %s: %s offset=%" PRIu64 ", buflen=%u\n",
			e->path[0] ? e->path : "(unknown)", strerror(e->err), ddir_name(e->op),
			e->offset, e->len);
	if (desc && *desc)
		fprintf(f, "  Description  : [%s]\n", desc);
}

/* "  verify (crc32c): 1024 units checked, 0 failed", and the first failure. */
static void text_verify(FILE *f, const struct job_result *u)
{
	const struct verify_totals *t = &u->verify;
	const struct verify_failure *v = &t->first;

	if (!u->job || (!u->job->o.verify && !t->units && !t->errors))
		return;
	fprintf(f, "  verify (%s): %" PRIu64 " units checked, %" PRIu64 " failed\n",
		verify_mode_name(t->mode ? t->mode : u->job->o.verify), t->units, t->errors);
	if (!t->has_failure)
		return;
	fprintf(f, "  verify: first failure in %s at offset=%" PRIu64 ", length=%" PRIu32 ": %s",
		t->path, v->offset, v->len, verify_kind_name(v->kind));
	if (v->byte >= 0)
		fprintf(f, ", first differing byte at +%" PRId64 ": expected 0x%02x, found 0x%02x",
			v->byte, v->byte_want, v->byte_got);
	fputc('\n', f);
}

/*
 * A number in the unit base's form and in the other one: "11.1GiB/s" and "11.9GB/s", with
 * the job's significant_figures, and a bandwidth in bits for unit_base=1.
 */
static void num_pair_job(char (*out)[FMT_NUM_LEN], uint64_t v, bool i2p, enum fmt_unit unit,
			 const struct job *job)
{
	unsigned sig = job && job->o.sig_figs ? job->o.sig_figs : FMT_SIG_FIGS;

	if (unit == FMT_UNIT_BYTE_SEC && job && job->o.unit_base == 1) {
		unit = FMT_UNIT_BIT_SEC;
		v *= 8;
	}
	fmt_num(out[0], FMT_NUM_LEN, v, sig, i2p, unit);
	fmt_num(out[1], FMT_NUM_LEN, v, sig, !i2p, unit);
}

static void num_pair(char (*out)[FMT_NUM_LEN], uint64_t v, bool i2p, enum fmt_unit unit)
{
	num_pair_job(out, v, i2p, unit, NULL);
}

/* "  read: IOPS=2896k, BW=11.0GiB/s (11.9GB/s)(11.1GiB/1001msec)" ("mixed" for unified_rw_reporting) */
static void text_dir_line(FILE *f, const struct job_result *u, unsigned d, const struct fmt_dir *fd,
			  const char *name)
{
	bool i2p = unit_kb_base(u) == 1024;
	unsigned sig = u->job && u->job->o.sig_figs ? u->job->o.sig_figs : FMT_SIG_FIGS;
	char iops[FMT_NUM_LEN], bw[2][FMT_NUM_LEN], io[FMT_NUM_LEN];

	fmt_num(iops, sizeof(iops), (uint64_t)fd->iops, sig, false, FMT_UNIT_NONE);
	num_pair_job(bw, fd->bw, i2p, FMT_UNIT_BYTE_SEC, u->job);
	fmt_num(io, sizeof(io), u->st.dir[d].bytes, sig, i2p, FMT_UNIT_BYTE);
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n", name, iops, bw[0], bw[1], io,
		fd->runtime_ms);
}

/* "    clat (usec): min=30, max=694, avg=82.51, stdev=63.28" */
static void text_lat_line(FILE *f, const char *name, const struct lat_stat *s)
{
	char min[FMT_NUM_LEN], max[FMT_NUM_LEN];
	double mean = lat_mean(s), dev = lat_stddev(s);
	struct fmt_scale sc;

	if (!s->n)
		return;
	fmt_lat_scale(s->min, s->max, dev, &sc);
	fmt_num(min, sizeof(min), s->min / sc.div, FMT_LAT_DIGITS, false, FMT_UNIT_NONE);
	fmt_num(max, sizeof(max), s->max / sc.div, FMT_LAT_DIGITS, false, FMT_UNIT_NONE);
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, sc.unit, min,
		max, mean / (double)sc.div, dev / (double)sc.div);
}

/* The percentile block: a header, then "|  1.00th=[   16]," entries, as many as fit a line. */
static void text_pcts(FILE *f, const struct job *job, const char *name, const struct hist *h,
		      const struct lat_stat *s)
{
	double pct[JOB_PCT_MAX];
	uint64_t v[JOB_PCT_MAX], minv = UINT64_MAX, maxv = 0;
	unsigned n = fmt_pct_list(job, pct), prec = fmt_pct_precision(pct, n);
	unsigned width, per_line;
	struct fmt_scale sc;

	if (!h || !s->n)
		return;
	hist_percentiles(h, s->min, s->max, pct, n, v);
	for (unsigned i = 0; i < n; i++) {
		minv = v[i] < minv ? v[i] : minv;
		maxv = v[i] > maxv ? v[i] : maxv;
	}
	fmt_pct_scale(minv, maxv, &sc);
	width = fmt_digits(maxv / sc.div);
	width = width < 5 ? 5 : width;
	per_line = PCT_LINE_WIDTH / (prec + 10 + width);
	fprintf(f, "    %s percentiles (%s):\n     |", name, sc.unit);
	for (unsigned j = 0; j < n; j++) {
		bool last = j == n - 1;

		if (j && j % per_line == 0)
			fputs("     |", f);
		fprintf(f, " %*.*fth=[%*" PRIu64 "]%c", (int)prec + 3, (int)prec, pct[j],
			(int)width, fmt_ceil_scale(v[j], sc.steps), last ? '\n' : ',');
		if (!last && j % per_line == per_line - 1)
			fputc('\n', f);
	}
}

/* "   bw (  KiB/s): min=..., per=...%" from samples in KiB/s; MiB/s past kb_base^2. */
static void text_bw_line(FILE *f, const struct run_result *r, const struct job_result *u,
			 unsigned d)
{
	const struct lat_stat *s = &u->st.dir[d].bw_samples;
	const struct group_result *g = fmt_group(r, u->group);
	double kb = unit_kb_base(u), scale = 1.0, per;
	const char *label = kb == 1024 ? "KiB" : "kB";

	if (!s->n)
		return;
	per = fmt_bw_agg(s, g ? g->agg_bw[d] : 0);
	if (kb == 1000)
		scale = 1.024;	/* the samples are KiB/s: show kB/s */
	if (lat_mean(s) * scale > kb * kb) {
		scale /= kb;
		label = kb == 1024 ? "MiB" : "MB";
	}
	fprintf(f, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, "
		"avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n", label,
		(uint64_t)((double)lat_min(s) * scale), (uint64_t)((double)s->max * scale), per,
		lat_mean(s) * scale, lat_stddev(s) * scale, s->n);
}

static void text_iops_line(FILE *f, const struct lat_stat *s)
{
	if (!s->n)
		return;
	fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, "
		"stdev=%5.02f, samples=%" PRIu64 "\n", lat_min(s), s->max, lat_mean(s),
		lat_stddev(s), s->n);
}

static void text_dir(FILE *f, const struct run_result *r, const struct job_result *u, unsigned d,
		     const char *name)
{
	const struct dir_stats *ds = &u->st.dir[d];
	const struct job *job = u->job;
	struct fmt_dir fd;

	fmt_dir_figures(u, d, &fd);
	if (!fd.active)
		return;
	text_dir_line(f, u, d, &fd, name);
	text_lat_line(f, "slat", &ds->slat);
	text_lat_line(f, "clat", &ds->clat);
	text_lat_line(f, " lat", &ds->lat);
	/* rate-limited jobs: latency from each IO's intended start (coordinated omission) */
	text_lat_line(f, "sched lat", &ds->sched);
	if (job && job->o.slat_percentiles)
		text_pcts(f, job, "slat", ds->slat_hist, &ds->slat);
	if (job && job->o.clat_percentiles)
		text_pcts(f, job, "clat", ds->clat_hist, &ds->clat);
	if (job && job->o.lat_percentiles)
		text_pcts(f, job, "lat", ds->lat_hist, &ds->lat);
	if (job && ds->sched.n && ds->sched_hist)
		text_pcts(f, job, "sched lat", ds->sched_hist, &ds->sched);
	text_bw_line(f, r, u, d);
	text_iops_line(f, &ds->iops_samples);
}

/* One "lat (usec)   : 50=1.73%, 100=90.05%" line per five non-empty buckets. */
static void text_buckets(FILE *f, const char *unit, const double *v, unsigned n)
{
	unsigned on_line = 0;

	for (unsigned i = 0; i < n; i++) {
		if (v[i] <= 0)
			continue;
		if (on_line)
			fputs(", ", f);
		else
			fprintf(f, "  lat (%s)   : ", unit);
		fprintf(f, "%s=%3.2f%%", bucket_labels[i], v[i]);
		if (++on_line == BUCKETS_PER_LINE) {
			fputc('\n', f);
			on_line = 0;
		}
	}
	if (on_line)
		fputc('\n', f);
}

static int text_lat_buckets(FILE *f, const struct job_result *u)
{
	double ns[HIST_FIO_NS_NR], us[HIST_FIO_US_NR], ms[HIST_FIO_MS_NR];
	int ret = fmt_lat_buckets(&u->st, ns, us, ms);

	if (ret)
		return ret;
	text_buckets(f, "nsec", ns, HIST_FIO_NS_NR);
	text_buckets(f, "usec", us, HIST_FIO_US_NR);
	text_buckets(f, "msec", ms, HIST_FIO_MS_NR);
	return 0;
}

/* "  IO depths    : 1=100.0%, 2=0.0%, ..." and the submit / complete lines. */
static void text_dist(FILE *f, const char *prefix, const char *const *labels,
		      const uint64_t *map)
{
	double pct[STATS_BUCKETS];

	fmt_dist(map, pct);
	fputs(prefix, f);
	for (unsigned i = 0; i < STATS_BUCKETS; i++)
		fprintf(f, "%s%s=%3.1f%%", i ? ", " : "", labels[i], pct[i]);
	fputc('\n', f);
}

static void text_tail(FILE *f, const struct job_result *u)
{
	static const char *const depth[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const struct worker_stats *st = &u->st;

	if (st->sync_lat.n) {
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		text_lat_line(f, "sync", &st->sync_lat);
	}
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64
		", minf=%" PRIu64 "\n", fmt_cpu_pct(st->usr_ns, u), fmt_cpu_pct(st->sys_ns, u),
		st->ctx, st->majf, st->minf);
	text_dist(f, "  IO depths    : ", depth, st->depth);
	text_dist(f, "     submit    : ", batch, st->submit);
	text_dist(f, "     complete  : ", batch, st->complete);
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		" short=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 dropped=0,0,0,0\n", st->dir[0].ios,
		st->dir[1].ios, st->dir[2].ios, st->sync_lat.n, st->dir[0].short_ios,
		st->dir[1].short_ios, st->dir[2].short_ios);
	fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n",
		fmt_iodepth(u));
}

/* Per direction of a stream: IOPS, bandwidth, and its completion latency mean and p99. */
static void text_stream_dirs(FILE *f, const struct job_result *u, const struct stream_stats *s)
{
	double secs = (double)u->st.runtime_ns / 1e9, p99 = 99;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		uint64_t v = 0;

		if (!s->ios[d])
			continue;
		if (s->clat_hist[d])
			hist_percentiles(s->clat_hist[d], lat_min(&s->clat[d]), s->clat[d].max, &p99, 1,
					 &v);
		fprintf(f, "     %14s  %-5s IOPS=%.0f, BW=%.1fMiB/s, clat avg=%.2fus p99=%.2fus\n",
			"", ddir_name(d), secs > 0 ? (double)s->ios[d] / secs : 0,
			secs > 0 ? (double)s->bytes[d] / secs / 1048576 : 0,
			lat_mean(&s->clat[d]) / 1e3, (double)v / 1e3);
	}
}

/* One line per stream: its IOs and bytes per direction and its share against its weight. */
static void text_streams(FILE *f, const struct job_result *u)
{
	const struct worker_stats *st = &u->st;
	uint64_t total = 0;
	double wsum = 0;

	if (!st->nstreams || !u->job || u->job->nstreams != st->nstreams)
		return;
	for (unsigned i = 0; i < st->nstreams; i++) {
		total += st->streams[i].ios[0] + st->streams[i].ios[1] + st->streams[i].ios[2];
		wsum += u->job->streams[i].weight;
	}
	fputs("  streams      : ios=read/write/trim, MiB=read/write/trim, share of IOs (weight)\n", f);
	for (unsigned i = 0; i < st->nstreams; i++) {
		const struct stream_stats *s = &st->streams[i];
		uint64_t n = s->ios[0] + s->ios[1] + s->ios[2];

		fprintf(f, "     %-14s: ios=%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", MiB=%.1f/%.1f/%.1f, %.2f%% (%.2f%%)\n",
			u->job->streams[i].name, s->ios[0], s->ios[1], s->ios[2],
			s->bytes[0] / 1048576.0, s->bytes[1] / 1048576.0, s->bytes[2] / 1048576.0,
			total ? 100.0 * (double)n / (double)total : 0.0,
			wsum > 0 ? 100.0 * u->job->streams[i].weight / wsum : 0.0);
		text_stream_dirs(f, u, s);
	}
}

/* The figures of one worker-ramp step: IOPS, MB/s, mean and p99 completion latency (ns). */
void report_step(const struct step_stats *s, double *iops, double *mbps, double *mean_ns,
		 uint64_t *p99_ns)
{
	double secs = (double)s->ns / 1e9, p = 99;

	*iops = secs > 0 ? (double)s->ios / secs : 0;
	*mbps = secs > 0 ? (double)s->bytes / secs / 1e6 : 0;
	*mean_ns = lat_mean(&s->clat);
	*p99_ns = 0;
	if (s->clat_hist && s->clat.n)
		hist_percentiles(s->clat_hist, 0, UINT64_MAX, &p, 1, p99_ns);
}

/* The worker ramp as a time series: one line per step, the number of workers running in it. */
static void text_steps(FILE *f, const struct job_result *u)
{
	const struct worker_stats *st = &u->st;

	if (!st->nsteps)
		return;
	fputs("  worker ramp  : step, workers, seconds, IOPS, MB/s, mean and p99 clat (usec)\n", f);
	for (unsigned i = 0; i < st->nsteps; i++) {
		double iops, mbps, mean;
		uint64_t p99;

		report_step(&st->steps[i], &iops, &mbps, &mean, &p99);
		fprintf(f, "     %4u %4u %8.1f %12.0f %10.1f %10.2f %10.2f\n", i + 1, i + 1,
			(double)st->steps[i].ns / 1e9, iops, mbps, mean / 1e3, (double)p99 / 1e3);
	}
}

/* True when fio would print the unit: it did some IO, or (unlike fio) it failed. */
/*
 * fio's steady-state line (attained, the window's mean bandwidth and IOPS, the criterion's
 * value), then when it was attained, which fio does not say.
 */
static void text_ss(FILE *f, const struct job_result *u)
{
	const struct steady *ss = &u->ss;
	bool i2p = unit_kb_base(u) == 1024;
	char bw[2][FMT_NUM_LEN], iops[FMT_NUM_LEN], lat[64] = "";

	if (!u->has_ss)
		return;
	num_pair(bw, steady_mean_fio(ss, STEADY_BW), i2p, FMT_UNIT_BYTE_SEC);
	fmt_num(iops, sizeof(iops), steady_mean_fio(ss, STEADY_IOPS), FMT_SIG_FIGS, false,
		FMT_UNIT_NONE);
	if (ss->spec.metric == STEADY_LAT) {
		uint64_t ns = steady_mean_fio(ss, STEADY_LAT);
		struct fmt_scale sc;

		fmt_lat_scale(ns, ns, (double)ns, &sc);
		snprintf(lat, sizeof(lat), ", lat=%" PRIu64 "%s", ns / sc.div, sc.unit);
	}
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", bw[0], bw[1], iops, lat,
		steady_metric_name(ss->spec.metric), ss->spec.slope ? " slope" : " mean dev",
		ss->criterion, ss->spec.pct ? "%" : "");
	if (ss->attained)
		fprintf(f, "                 after %.2f s, over the last %u samples of %.3g s\n",
			(double)u->ss_attained_ns / 1e9, ss->n,
			(double)u->job->o.ss_interval / 1e9);
	else
		fprintf(f, "                 not within the run (%" PRIu64 " samples of %.3g s; the window is %u)\n",
			ss->added, (double)u->job->o.ss_interval / 1e9, ss->n);
}

/* unified_rw_reporting=mixed: the unit's directions were summed into dir[0] (stats_fold_mixed()). */
static bool unit_mixed(const struct job_result *u)
{
	return u->job && u->job->o.unified_rw == UNIFIED_MIXED;
}

/* unified_rw_reporting=both: after the directions, their sum as "mixed", as fio. */
static int text_mixed(FILE *f, const struct run_result *r, const struct job_result *u)
{
	struct job_result m;

	if (!u->job || u->job->o.unified_rw != UNIFIED_BOTH)
		return 0;
	m = *u;
	if (stats_mixed(&m.st, &u->st))
		return -ENOMEM;
	text_dir(f, r, &m, 0, "mixed");
	stats_release(&m.st);
	return 0;
}

static bool unit_did_io(const struct job_result *u)
{
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (u->st.dir[d].ios || u->st.dir[d].bytes)
			return true;
	return u->st.sync_lat.n;
}

static bool unit_shown(const struct job_result *u)
{
	return unit_did_io(u) || u->error || u->st.first_error.err || u->why;
}

static int text_unit(FILE *f, const struct run_result *r, const struct job_result *u)
{
	int ret;

	if (!unit_shown(u))
		return 0;
	text_header(f, r, u);
	if (u->not_run)
		return 0;
	if (u->why && !unit_did_io(u)) {
		fprintf(f, "  setup failed: %s\n", u->why);
		return 0;
	}
	text_verify(f, u);
	for (unsigned d = 0; d < DDIR_NR; d++)
		text_dir(f, r, u, d, unit_mixed(u) ? "mixed" : ddir_name(d));
	ret = text_mixed(f, r, u);
	if (!ret)
		ret = text_lat_buckets(f, u);
	if (ret)
		return ret;
	text_tail(f, u);
	text_ss(f, u);
	text_streams(f, u);
	text_steps(f, u);
	return 0;
}

/* "\nRun status group 0 (all jobs):\n   READ: bw=..., min-max (...), io=..., run=min-maxmsec" */
static void text_group(FILE *f, const struct group_result *g)
{
	static const char *const names[] = { "   READ", "  WRITE", "   TRIM", "  MIXED" };
	bool i2p = fmt_kb_base(g->kb_base) == 1024;
	char agg[2][FMT_NUM_LEN], min[2][FMT_NUM_LEN], max[2][FMT_NUM_LEN], io[2][FMT_NUM_LEN];
	const struct job *job = g->lead;
	unsigned mixed = job ? job->o.unified_rw : UNIFIED_NONE;

	fprintf(f, "\nRun status group %u (all jobs):\n", g->id);
	for (unsigned d = 0; d < 4; d++) {
		if (!fmt_runtime_ms(g->runtime_ns[d]) || (d == 3 && mixed != UNIFIED_BOTH))
			continue;
		num_pair_job(agg, g->agg_bw[d], i2p, FMT_UNIT_BYTE_SEC, job);
		num_pair_job(min, g->min_bw[d], i2p, FMT_UNIT_BYTE_SEC, job);
		num_pair_job(max, g->max_bw[d], i2p, FMT_UNIT_BYTE_SEC, job);
		num_pair_job(io, g->bytes[d], i2p, FMT_UNIT_BYTE, job);
		fprintf(f,
			"%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
			"msec\n",
			mixed == UNIFIED_MIXED ? names[3] : names[d], agg[0], agg[1], min[0],
			max[0], min[1], max[1], io[0], io[1], fmt_runtime_ms(g->min_runtime_ns[d]),
			fmt_runtime_ms(g->runtime_ns[d]));
	}
}

/* The reads the write guard made before the run: on the device, but in no job or disk figure. */
static void text_own_io(FILE *f, const struct run_result *r)
{
	char bytes[FMT_NUM_LEN];

	for (unsigned i = 0; i < r->nown_io; i++) {
		const struct own_io *o = &r->own_io[i];

		if (!i)
			fputs("\niowl's own IO (not in the job or disk figures):\n", f);
		fmt_num(bytes, sizeof(bytes), o->read_bytes, FMT_SIG_FIGS, true, FMT_UNIT_BYTE);
		fprintf(f, "  %s: reads=%" PRIu64 ", %s (write guard: signature probe before the run)\n",
			o->path, o->reads, bytes);
	}
}

int report_text(FILE *f, const struct run_result *r)
{
	int ret;

	/* As fio: every unit first, then every group's run status. */
	fputc('\n', f);
	for (unsigned i = 0; i < r->nunits; i++) {
		ret = text_unit(f, r, &r->units[i]);
		if (ret)
			return ret;
	}
	for (unsigned i = 0; i < r->ngroups; i++) {
		text_group(f, &r->groups[i]);
		/* fio's disk stats cover the whole run: with several groups, each one's too */
		if (r->ngroups > 1)
			report_disk_group_text(f, r, i);
	}
	report_ranks_text(f, r);
	report_disk_text(f, r->disks);
	idleprof_text(f, r->idle);
	text_own_io(f, r);
	for (unsigned i = 0; r->diags && i < r->diags->n; i++)
		fprintf(f, "%s  %s: %s\n", i ? "" : "\nDiagnostics:\n", r->diags->d[i].kind,
			r->diags->d[i].text);
	return ferror(f) ? -EIO : 0;
}
