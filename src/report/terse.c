// SPDX-License-Identifier: MIT
/*
 * fio's terse output, versions 2 to 5 (fio's HOWTO, "Terse output"), from the JSON document: the
 * JSON holds every figure a terse line has, in the same units, so one writer serves iowl's runs
 * and fio's own JSON files, and a test can hold it to fio's terse line for the same document.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "iowl/ddir.h"
#include "iowl/report.h"
#include "report/terse.h"

#define TERSE_PCTS	20	/* fio writes this many percentile fields, padding with 0%=0 */

static const char *const depth_keys[] = { "1", "2", "4", "8", "16", "32", ">=64" };
static const char *const lat_us_keys[] = { "2", "4", "10", "20", "50", "100", "250", "500",
					   "750", "1000" };
static const char *const lat_ms_keys[] = { "2", "4", "10", "20", "50", "100", "250", "500",
					   "750", "1000", "2000", ">=2000" };

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* An unsigned count as fio keeps it (JSON reals, where a writer used them, are truncated). */
static unsigned long long cnt(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return json_integer_value(v) < 0 ? 0 : (unsigned long long)json_integer_value(v);
	return json_is_real(v) && json_real_value(v) > 0 ? (unsigned long long)json_real_value(v) : 0;
}

/* min;max;mean;stdev in microseconds of a latency object in nanoseconds, or zeros without samples. */
static void lat_fields(FILE *f, const json_t *lat)
{
	if (!lat || !cnt(lat, "N")) {
		fprintf(f, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0);
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f", cnt(lat, "min") / 1000, cnt(lat, "max") / 1000,
		num(lat, "mean") / 1000, num(lat, "stddev") / 1000);
}

static const json_t *dir_pcts(const json_t *dir)
{
	const json_t *p = json_object_get(json_object_get(dir, "clat_ns"), "percentile");

	return p ? p : json_object_get(json_object_get(dir, "lat_ns"), "percentile");
}

/*
 * The 20 percentile fields, "P%=usec", from clat's list (or lat's, when only that was kept).
 * A direction without IO has no list in JSON, but fio's terse line has the job's list with
 * zeros: its keys come from another direction of the job (like, the job's percentile_list).
 */
static void pct_fields(FILE *f, const json_t *job, const json_t *dir)
{
	const json_t *p = dir_pcts(dir), *v;
	const char *key;
	unsigned n = 0;
	bool zero = !p;

	for (size_t i = 0; !p && i < DDIR_NR; i++)
		p = dir_pcts(json_object_get(job, ddir_name(i)));
	json_object_foreach((json_t *)p, key, v) {
		if (n == TERSE_PCTS)
			break;
		fprintf(f, ";%s%%=%llu", key,
			zero ? 0ULL : (unsigned long long)json_number_value(v) / 1000);
		n++;
	}
	for (; n < TERSE_PCTS; n++)
		fputs(";0%=0", f);
}

/*
 * The bandwidth share of the group as fio's terse line has it: fio divides the mean by the
 * group's aggregate in whole KiB/s there (its JSON and normal output by the exact figure), so
 * the line's share is a little larger. The aggregate comes back from the JSON's share and mean;
 * within the JSON's six decimals of the share, a whole number is taken as one.
 */
static double terse_bw_agg(const json_t *dir)
{
	double p = num(dir, "bw_agg"), mean = num(dir, "bw_mean"), kib, whole, tol;

	if (p <= 0 || p >= 100.0)
		return p;
	kib = mean * 100.0 / p;
	tol = kib * 1e-6 / p + 1e-9;
	whole = floor(kib + 0.5);
	if (fabs(kib - whole) > tol)
		whole = floor(kib);
	if (whole < 1)
		return 100.0;
	p = mean * 100.0 / whole;
	return p > 100.0 ? 100.0 : p;
}

static void dir_fields(FILE *f, const json_t *job, const json_t *dir, unsigned ver)
{
	unsigned long long bytes = cnt(dir, "io_bytes"), runt = cnt(dir, "runtime");
	unsigned long long bw = 0, iops = 0;

	if (runt) {
		bw = 1000 * bytes / runt / 1024;
		iops = 1000 * cnt(dir, "total_ios") / runt;
	}
	fprintf(f, ";%llu;%llu;%llu;%llu", bytes >> 10, bw, iops, runt);
	lat_fields(f, json_object_get(dir, "slat_ns"));
	lat_fields(f, json_object_get(dir, "clat_ns"));
	pct_fields(f, job, dir);
	lat_fields(f, json_object_get(dir, "lat_ns"));
	if (cnt(dir, "bw_samples"))
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", cnt(dir, "bw_min"), cnt(dir, "bw_max"),
			terse_bw_agg(dir), num(dir, "bw_mean"), num(dir, "bw_dev"));
	else
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
	if (ver != 5)
		return;
	fprintf(f, ";%llu", cnt(dir, "bw_samples"));
	if (cnt(dir, "iops_samples"))
		fprintf(f, ";%llu;%llu;%f;%f;%llu", cnt(dir, "iops_min"), cnt(dir, "iops_max"),
			num(dir, "iops_mean"), num(dir, "iops_stddev"), cnt(dir, "iops_samples"));
	else
		fprintf(f, ";%llu;%llu;%f;%f;%llu", 0ULL, 0ULL, 0.0, 0.0, 0ULL);
}

/* Sum of a distribution's values (the nanosecond latencies fio folds into <=2 us). */
static double dist_sum(const json_t *o)
{
	const char *key;
	const json_t *v;
	double s = 0;

	json_object_foreach((json_t *)o, key, v)
		s += json_number_value(v);
	return s;
}

static void dist_fields(FILE *f, const json_t *job)
{
	const json_t *d = json_object_get(job, "iodepth_level");
	const json_t *us = json_object_get(job, "latency_us");
	const json_t *ms = json_object_get(job, "latency_ms");

	for (size_t i = 0; i < NKEYS(depth_keys); i++)
		fprintf(f, ";%3.1f%%", num(d, depth_keys[i]));
	for (size_t i = 0; i < NKEYS(lat_us_keys); i++)
		fprintf(f, ";%3.2f%%", num(us, lat_us_keys[i]) +
				      (i ? 0 : dist_sum(json_object_get(job, "latency_ns"))));
	for (size_t i = 0; i < NKEYS(lat_ms_keys); i++)
		fprintf(f, ";%3.2f%%", num(ms, lat_ms_keys[i]));
}

static void disk_fields(FILE *f, const json_t *disks)
{
	size_t i;
	const json_t *d;

	json_array_foreach((json_t *)disks, i, d)
		fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
			json_string_value(json_object_get(d, "name")), cnt(d, "read_ios"),
			cnt(d, "write_ios"), cnt(d, "read_merges"), cnt(d, "write_merges"),
			cnt(d, "read_ticks"), cnt(d, "write_ticks"), cnt(d, "in_queue"),
			num(d, "util"));
}

static void job_line(FILE *f, const json_t *root, const json_t *job, unsigned ver)
{
	const char *name = json_string_value(json_object_get(job, "jobname"));
	const char *desc = json_string_value(json_object_get(job, "desc"));

	if (ver == 2)
		fprintf(f, "2;%s;%llu;%llu", name ? name : "", cnt(job, "groupid"), cnt(job, "error"));
	else
		fprintf(f, "%u;%s;%s;%llu;%llu", ver,
			json_string_value(json_object_get(root, "fio version")), name ? name : "",
			cnt(job, "groupid"), cnt(job, "error"));
	if (!json_object_get(job, "read")) {
		/* unified_rw_reporting=mixed: one block of the sum, and no other, as fio */
		dir_fields(f, job, json_object_get(job, "mixed"), ver);
	} else {
		dir_fields(f, job, json_object_get(job, "read"), ver);
		dir_fields(f, job, json_object_get(job, "write"), ver);
		if (ver != 3)
			dir_fields(f, job, json_object_get(job, "trim"), ver);
	}
	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu", num(job, "usr_cpu"), num(job, "sys_cpu"),
		cnt(job, "ctx"), cnt(job, "majf"), cnt(job, "minf"));
	dist_fields(f, job);
	if (ver >= 3)
		disk_fields(f, json_object_get(root, "disk_util"));
	if (json_object_get(job, "total_err"))
		fprintf(f, ";%llu;%lld", cnt(job, "total_err"),
			(long long)json_integer_value(json_object_get(job, "first_error")));
	if (desc && *desc)
		fprintf(f, "%s;%s", ver == 2 ? "\n" : "", desc);
	fputc('\n', f);
}

int terse_from_json(FILE *f, const json_t *root, unsigned ver)
{
	size_t i;
	const json_t *job;

	if (ver < 2 || ver > 5)
		return -EINVAL;
	json_array_foreach(json_object_get(root, "jobs"), i, job)
		job_line(f, root, job, ver);
	return ferror(f) ? -EIO : 0;
}

int report_terse(FILE *f, const struct run_result *r, unsigned ver)
{
	json_t *root = report_json_tree(r, false);
	int ret;

	if (!root)
		return -ENOMEM;
	ret = terse_from_json(f, root, ver);
	json_decref(root);
	return ret;
}
