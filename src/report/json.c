// SPDX-License-Identifier: MIT
/* The fio 3.33-compatible JSON and json+ report, built with jansson; iowl's extras under "iowl". */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <liburing.h>

#include "disk.h"
#include "iowl/idleprof.h"
#include "iowl/clock.h"
#include "iowl/diagnose.h"
#include "iowl/cachefill.h"
#include "iowl/report.h"
#include "iowl/verify.h"
#include "iowl/version.h"
#include "report/fmt.h"
#include "report/ranks.h"
#include "report/terse.h"

#define JI(x) ((json_int_t)(x))
#define DUMP_FLAGS	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))
#define DUMP_COMPACT	(JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

static const char *const bucket_keys[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

/* fio prints doubles with "%f": keep the same 6 decimals (and a short representation). */
static double r6(double x)
{
	if (!isfinite(x))
		return 0;	/* jansson refuses NaN and infinities */
	return fabs(x) < 1e9 ? nearbyint(x * 1e6) / 1e6 : x;
}

/* A JSON string of s; bytes that are not UTF-8 become '?' rather than failing the report. */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *copy;

	if (j || !s)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/* Options as the user wrote them, in order; bare keys (time_based) are left out, as fio does. */
static json_t *json_kv(const struct job_kv *kv, unsigned n)
{
	json_t *o = json_object();

	for (unsigned i = 0; o && i < n; i++) {
		if (!kv[i].value)
			continue;
		if (json_object_set_new(o, kv[i].key, jstr(kv[i].value))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* {"1.000000": ns, ...} over the job's sorted percentile list, fio's "%f" keys. */
static json_t *json_pcts(const struct job *job, const struct hist *h, const struct lat_stat *s)
{
	double pct[JOB_PCT_MAX];
	uint64_t v[JOB_PCT_MAX];
	unsigned n = fmt_pct_list(job, pct);
	json_t *o = json_object();
	char key[32];

	hist_percentiles(h, s->min, s->max, pct, n, v);
	for (unsigned i = 0; o && i < n; i++) {
		snprintf(key, sizeof(key), "%f", pct[i]);
		if (json_object_set_new(o, key, json_integer(JI(v[i])))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* json+: {"<bin midpoint ns>": count} for every non-empty bin. */
static json_t *json_bins(const struct hist *h)
{
	json_t *o = json_object();
	char key[32];

	for (unsigned i = 0; o && i < HIST_NR; i++) {
		if (!h->count[i])
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, hist_bin_mid(i));
		if (json_object_set_new(o, key, json_integer(JI(h->count[i])))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* slat_ns / clat_ns / lat_ns; "percentile" (and json+ "bins") when asked for and sampled. */
static json_t *json_lat(const struct job *job, const struct lat_stat *s, bool pcts,
			const struct hist *h, bool plus)
{
	json_t *o = json_pack("{s:I, s:I, s:f, s:f, s:I}", "min", JI(lat_min(s)), "max",
			      JI(s->max), "mean", r6(lat_mean(s)), "stddev", r6(lat_stddev(s)),
			      "N", JI(s->n));

	if (!o || !pcts || !h || !s->n)
		return o;
	if (json_object_set_new(o, "percentile", json_pcts(job, h, s)) ||
	    (plus && json_object_set_new(o, "bins", json_bins(h)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * fio 3.33's "prios": where a direction's IOs had two or more priorities (cmdprio), each one's
 * completion latency ("lat_ns", total latency, with lat_percentiles), in fio's order.
 */
static int json_prios(json_t *dir, const struct job *job, const struct prio_stats *p, bool plus)
{
	bool pcts = job && (job->o.clat_percentiles || job->o.lat_percentiles);
	const char *key = job && job->o.lat_percentiles ? "lat_ns" : "clat_ns";
	unsigned used = 0;
	json_t *a;

	for (unsigned i = 0; p && i < p->n; i++)
		used += p->lat[i].n != 0;
	if (used < 2)
		return 0;
	if (!(a = json_array()) || json_object_set_new(dir, "prios", a))
		return -ENOMEM;
	for (unsigned i = 0; i < p->n; i++) {
		if (!p->lat[i].n)
			continue;
		if (json_array_append_new(a, json_pack("{s:i, s:i, s:o}", "prioclass",
						       p->ioprio[i] >> 13, "prio", p->ioprio[i] & 7,
						       key,
						       json_lat(job, &p->lat[i], pcts, p->hist[i],
								plus))))
			return -ENOMEM;
	}
	return 0;
}

/* bw_* (KiB/s samples) and iops_* of one direction. */
static json_t *json_samples(const struct run_result *r, const struct job_result *u, unsigned d)
{
	const struct dir_stats *ds = &u->st.dir[d];
	const struct group_result *g = fmt_group(r, u->group);
	const struct lat_stat *bw = &ds->bw_samples, *io = &ds->iops_samples;

	return json_pack("{s:I, s:I, s:f, s:f, s:f, s:I, s:I, s:I, s:f, s:f, s:I}",
			 "bw_min", JI(lat_min(bw)), "bw_max", JI(bw->max),
			 "bw_agg", r6(fmt_bw_agg(bw, g ? g->agg_bw[d] : 0)),
			 "bw_mean", r6(lat_mean(bw)), "bw_dev", r6(lat_stddev(bw)),
			 "bw_samples", JI(bw->n), "iops_min", JI(lat_min(io)), "iops_max",
			 JI(io->max), "iops_mean", r6(lat_mean(io)), "iops_stddev",
			 r6(lat_stddev(io)), "iops_samples", JI(io->n));
}

/* "read" / "write" / "trim": zeroes for a direction with no IO, as fio. */
static json_t *json_dir(const struct run_result *r, const struct job_result *u, unsigned d,
			bool plus)
{
	const struct dir_stats *ds = &u->st.dir[d];
	const struct job *job = u->job;
	struct fmt_dir fd;
	json_t *o;

	fmt_dir_figures(u, d, &fd);
	o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
		      "io_bytes", JI(ds->bytes), "io_kbytes", JI(ds->bytes >> 10),
		      "bw_bytes", JI(fd.bw), "bw", JI(fd.bw / 1024), "iops", r6(fd.iops),
		      "runtime", JI(fd.runtime_ms), "total_ios", JI(ds->ios),
		      "short_ios", JI(ds->short_ios), "drop_ios", JI(0),
		      "slat_ns", json_lat(job, &ds->slat, job && job->o.slat_percentiles,
					  ds->slat_hist, plus),
		      "clat_ns", json_lat(job, &ds->clat, job && job->o.clat_percentiles,
					  ds->clat_hist, plus),
		      "lat_ns", json_lat(job, &ds->lat, job && job->o.lat_percentiles,
					 ds->lat_hist, plus));
	if (o && (json_prios(o, job, ds->prios, plus) ||
		  json_object_update_new(o, json_samples(r, u, d)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Percent per bucket under fio's labels. */
static json_t *json_pct_map(const double *v, unsigned n, const char *const *keys)
{
	json_t *o = json_object();

	for (unsigned i = 0; o && i < n; i++) {
		if (json_object_set_new(o, keys[i], json_real(r6(v[i])))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *json_dist(const uint64_t *map, const char *const *keys)
{
	double pct[STATS_BUCKETS];

	fmt_dist(map, pct);
	return json_pct_map(pct, STATS_BUCKETS, keys);
}

/* From "job_runtime" to "latency_window", for a job without latency_target. */
static json_t *json_job_tail_plain(const struct job_result *u)
{
	static const char *const depth[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	double ns[HIST_FIO_NS_NR], us[HIST_FIO_US_NR], ms[HIST_FIO_MS_NR];
	const struct worker_stats *st = &u->st;

	if (fmt_lat_buckets(st, ns, us, ms))
		return NULL;
	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:I, s:I, s:f, s:I}",
			 "job_runtime", JI(fmt_job_runtime_ms(u)),
			 "usr_cpu", r6(fmt_cpu_pct(st->usr_ns, u)),
			 "sys_cpu", r6(fmt_cpu_pct(st->sys_ns, u)),
			 "ctx", JI(st->ctx), "majf", JI(st->majf), "minf", JI(st->minf),
			 "iodepth_level", json_dist(st->depth, depth),
			 "iodepth_submit", json_dist(st->submit, batch),
			 "iodepth_complete", json_dist(st->complete, batch),
			 "latency_ns", json_pct_map(ns, HIST_FIO_NS_NR, bucket_keys),
			 "latency_us", json_pct_map(us, HIST_FIO_US_NR, bucket_keys),
			 "latency_ms", json_pct_map(ms, HIST_FIO_MS_NR, bucket_keys),
			 "latency_depth", JI(fmt_iodepth(u)), "latency_target", JI(0),
			 "latency_percentile", 100.0, "latency_window", JI(0));
}

/* From "job_runtime" to "latency_window": latency_target's figures in fio's units (ns, us). */
static json_t *json_job_tail(const struct job_result *u)
{
	json_t *o = json_job_tail_plain(u);
	const struct job_opts *jo = u->job ? &u->job->o : NULL;

	if (!o || !jo || !jo->latency_target)
		return o;
	if (json_object_set_new(o, "latency_depth", json_integer(u->st.latency_depth)) ||
	    json_object_set_new(o, "latency_target",
				json_integer((json_int_t)jo->latency_target)) ||
	    json_object_set_new(o, "latency_percentile", json_real(jo->latency_percentile)) ||
	    json_object_set_new(o, "latency_window",
				json_integer((json_int_t)(jo->latency_window / NSEC_PER_USEC)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *json_first_error(const struct io_error *e)
{
	return json_pack("{s:o, s:I, s:I, s:s, s:s, s:i}", "file", jstr(e->path), "offset",
			 JI(e->offset), "length", JI(e->len), "direction", ddir_name(e->op),
			 "error", strerror(e->err), "errno", e->err);
}

/* A verify header's fields; seq, seed, job and clone only when known (the seed as hex: it needs 64 bits). */
static json_t *json_verify_hdr(const struct verify_hdr *h, bool seq_known)
{
	char seed[24], sum[24];
	json_t *o;

	snprintf(sum, sizeof(sum), "0x%016" PRIx64, h->sum);
	o = json_pack("{s:I, s:s, s:I, s:I, s:s, s:I}", "magic", JI(h->magic), "type",
		      verify_type_name(h->type), "length", JI(h->len), "offset", JI(h->offset),
		      "checksum", sum, "header_crc", JI(h->hdr_crc));

	snprintf(seed, sizeof(seed), "0x%016" PRIx64, h->seed);
	if (o && seq_known &&
	    json_object_update_new(o, json_pack("{s:I, s:s, s:I, s:I}", "seq", JI(h->seq), "seed",
						seed, "job", JI(h->job), "clone", JI(h->clone)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *json_verify_failure(const struct verify_totals *t)
{
	const struct verify_failure *f = &t->first;
	char sum[24];

	snprintf(sum, sizeof(sum), "0x%016" PRIx64, f->sum_calc);
	return json_pack("{s:o, s:I, s:I, s:s, s:o, s:o, s:o, s:o, s:o, s:{s:I, s:s}}", "file",
			 jstr(t->path), "offset", JI(f->offset), "length", JI(f->len), "kind",
			 verify_kind_key(f->kind), "byte",
			 f->byte >= 0 ? json_integer(JI(f->byte)) : json_null(), "expected_byte",
			 f->byte >= 0 ? json_integer(f->byte_want) : json_null(), "found_byte",
			 f->byte >= 0 ? json_integer(f->byte_got) : json_null(), "expected",
			 json_verify_hdr(&f->want, f->seq_known), "found",
			 json_verify_hdr(&f->got, true), "computed", "header_crc",
			 JI(f->hdr_crc_calc), "checksum", sum);
}

/* Units checked and failed, by where the reads came from, and the first failure explained. */
static json_t *json_verify(const struct job_result *u, const struct verify_totals *t)
{
	const struct job_opts *o = &u->job->o;
	json_t *v = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I}",
			      "mode", verify_mode_name(t->mode ? t->mode : o->verify),
			      "interval", JI(t->mode ? t->interval : o->verify_interval),
			      "units", JI(t->units), "errors", JI(t->errors),
			      "read_units", JI(t->read_units), "backlog_units", JI(t->backlog_units),
			      "readback_units", JI(t->readback_units));

	if (v && t->has_failure && json_object_set_new(v, "first_failure", json_verify_failure(t))) {
		json_decref(v);
		return NULL;
	}
	return v;
}

/* The unit's verification figures, or NULL when it has none to show. */
static const struct verify_totals *unit_verify(const struct job_result *u)
{
	const struct verify_totals *t = &u->verify;

	return u->job && (u->job->o.verify || t->units || t->errors) ? t : NULL;
}

/* Per stream: name, configured share, and IOs and bytes per direction. */
static json_t *json_streams(const struct job_result *u)
{
	const struct job *job = u->job;
	json_t *a = json_array();
	double wsum = 0;

	for (unsigned i = 0; i < job->nstreams; i++)
		wsum += job->streams[i].weight;
	for (unsigned i = 0; a && i < u->st.nstreams; i++) {
		const struct stream_stats *s = &u->st.streams[i];
		double secs = (double)u->st.runtime_ns / 1e9;
		json_t *o = json_pack("{s:s, s:f}", "name", job->streams[i].name, "weight_pct",
				      wsum > 0 ? 100.0 * job->streams[i].weight / wsum : 0.0);

		for (unsigned d = 0; o && d < DDIR_NR; d++) {

			json_object_set_new(o, ddir_name(d),
					    json_pack("{s:I, s:I, s:f, s:f, s:o}", "ios",
						      JI(s->ios[d]), "bytes", JI(s->bytes[d]),
						      "iops",
						      secs > 0 ? (double)s->ios[d] / secs : 0.0,
						      "bw_bytes",
						      secs > 0 ? (double)s->bytes[d] / secs : 0.0,
						      "clat_ns",
						      json_lat(job, &s->clat[d],
							       s->clat_hist[d] != NULL,
							       s->clat_hist[d], false)));
		}
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The worker ramp as a series: one object per step. */
static json_t *json_steps(const struct job_result *u)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < u->st.nsteps; i++) {
		double iops, mbps, mean;
		uint64_t p99;

		report_step(&u->st.steps[i], &iops, &mbps, &mean, &p99);
		json_array_append_new(a, json_pack("{s:i, s:i, s:f, s:I, s:f, s:f, s:f, s:I}", "step",
						   (int)i + 1, "workers", (int)i + 1, "seconds",
						   (double)u->st.steps[i].ns / 1e9, "ios",
						   JI(u->st.steps[i].ios), "iops", iops,
						   "mb_s", mbps, "clat_mean_ns", mean, "clat_p99_ns",
						   JI(p99)));
	}
	return a;
}

/* Distinct blocks touched (fill.h) next to what uniform random IO would have touched. */
static json_t *json_fill(const struct cfill_stats *f)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:b, s:f}", "block_size", JI(f->unit),
			 "blocks", JI(f->blocks), "ios", JI(f->ios), "distinct_blocks", JI(f->distinct),
			 "fraction", f->blocks ? r6((double)f->distinct / (double)f->blocks) : 0.0,
			 "passes", f->blocks ? r6((double)f->ios / (double)f->blocks) : 0.0,
			 "uniform_fraction", r6(cfill_expected(f->ios, f->blocks)),
			 "estimated", f->estimated, "error_pct", f->estimated ? CFILL_HLL_ERR_PCT : 0.0);
}

/* json+: an interval's kept histogram as "bins" does the run's ({"<bin midpoint ns>": count}). */
static json_t *json_ivl_bins(const struct ivl_hist *h)
{
	json_t *o = json_object();
	char key[32];

	for (uint32_t i = 0; o && i < h->n; i++) {
		snprintf(key, sizeof(key), "%" PRIu64, hist_bin_mid(h->b[i].bin));
		if (json_object_set_new(o, key, json_integer(JI(h->b[i].count)))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/*
 * The unit's interval series: what it did in each interval alone (they add up to the totals),
 * with the completion latency's mean, p50 and p99 of that interval, and with json+ its bins.
 */
static json_t *json_series(const struct run_result *r, const struct job_result *u, bool plus)
{
	const struct ivl_series *s = &u->series;
	json_t *pts = json_array();

	for (unsigned i = 0; pts && i < s->n; i++) {
		const struct ivl_point *p = &s->p[i];
		json_t *o = json_pack("{s:I, s:I}", "t_ms", JI(p->t_ns / 1000000), "ms",
				      JI(p->ns / 1000000));

		for (unsigned d = 0; o && d < DDIR_NR; d++) {
			const struct ivl_dir *x = &p->dir[d];
			double iops = p->ns ? (double)x->ios * 1e9 / (double)p->ns : 0;
			uint64_t bw = p->ns ? (uint64_t)((unsigned __int128)x->bytes *
							 NSEC_PER_SEC / p->ns) :
					      0;

			if (u->job && !job_does_dir(u->job, d))
				continue;
			json_object_set_new(o, ddir_name(d),
					    json_pack("{s:I, s:I, s:f, s:I, s:f, s:I, s:I, s:I}",
						      "total_ios", JI(x->ios), "io_bytes",
						      JI(x->bytes), "iops", r6(iops), "bw_bytes",
						      JI(bw), "clat_mean_ns", r6(x->clat_mean),
						      "clat_p50_ns", JI(x->clat_p50), "clat_p99_ns",
						      JI(x->clat_p99), "clat_p999_ns",
						      JI(x->clat_p999)));
			if (plus && s->h && x->ios)
				json_object_set_new(json_object_get(o, ddir_name(d)), "clat_bins",
						    json_ivl_bins(&s->h[(size_t)i * DDIR_NR + d]));
		}
		if (o && p->cache_hit >= 0 && r->disks && (unsigned)p->dev < r->disks->n)
			json_object_set_new(o, "page_cache", json_pack("{s:s, s:I, s:I, s:f}", "device",
					    r->disks->devs[p->dev].name, "device_read_bytes",
					    JI(p->dev_read_bytes), "read_bytes", JI(p->dir[0].bytes),
					    "hit_ratio", r6(p->cache_hit)));
		if (o && p->cfill.unit)
			json_object_set_new(o, "cache_fill", json_pack("{s:I, s:I, s:f}", "ios", JI(p->cfill.ios),
					    "distinct_blocks", JI(p->cfill.distinct), "uniform_fraction",
					    r6(cfill_expected(p->cfill.ios, p->cfill.blocks))));
		json_array_append_new(pts, o);
	}
	return json_pack("{s:I, s:o}", "interval_ms", JI(s->period_ns / 1000000), "points", pts);
}

/*
 * fio's "steadystate" object: the criterion, the window (duration in seconds), attained, the
 * criterion's value, deviation and slope, and the window's samples, oldest first, padded with
 * zeros to the window's length as fio prints them.
 */
static json_t *json_ss(const struct job_result *u)
{
	const struct steady *ss = &u->ss;
	char spec[STEADY_FMT_LEN], crit[STEADY_FMT_LEN];
	uint64_t *v = calloc(ss->n ? ss->n : 1, sizeof(*v));
	json_t *data, *o;

	if (!v)
		return NULL;
	steady_format(&ss->spec, spec, sizeof(spec));
	steady_format_criterion(ss, crit, sizeof(crit));
	data = json_pack("{s:I, s:I}", "bw_mean", JI(steady_mean_fio(ss, STEADY_BW)), "iops_mean",
			 JI(steady_mean_fio(ss, STEADY_IOPS)));
	if (data && ss->spec.metric == STEADY_LAT)
		json_object_set_new(data, "lat_mean", json_integer(JI(steady_mean_fio(ss, STEADY_LAT))));
	for (unsigned m = 0; data && m < STEADY_METRIC_NR; m++) {
		static const char *const keys[] = { "iops", "bw", "lat_ns" };
		json_t *a;

		if (m == STEADY_LAT && ss->spec.metric != STEADY_LAT)
			continue;
		memset(v, 0, ss->n * sizeof(*v));
		steady_samples(ss, (enum steady_metric)m, v);
		a = json_array();
		for (unsigned i = 0; a && i < ss->n; i++)
			json_array_append_new(a, json_integer(JI(v[i])));
		json_object_set_new(data, keys[m], a);
	}
	free(v);
	o = json_pack("{s:s, s:I, s:i, s:s, s:f, s:f, s:o}", "ss", spec, "duration",
		      JI(u->job->o.ss_dur / NSEC_PER_SEC), "attained", ss->attained ? 1 : 0,
		      "criterion", crit, "max_deviation", ss->spec.slope ? 0.0 : r6(ss->deviation),
		      "slope", ss->spec.slope ? r6(ss->slope) : 0.0, "data", data);
	return o;
}

/* iowl's own figures: the first error, and the histogram layout behind "bins". */
/* The figures the diagnostics judged this unit by: its device over its group's phases. */
static json_t *json_diag(const struct run_result *r, const struct job_result *u)
{
	struct diag_figures f;
	json_t *o;

	diag_unit_figures(r, u, &f);
	o = json_pack("{s:o, s:f, s:f, s:b}", "device", f.dev ? jstr(f.dev->name) : json_null(),
		      "asked_inflight", f.asked, "kept_inflight", f.kept, "paced", f.paced);
	if (o && f.dev && f.x.nfields)
		json_object_update_new(o, json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I}",
						    "device_reads", f.x.rd.ios_s * f.x.secs,
						    "device_writes", f.x.wr.ios_s * f.x.secs,
						    "device_rareq_kb", f.x.rd.areq_sz,
						    "device_wareq_kb", f.x.wr.areq_sz,
						    "device_aqu_sz", f.x.aqu_sz, "device_util", f.x.util,
						    "max_sectors_kb", JI(f.dev->lim.max_sectors_kb),
						    "max_segments", JI(f.dev->lim.max_segments),
						    "nr_requests", JI(f.dev->lim.nr_requests)));
	return o;
}

/* What io_uring set up: the ring's flags by name, and what was registered with the kernel. */
static json_t *json_uring(const struct engine_setup *su)
{
	static const struct {
		unsigned flag;
		const char *name;
	} names[] = {
		{ IORING_SETUP_IOPOLL, "IOPOLL" },
		{ IORING_SETUP_SQPOLL, "SQPOLL" },
		{ IORING_SETUP_SQ_AFF, "SQ_AFF" },
		{ IORING_SETUP_CLAMP, "CLAMP" },
		{ IORING_SETUP_SUBMIT_ALL, "SUBMIT_ALL" },
		{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
		{ IORING_SETUP_TASKRUN_FLAG, "TASKRUN_FLAG" },
		{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
		{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
	};
	json_t *a = json_array();

	for (unsigned i = 0; a && i < sizeof(names) / sizeof(names[0]); i++)
		if (su->uring_flags & names[i].flag)
			json_array_append_new(a, json_string(names[i].name));
	return json_pack("{s:I, s:o, s:b, s:b, s:b, s:s}", "setup_flags", JI(su->uring_flags),
			 "setup", a, "registered_ring_fd", su->uring_ring_fd, "fixedbufs",
			 su->uring_fixedbufs, "registerfiles", su->uring_files, "rw_opcodes",
			 su->uring_vectored ? "READV/WRITEV" : "READ/WRITE");
}

static json_t *json_iowl(const struct run_result *r, const struct job_result *u, bool plus)
{
	const struct io_error *e = &u->st.first_error;
	json_t *o = json_object();

	if (o && e->err && json_object_set_new(o, "first_error", json_first_error(e)))
		goto out_free;
	if (o && u->why &&
	    json_object_set_new(o, u->not_run ? "not_run" : "setup_error", jstr(u->why)))
		goto out_free;
	if (o && u->st.nsteps && json_object_set_new(o, "worker_ramp", json_steps(u)))
		goto out_free;
	if (o && u->series.n && json_object_set_new(o, "intervals", json_series(r, u, plus)))
		goto out_free;
	if (o && u->st.cfill.unit && json_object_set_new(o, "cache_fill", json_fill(&u->st.cfill)))
		goto out_free;
	if (o && u->has_ss &&
	    json_object_set_new(o, "steadystate",
				json_pack("{s:b, s:I, s:I, s:I, s:I}", "attained", u->ss.attained,
					  "attained_ms", JI(u->ss_attained_ns / 1000000),
					  "samples", JI(u->ss.added), "window", JI(u->ss.n),
					  "interval_ms", JI(u->job->o.ss_interval / 1000000))))
		goto out_free;
	for (unsigned d = 0; o && d < DDIR_NR; d++) {
		static const char *const keys[] = { "sched_lat_ns_read", "sched_lat_ns_write",
						    "sched_lat_ns_trim" };
		const struct dir_stats *ds = &u->st.dir[d];

		if (ds->sched.n && json_object_set_new(o, keys[d],
						       json_lat(u->job, &ds->sched, ds->sched_hist != NULL,
								ds->sched_hist, false)))
			goto out_free;
	}
	if (o && u->job && u->st.nstreams && u->job->nstreams == u->st.nstreams &&
	    json_object_set_new(o, "streams", json_streams(u)))
		goto out_free;
	if (o && unit_verify(u) && json_object_set_new(o, "verify", json_verify(u, unit_verify(u))))
		goto out_free;
	if (o && u->job && !u->not_run && json_object_set_new(o, "diagnose", json_diag(r, u)))
		goto out_free;
	if (o && u->job && u->job->o.thinktime &&
	    json_object_set_new(o, "thinktime",
				json_pack("{s:I, s:I, s:I}", "stalls", JI(u->st.think_stalls),
					  "stall_ns", JI(u->st.think_ns),
					  "spin_ns", JI(u->st.think_spin_ns))))
		goto out_free;
	if (o && u->st.setup.set && json_object_set_new(o, "io_uring", json_uring(&u->st.setup)))
		goto out_free;
	if (o && u->st.dir[0].zero_checked &&
	    json_object_set_new(o, "zero_reads",
				json_pack("{s:I, s:I, s:I, s:I, s:f}", "reads", JI(u->st.dir[0].zero_checked),
					  "candidates", JI(u->st.dir[0].zero_cand),
					  "scanned_weight", JI(u->st.dir[0].zero_scanned),
					  "zero_weight", JI(u->st.dir[0].zero_reads),
					  "share_pct", 100.0 * stats_zero_share(&u->st.dir[0]))))
		goto out_free;
	if (o && json_object_update_new(o, json_pack("{s:I, s:I, s:I, s:b, s:{s:i, s:i, s:i}}",
						     "clone", JI(u->clone),
						     "workers", JI(u->nworkers),
						     "errors", JI(u->st.errors),
						     "interrupted", r->interrupted,
						     "latency_histogram",
						     "sub_bits", (int)HIST_SUB_BITS,
						     "groups", (int)HIST_GROUPS,
						     "bins", (int)HIST_NR)))
		goto out_free;
	return o;
out_free:
	json_decref(o);
	return NULL;
}

/*
 * "read", "write", "trim" and "sync"; with unified_rw_reporting=mixed only "mixed" (the unit's
 * directions were summed into read's place), with both "mixed" after them, as fio.
 */
static int json_add_dirs(json_t *o, const struct run_result *r, const struct job_result *u,
			 bool plus)
{
	unsigned how = u->job ? u->job->o.unified_rw : UNIFIED_NONE;
	struct job_result m;
	int ret;

	if (how == UNIFIED_MIXED)
		return json_object_set_new(o, "mixed", json_dir(r, u, 0, plus));
	if (json_object_set_new(o, "read", json_dir(r, u, 0, plus)) ||
	    json_object_set_new(o, "write", json_dir(r, u, 1, plus)) ||
	    json_object_set_new(o, "trim", json_dir(r, u, 2, plus)) ||
	    json_object_set_new(o, "sync",
				json_pack("{s:I, s:o}", "total_ios", JI(u->st.sync_lat.n), "lat_ns",
					  json_lat(u->job, &u->st.sync_lat, false, NULL, false))))
		return -ENOMEM;
	if (how != UNIFIED_BOTH)
		return 0;
	m = *u;
	if (stats_mixed(&m.st, &u->st))
		return -ENOMEM;
	ret = json_object_set_new(o, "mixed", json_dir(r, &m, 0, plus));
	stats_release(&m.st);
	return ret;
}

static json_t *json_job(const struct run_result *r, const struct job_result *u, bool plus)
{
	const struct job *job = u->job;
	const char *desc = job ? job->o.description : NULL;
	json_t *o = json_pack("{s:o, s:I, s:I, s:I, s:I}", "jobname", jstr(job ? job->o.name : ""),
			      "groupid", JI(u->group), "error", JI(u->error), "eta", JI(0),
			      "elapsed", JI((u->elapsed_ns + NSEC_PER_SEC - 1) / NSEC_PER_SEC));

	if (!o)
		return NULL;
	if ((job && job->nkv &&
	     json_object_set_new(o, "job options", json_kv(job->kv, job->nkv))) ||
	    json_add_dirs(o, r, u, plus) || json_object_update_new(o, json_job_tail(u)) ||
	    (job && job->o.continue_on_error &&
	     json_object_update_new(o, json_pack("{s:I, s:I}", "total_err", JI(u->st.errors),
						 "first_error", JI(u->st.first_error.err)))) ||
	    (desc && *desc && json_object_set_new(o, "desc", jstr(desc))) ||
	    (u->has_ss && json_object_set_new(o, "steadystate", json_ss(u))) ||
	    json_object_set_new(o, "iowl", json_iowl(r, u, plus))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* iowl's run-level figures: the diagnostics, each a kind and a sentence, and its own IO. */
static int json_add_run_iowl(json_t *root, const struct run_result *r)
{
	json_t *a = json_array(), *own = json_array(), *groups = json_array();

	for (unsigned i = 0; a && r->diags && i < r->diags->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "kind", r->diags->d[i].kind,
						   "message", r->diags->d[i].text));
	for (unsigned i = 0; own && i < r->nown_io; i++)
		json_array_append_new(own, json_pack("{s:o, s:s, s:I, s:I}", "path",
						     jstr(r->own_io[i].path), "what",
						     "write guard: signature probe before the run",
						     "reads", JI(r->own_io[i].reads), "read_bytes",
						     JI(r->own_io[i].read_bytes)));
	struct report_host h;
	json_t *o;

	/* Each group's device figures over its own phases (fio's disk_util covers the whole run). */
	for (unsigned g = 0; groups && g < r->ngroups; g++) {
		json_t *du = report_disk_group_json(r, g);

		if (du)
			json_array_append_new(groups, json_pack("{s:I, s:o}", "groupid", JI(g),
								"disk_util", du));
	}
	report_host(&h);
	o = json_pack("{s:o, s:o, s:o, s:{s:s, s:s, s:s, s:I, s:s}}", "diagnostics", a, "own_io",
		      own, "groups", groups, "host", "hostname", h.hostname, "kernel", h.kernel,
		      "machine", h.machine, "cpus", JI(h.cpus), "clock",
		      iowl_clock.tsc ? "tsc" : "clock_gettime");
	if (o && r->command)
		json_object_set_new(o, "command", jstr(r->command));
	if (o && r->iostat_log)
		json_object_set(o, "iostat", r->iostat_log);
	if (o && r->nranks) { /* a run over MPI: iowl.ranks[] and iowl.cluster */
		json_t *c = report_ranks_json(r);

		json_object_set(o, "ranks", json_object_get(c, "ranks"));
		json_object_del(c, "ranks");
		json_object_set_new(o, "cluster", c);
	}
	return json_object_set_new(root, "iowl", o) ? -ENOMEM : 0;
}

/* Adds fio's "disk_util" array: one object per device behind the targets. */
static int json_add_disk_util(json_t *root, const struct run_result *r)
{
	if (r->no_disk_util)
		return 0;
	return json_object_set_new(root, "disk_util", report_disk_json(r->disks)) ? -ENOMEM : 0;
}

static int json_add_jobs(json_t *root, const struct run_result *r, bool plus)
{
	json_t *jobs = json_array();

	if (json_object_set_new(root, "jobs", jobs))
		return -ENOMEM;
	for (unsigned i = 0; i < r->nunits; i++)
		if (json_array_append_new(jobs, json_job(r, &r->units[i], plus)))
			return -ENOMEM;
	return 0;
}

static json_t *json_root(const struct run_result *r, bool plus)
{
	char date[64] = "";
	json_t *root;

	if (ctime_r(&r->start, date))
		date[strcspn(date, "\n")] = '\0';
	root = json_pack("{s:s, s:I, s:I, s:s}", "fio version", "iowl-" IOWL_VERSION,
			 "timestamp", JI(r->start), "timestamp_ms", JI(r->start_ms), "time", date);
	if (!root)
		return NULL;
	if ((r->nglobal_kv &&
	     json_object_set_new(root, "global options", json_kv(r->global_kv, r->nglobal_kv))) ||
	    json_add_jobs(root, r, plus) || json_add_disk_util(root, r) ||
	    (r->idle && json_object_set_new(root, "cpu_idleness", idleprof_json(r->idle))) ||
	    json_add_run_iowl(root, r)) {
		json_decref(root);
		return NULL;
	}
	return root;
}

json_t *report_json_tree(const struct run_result *r, bool plus)
{
	return json_root(r, plus);
}

/* json_dumpf() writes each token with its own fwrite(): thousands of jobs make millions. */
struct dump_buf {
	FILE *f;
	size_t len;
	char b[65536];
};

static int dump_flush(struct dump_buf *d)
{
	size_t n = d->len;

	d->len = 0;
	return n && fwrite(d->b, 1, n, d->f) != n ? -1 : 0;
}

static int dump_add(const char *s, size_t n, void *arg)
{
	struct dump_buf *d = arg;

	if (n > sizeof(d->b) - d->len && dump_flush(d))
		return -1;
	if (n > sizeof(d->b))
		return fwrite(s, 1, n, d->f) == n ? 0 : -1;
	memcpy(d->b + d->len, s, n);
	d->len += n;
	return 0;
}

int report_json(FILE *f, const struct run_result *r, bool plus)
{
	json_t *root = json_root(r, plus);
	struct dump_buf *d = malloc(sizeof(*d));
	int ret = 0;

	if (!root || !d) {
		json_decref(root);
		free(d);
		return -ENOMEM;
	}
	d->f = f;
	d->len = 0;
	/* Beside --status-interval's JSON lines, the final document is one line too. */
	if (json_dump_callback(root, dump_add, d, r->compact ? DUMP_COMPACT : DUMP_FLAGS) ||
	    dump_flush(d) || fputc('\n', f) == EOF)
		ret = -EIO;
	free(d);
	json_decref(root);
	return ret;
}
