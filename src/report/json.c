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

#include "disk.h"
#include "iowl/act.h"
#include "iowl/idleprof.h"
#include "iowl/clock.h"
#include "iowl/report.h"
#include "iowl/version.h"
#include "report/fmt.h"
#include "report/ranks.h"

#include "report/json_int.h"

#define DUMP_FLAGS	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))
#define DUMP_COMPACT	(JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

static const char *const bucket_keys[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

/* fio prints doubles with "%f": keep the same 6 decimals (and a short representation). */
double report_json_r6(double x)
{
	if (!isfinite(x))
		return 0;	/* jansson refuses NaN and infinities */
	return fabs(x) < 1e9 ? nearbyint(x * 1e6) / 1e6 : x;
}

/* A JSON string of s; bytes that are not UTF-8 become '?' rather than failing the report. */
json_t *report_json_str(const char *s)
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
		if (json_object_set_new(o, kv[i].key, report_json_str(kv[i].value))) {
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
json_t *report_json_lat(const struct job *job, const struct lat_stat *s, bool pcts,
			const struct hist *h, bool plus)
{
	json_t *o = json_pack("{s:I, s:I, s:f, s:f, s:I}", "min", JI(lat_min(s)), "max", JI(s->max),
			      "mean", report_json_r6(lat_mean(s)), "stddev",
			      report_json_r6(lat_stddev(s)), "N", JI(s->n));

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
						       report_json_lat(job, &p->lat[i], pcts,
								       p->hist[i], plus))))
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

	return json_pack("{s:I, s:I, s:f, s:f, s:f, s:I, s:I, s:I, s:f, s:f, s:I}", "bw_min",
			 JI(lat_min(bw)), "bw_max", JI(bw->max), "bw_agg",
			 report_json_r6(fmt_bw_agg(bw, g ? g->agg_bw[d] : 0)), "bw_mean",
			 report_json_r6(lat_mean(bw)), "bw_dev", report_json_r6(lat_stddev(bw)),
			 "bw_samples", JI(bw->n), "iops_min", JI(lat_min(io)), "iops_max",
			 JI(io->max), "iops_mean", report_json_r6(lat_mean(io)), "iops_stddev",
			 report_json_r6(lat_stddev(io)), "iops_samples", JI(io->n));
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
	o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:o, s:o, s:o}", "io_bytes",
		      JI(ds->bytes), "io_kbytes", JI(ds->bytes >> 10), "bw_bytes", JI(fd.bw), "bw",
		      JI(fd.bw / 1024), "iops", report_json_r6(fd.iops), "runtime",
		      JI(fd.runtime_ms), "total_ios", JI(ds->ios), "short_ios", JI(ds->short_ios),
		      "drop_ios", JI(0), "slat_ns",
		      report_json_lat(job, &ds->slat, job && job->o.slat_percentiles, ds->slat_hist,
				      plus),
		      "clat_ns",
		      report_json_lat(job, &ds->clat, job && job->o.clat_percentiles, ds->clat_hist,
				      plus),
		      "lat_ns",
		      report_json_lat(job, &ds->lat, job && job->o.lat_percentiles, ds->lat_hist,
				      plus));
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
		if (json_object_set_new(o, keys[i], json_real(report_json_r6(v[i])))) {
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
			 "job_runtime", JI(fmt_job_runtime_ms(u)), "usr_cpu",
			 report_json_r6(fmt_cpu_pct(st->usr_ns, u)), "sys_cpu",
			 report_json_r6(fmt_cpu_pct(st->sys_ns, u)), "ctx", JI(st->ctx), "majf",
			 JI(st->majf), "minf", JI(st->minf), "iodepth_level",
			 json_dist(st->depth, depth), "iodepth_submit",
			 json_dist(st->submit, batch), "iodepth_complete",
			 json_dist(st->complete, batch), "latency_ns",
			 json_pct_map(ns, HIST_FIO_NS_NR, bucket_keys), "latency_us",
			 json_pct_map(us, HIST_FIO_US_NR, bucket_keys), "latency_ms",
			 json_pct_map(ms, HIST_FIO_MS_NR, bucket_keys), "latency_depth",
			 JI(fmt_iodepth(u)), "latency_target", JI(0), "latency_percentile", 100.0,
			 "latency_window", JI(0));
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
					  report_json_lat(u->job, &u->st.sync_lat, false, NULL,
							  false))))
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
	json_t *o = json_pack("{s:o, s:I, s:I, s:I, s:I}", "jobname",
			      report_json_str(job ? job->o.name : ""), "groupid", JI(u->group),
			      "error", JI(u->error), "eta", JI(0), "elapsed",
			      JI((u->elapsed_ns + NSEC_PER_SEC - 1) / NSEC_PER_SEC));

	if (!o)
		return NULL;
	if ((job && job->nkv &&
	     json_object_set_new(o, "job options", json_kv(job->kv, job->nkv))) ||
	    json_add_dirs(o, r, u, plus) || json_object_update_new(o, json_job_tail(u)) ||
	    (job && job->o.continue_on_error &&
	     json_object_update_new(o, json_pack("{s:I, s:I}", "total_err", JI(u->st.errors),
						 "first_error", JI(u->st.first_error.err)))) ||
	    (desc && *desc && json_object_set_new(o, "desc", report_json_str(desc))) ||
	    (u->has_ss && json_object_set_new(o, "steadystate", report_json_ss(u))) ||
	    json_object_set_new(o, "iowl", report_json_iowl(r, u, plus))) {
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
						     report_json_str(r->own_io[i].path), "what",
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
		json_object_set_new(o, "command", report_json_str(r->command));
	if (o && r->iostat_log)
		json_object_set(o, "iostat", r->iostat_log);
	if (o && r->act) /* --profile=act's table and verdict */
		json_object_set_new(o, "act", act_json(r->act));
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
