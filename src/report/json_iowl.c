// SPDX-License-Identifier: MIT
/* The JSON report's per-job extras: fio's "steadystate" object and iowl's "iowl" object (errors, verification, streams, worker-ramp steps, cache fill, the interval series, diagnostics, the io_uring setup). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <liburing.h>

#include "iowl/clock.h"
#include "iowl/diagnose.h"
#include "iowl/cachefill.h"
#include "iowl/report.h"
#include "iowl/verify.h"
#include "report/fmt.h"

#include "report/json_int.h"

static json_t *json_first_error(const struct io_error *e)
{
	return json_pack("{s:o, s:I, s:I, s:s, s:s, s:i}", "file", report_json_str(e->path),
			 "offset", JI(e->offset), "length", JI(e->len), "direction",
			 ddir_name(e->op), "error", strerror(e->err), "errno", e->err);
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
			 report_json_str(t->path), "offset", JI(f->offset), "length", JI(f->len),
			 "kind", verify_kind_key(f->kind), "byte",
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
	json_t *v =
		json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I}", "mode",
			  verify_mode_name(t->mode ? t->mode : o->verify), "interval",
			  JI(t->mode ? t->interval : o->verify_interval), "units", JI(t->units),
			  "errors", JI(t->errors), "read_units", JI(t->read_units), "backlog_units",
			  JI(t->backlog_units), "readback_units", JI(t->readback_units));

	if (v && t->has_failure &&
	    json_object_set_new(v, "first_failure", json_verify_failure(t))) {
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
						      report_json_lat(job, &s->clat[d],
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
		json_array_append_new(a,
				      json_pack("{s:i, s:i, s:f, s:I, s:f, s:f, s:f, s:I}", "step",
						(int)i + 1, "workers", (int)i + 1, "seconds",
						(double)u->st.steps[i].ns / 1e9, "ios",
						JI(u->st.steps[i].ios), "iops", iops, "mb_s", mbps,
						"clat_mean_ns", mean, "clat_p99_ns", JI(p99)));
	}
	return a;
}

/* Distinct blocks touched (fill.h) next to what uniform random IO would have touched. */
static json_t *json_fill(const struct cfill_stats *f)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:b, s:f}", "block_size", JI(f->unit),
			 "blocks", JI(f->blocks), "ios", JI(f->ios), "distinct_blocks",
			 JI(f->distinct), "fraction",
			 f->blocks ? report_json_r6((double)f->distinct / (double)f->blocks) : 0.0,
			 "passes",
			 f->blocks ? report_json_r6((double)f->ios / (double)f->blocks) : 0.0,
			 "uniform_fraction", report_json_r6(cfill_expected(f->ios, f->blocks)),
			 "estimated", f->estimated, "error_pct",
			 f->estimated ? CFILL_HLL_ERR_PCT : 0.0);
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
						      JI(x->bytes), "iops", report_json_r6(iops),
						      "bw_bytes", JI(bw), "clat_mean_ns",
						      report_json_r6(x->clat_mean), "clat_p50_ns",
						      JI(x->clat_p50), "clat_p99_ns",
						      JI(x->clat_p99), "clat_p999_ns",
						      JI(x->clat_p999)));
			if (plus && s->h && x->ios)
				json_object_set_new(json_object_get(o, ddir_name(d)), "clat_bins",
						    json_ivl_bins(&s->h[(size_t)i * DDIR_NR + d]));
		}
		if (o && p->cache_hit >= 0 && r->disks && (unsigned)p->dev < r->disks->n)
			json_object_set_new(o, "page_cache",
					    json_pack("{s:s, s:I, s:I, s:f}", "device",
						      r->disks->devs[p->dev].name,
						      "device_read_bytes", JI(p->dev_read_bytes),
						      "read_bytes", JI(p->dir[0].bytes),
						      "hit_ratio", report_json_r6(p->cache_hit)));
		if (o && p->cfill.unit)
			json_object_set_new(o, "cache_fill",
					    json_pack("{s:I, s:I, s:f}", "ios", JI(p->cfill.ios),
						      "distinct_blocks", JI(p->cfill.distinct),
						      "uniform_fraction",
						      report_json_r6(
							      cfill_expected(p->cfill.ios,
									     p->cfill.blocks))));
		json_array_append_new(pts, o);
	}
	return json_pack("{s:I, s:o}", "interval_ms", JI(s->period_ns / 1000000), "points", pts);
}

/*
 * fio's "steadystate" object: the criterion, the window (duration in seconds), attained, the
 * criterion's value, deviation and slope, and the window's samples, oldest first, padded with
 * zeros to the window's length as fio prints them.
 */
json_t *report_json_ss(const struct job_result *u)
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
		json_object_set_new(data, "lat_mean",
				    json_integer(JI(steady_mean_fio(ss, STEADY_LAT))));
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
		      "criterion", crit, "max_deviation",
		      ss->spec.slope ? 0.0 : report_json_r6(ss->deviation), "slope",
		      ss->spec.slope ? report_json_r6(ss->slope) : 0.0, "data", data);
	return o;
}

/* iowl's own figures: the first error, and the histogram layout behind "bins". */
/* The figures the diagnostics judged this unit by: its device over its group's phases. */
static json_t *json_diag(const struct run_result *r, const struct job_result *u)
{
	struct diag_figures f;
	json_t *o;

	diag_unit_figures(r, u, &f);
	o = json_pack("{s:o, s:f, s:f, s:b}", "device",
		      f.dev ? report_json_str(f.dev->name) : json_null(), "asked_inflight", f.asked,
		      "kept_inflight", f.kept, "paced", f.paced);
	if (o && f.dev && f.x.nfields)
		json_object_update_new(o,
				       json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I}",
						 "device_reads", f.x.rd.ios_s * f.x.secs,
						 "device_writes", f.x.wr.ios_s * f.x.secs,
						 "device_rareq_kb", f.x.rd.areq_sz,
						 "device_wareq_kb", f.x.wr.areq_sz, "device_aqu_sz",
						 f.x.aqu_sz, "device_util", f.x.util,
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

json_t *report_json_iowl(const struct run_result *r, const struct job_result *u, bool plus)
{
	const struct io_error *e = &u->st.first_error;
	json_t *o = json_object();

	if (o && e->err && json_object_set_new(o, "first_error", json_first_error(e)))
		goto out_free;
	if (o && u->why &&
	    json_object_set_new(o, u->not_run ? "not_run" : "setup_error", report_json_str(u->why)))
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
					  "attained_ms", JI(u->ss_attained_ns / 1000000), "samples",
					  JI(u->ss.added), "window", JI(u->ss.n), "interval_ms",
					  JI(u->job->o.ss_interval / 1000000))))
		goto out_free;
	for (unsigned d = 0; o && d < DDIR_NR; d++) {
		static const char *const keys[] = { "sched_lat_ns_read", "sched_lat_ns_write",
						    "sched_lat_ns_trim" };
		const struct dir_stats *ds = &u->st.dir[d];

		if (ds->sched.n &&
		    json_object_set_new(o, keys[d],
					report_json_lat(u->job, &ds->sched, ds->sched_hist != NULL,
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
					  "stall_ns", JI(u->st.think_ns), "spin_ns",
					  JI(u->st.think_spin_ns))))
		goto out_free;
	if (o && u->st.setup.set && json_object_set_new(o, "io_uring", json_uring(&u->st.setup)))
		goto out_free;
	if (o && u->st.dir[0].zero_checked &&
	    json_object_set_new(o, "zero_reads",
				json_pack("{s:I, s:I, s:I, s:I, s:f}", "reads",
					  JI(u->st.dir[0].zero_checked), "candidates",
					  JI(u->st.dir[0].zero_cand), "scanned_weight",
					  JI(u->st.dir[0].zero_scanned), "zero_weight",
					  JI(u->st.dir[0].zero_reads), "share_pct",
					  100.0 * stats_zero_share(&u->st.dir[0]))))
		goto out_free;
	if (o &&
	    json_object_update_new(o, json_pack("{s:I, s:I, s:I, s:b, s:{s:i, s:i, s:i}}", "clone",
						JI(u->clone), "workers", JI(u->nworkers), "errors",
						JI(u->st.errors), "interrupted", r->interrupted,
						"latency_histogram", "sub_bits", (int)HIST_SUB_BITS,
						"groups", (int)HIST_GROUPS, "bins", (int)HIST_NR)))
		goto out_free;
	return o;
out_free:
	json_decref(o);
	return NULL;
}
