// SPDX-License-Identifier: MIT
/* Unit tests for the text and JSON reports: fio's number formatting, layouts and JSON schema. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <jansson.h>

#include "iowl/report.h"
#include "report/fmt.h"

#define START_S		1795305439	/* fixed run start, so the header dates are known */
#define MS		1000000ULL
#define SEC		1000000000ULL
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define assert_close(got, want, tol) check_close((got), (want), (tol), __LINE__)
#define assert_has(hay, needle) check_has((hay), (needle), __LINE__)

static void check_close(double got, double want, double tol, int line)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("line %d: got %.17g, want %.17g (+-%g)", line, got, want, tol);
}

static void check_has(const char *hay, const char *needle, int line)
{
	if (!strstr(hay, needle))
		fail_msg("line %d: output lacks\n---\n%s\n---\nin\n%s", line, needle, hay);
}

/* fio's default percentile_list (options.c's default, parsed). */
static const double default_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

static char name_t[] = "t", name_a[] = "a", name_b[] = "b", name_c[] = "c", name_e[] = "e";
static char key_rw[] = "rw", val_randrw[] = "randrw", key_bs[] = "bs", val_4k[] = "4k";
static char key_tb[] = "time_based", key_eng[] = "ioengine", val_null[] = "null";
static char desc_first[] = "first job", path_dev[] = "/dev/sdx";

static struct job_kv job_kvs[] = {
	{ key_rw, val_randrw }, { key_bs, val_4k }, { key_tb, NULL },
};
static struct job_kv global_kvs[] = { { key_eng, val_null } };

static void job_setup(struct job *job, char *name)
{
	memset(job, 0, sizeof(*job));
	job->o.name = name;
	job->o.iodepth = 1;
	job->o.kb_base = 1024;
	job->o.rw = RW_F_READ | RW_F_WRITE | RW_F_RANDOM;
	job->o.clat_percentiles = true;
	memcpy(job->o.percentile_list, default_pcts, sizeof(default_pcts));
	job->o.npercentiles = ARRAY_SIZE(default_pcts);
}

static void unit_setup(struct job_result *u, const struct job *job, unsigned group)
{
	memset(u, 0, sizeof(*u));
	u->job = job;
	u->group = group;
	u->nworkers = 1;
	u->pid = 1234;
	u->elapsed_ns = 1500 * MS;
	assert_int_equal(stats_init(&u->st, 7, job->o.slat_percentiles, job->o.clat_percentiles,
				    job->o.lat_percentiles),
			 0);
}

static void dir_io(struct job_result *u, unsigned d, uint64_t ios, uint64_t bs)
{
	u->st.dir[d].ios = ios;
	u->st.dir[d].bytes = ios * bs;
	u->st.depth[0] += ios;
}

/* One IO of completion latency v: clat v, lat v + 20 (slat when kept: 20). */
static void add_io_lat(struct job_result *u, unsigned d, uint64_t v)
{
	struct dir_stats *ds = &u->st.dir[d];

	lat_add(&ds->clat, v);
	lat_add(&ds->lat, v + 20);
	if (ds->clat_hist)
		hist_add(ds->clat_hist, v);
	if (ds->lat_hist)
		hist_add(ds->lat_hist, v + 20);
	if (ds->slat_hist) {
		lat_add(&ds->slat, 20);
		hist_add(ds->slat_hist, 20);
	}
}

/* The group figures as run.c builds them: sums, longest runtime, bandwidth range. */
static void groups_build(struct run_result *r, struct group_result *g, unsigned ngroups)
{
	memset(g, 0, ngroups * sizeof(*g));
	for (unsigned i = 0; i < ngroups; i++) {
		g[i].id = i;
		g[i].kb_base = 1024;
	}
	for (unsigned i = 0; i < r->nunits; i++) {
		const struct job_result *u = &r->units[i];
		struct group_result *gr = &g[u->group];

		gr->kb_base = u->job->o.kb_base;
		for (unsigned d = 0; d < DDIR_NR; d++) {
			uint64_t rt = u->st.runtime_ns, bw;

			if (!u->st.dir[d].ios)
				continue;
			bw = fmt_per_sec(u->st.dir[d].bytes, rt);
			if (!gr->ios[d] || bw < gr->min_bw[d])
				gr->min_bw[d] = bw;
			if (bw > gr->max_bw[d])
				gr->max_bw[d] = bw;
			if (!gr->ios[d] || rt < gr->min_runtime_ns[d])
				gr->min_runtime_ns[d] = rt;
			if (rt > gr->runtime_ns[d])
				gr->runtime_ns[d] = rt;
			gr->bytes[d] += u->st.dir[d].bytes;
			gr->ios[d] += u->st.dir[d].ios;
		}
	}
	for (unsigned i = 0; i < ngroups; i++)
		for (unsigned d = 0; d < DDIR_NR; d++)
			g[i].agg_bw[d] = fmt_per_sec(g[i].bytes[d], g[i].runtime_ns[d]);
	r->groups = g;
	r->ngroups = ngroups;
}

static void run_setup(struct run_result *r, struct job_result *units, unsigned n)
{
	memset(r, 0, sizeof(*r));
	r->units = units;
	r->nunits = n;
	r->start = START_S;
	r->start_ms = START_S * 1000ULL + 315;
}

static void units_release(struct job_result *units, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		stats_release(&units[i].st);
}

enum render_kind { RENDER_TEXT, RENDER_JSON, RENDER_JSONPLUS };

/* Returns the report as a malloc'd string. */
static char *render(const struct run_result *r, enum render_kind kind)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	assert_non_null(f);
	if (kind == RENDER_TEXT)
		ret = report_text(f, r);
	else
		ret = report_json(f, r, kind == RENDER_JSONPLUS);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ret, 0);
	return buf;
}

static json_t *render_json(const struct run_result *r, enum render_kind kind)
{
	char *text = render(r, kind);
	json_error_t err;
	json_t *root = json_loads(text, 0, &err);

	if (!root)
		fail_msg("invalid JSON at %d:%d: %s\n%s", err.line, err.column, err.text, text);
	free(text);
	return root;
}

/* Looks up a '/'-separated path of object keys. */
static json_t *jget(json_t *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, "/", &save); o && k; k = strtok_r(NULL, "/", &save))
		o = json_object_get(o, k);
	if (!o)
		fail_msg("no key path '%s'", path);
	return o;
}

static double jnum(json_t *o, const char *path)
{
	json_t *v = jget(o, path);

	if (!json_is_number(v))
		fail_msg("'%s' is not a number", path);
	return json_number_value(v);
}

/* The keys of o, in order, except those in skip, must be exactly want. */
static void assert_keys(json_t *o, const char *const *want, size_t n, const char *skip)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	assert_true(json_is_object(o));
	json_object_foreach(o, key, v) {
		if (skip && !strcmp(key, skip))
			continue;
		if (i >= n || strcmp(key, want[i]))
			fail_msg("key %zu is '%s', want '%s'", i, key, i < n ? want[i] : "(end)");
		i++;
	}
	assert_int_equal(i, n);
}

/* ---- formatting helpers ---------------------------------------------------------------- */

struct num_case {
	uint64_t num;
	unsigned maxlen;
	bool pow2;
	enum fmt_unit unit;
	const char *want;
};

/*
 * Every string here was printed by fio 3.33 for that number (IOPS=, BW=, io= and the Run status
 * line of runs like "fio --name=t --ioengine=null --rw=read --bs=N --size=N"), except the lines
 * marked "maths" which follow from the same rule.
 */
static const struct num_case num_cases[] = {
	{ 2911841, 4, false, FMT_UNIT_NONE, "2912k" },
	{ 2910905, 4, false, FMT_UNIT_NONE, "2911k" },
	{ 2896000, 4, false, FMT_UNIT_NONE, "2896k" },		/* maths */
	{ 4096000, 4, false, FMT_UNIT_NONE, "4096k" },
	{ 12010, 4, false, FMT_UNIT_NONE, "12.0k" },
	{ 5333, 4, false, FMT_UNIT_NONE, "5333" },
	{ 0, 4, false, FMT_UNIT_NONE, "0" },
	{ 332478, 6, false, FMT_UNIT_NONE, "332478" },
	{ 1234567, 6, false, FMT_UNIT_NONE, "1234.6k" },	/* maths */
	{ 49242112, 4, true, FMT_UNIT_BYTE, "47.0MiB" },
	{ 49242112, 4, false, FMT_UNIT_BYTE, "49.2MB" },
	{ 102359, 4, true, FMT_UNIT_BYTE, "100.0KiB" },
	{ 102359, 4, false, FMT_UNIT_BYTE, "102kB" },
	{ 10239, 4, true, FMT_UNIT_BYTE, "10.00KiB" },
	{ 10239, 4, false, FMT_UNIT_BYTE, "10.2kB" },
	{ 10188, 4, true, FMT_UNIT_BYTE, "9.95KiB" },
	{ 1535, 4, true, FMT_UNIT_BYTE, "1535B" },
	{ 153600, 4, true, FMT_UNIT_BYTE, "150KiB" },
	{ 153600, 4, false, FMT_UNIT_BYTE, "154kB" },
	{ 51200, 4, true, FMT_UNIT_BYTE, "50.0KiB" },
	{ 51200, 4, false, FMT_UNIT_BYTE, "51.2kB" },
	{ 102400, 4, true, FMT_UNIT_BYTE, "100KiB" },
	{ 1048064, 4, true, FMT_UNIT_BYTE, "1024KiB" },
	{ 1048064, 4, false, FMT_UNIT_BYTE, "1048kB" },
	{ 1048575, 4, false, FMT_UNIT_BYTE, "1049kB" },
	{ 999999, 4, true, FMT_UNIT_BYTE, "977KiB" },
	{ 999999, 4, false, FMT_UNIT_BYTE, "1000kB" },
	{ 16777216, 4, true, FMT_UNIT_BYTE, "16.0MiB" },
	{ 16777216, 4, false, FMT_UNIT_BYTE, "16.8MB" },
	{ 11938828288ULL, 4, true, FMT_UNIT_BYTE, "11.1GiB" },
	{ 11938828288ULL, 4, false, FMT_UNIT_BYTE, "11.9GB" },
	{ 1048064000, 4, true, FMT_UNIT_BYTE_SEC, "1000MiB/s" },
	{ 1048064000, 4, false, FMT_UNIT_BYTE_SEC, "1048MB/s" },
	{ 1023000, 4, true, FMT_UNIT_BYTE_SEC, "999KiB/s" },
	{ 1023000, 4, false, FMT_UNIT_BYTE_SEC, "1023kB/s" },
	{ 49242112000ULL, 4, true, FMT_UNIT_BYTE_SEC, "45.9GiB/s" },
	{ 49242112000ULL, 4, false, FMT_UNIT_BYTE_SEC, "49.2GB/s" },
	{ 11811160064ULL, 4, true, FMT_UNIT_BYTE_SEC, "11.0GiB/s" },	/* maths */
	{ 16777216000ULL, 4, false, FMT_UNIT_BYTE_SEC, "16.8GB/s" },
	{ 16777216000ULL, 4, true, FMT_UNIT_BYTE_SEC, "15.6GiB/s" },
};

static void test_fmt_num_golden(void **state)
{
	char buf[FMT_NUM_LEN];

	for (size_t i = 0; i < ARRAY_SIZE(num_cases); i++) {
		const struct num_case *c = &num_cases[i];

		fmt_num(buf, sizeof(buf), c->num, c->maxlen, c->pow2, c->unit);
		if (strcmp(buf, c->want))
			fail_msg("fmt_num(%llu, %u, %d): got '%s', want '%s'",
				 (unsigned long long)c->num, c->maxlen, c->pow2, buf, c->want);
	}
	/* The largest values still get a prefix and fit the buffer. */
	fmt_num(buf, sizeof(buf), UINT64_MAX, 4, true, FMT_UNIT_BYTE_SEC);
	assert_string_equal(buf, "16.0EiB/s");
}

static void test_fmt_scales(void **state)
{
	struct fmt_scale sc;

	/* min/max/avg lines: the fio 3.33 lines these figures came from are in the comments. */
	fmt_lat_scale(14, 332478, 261.95, &sc);	/* clat (nsec): min=14, max=332478 */
	assert_string_equal(sc.unit, "nsec");
	fmt_lat_scale(30000, 694000, 63280, &sc);	/* clat (usec): min=30, max=694 */
	assert_string_equal(sc.unit, "usec");
	assert_int_equal(sc.div, 1000);
	fmt_lat_scale(1007, 54388, 5314.24, &sc);	/* clat (nsec): min=1007, max=54388 */
	assert_string_equal(sc.unit, "nsec");
	fmt_lat_scale(97000, 2289000, 426380, &sc);	/* sync (usec): min=97, max=2289 */
	assert_string_equal(sc.unit, "usec");
	fmt_lat_scale(3000000, 200000000, 2e6, &sc);
	assert_string_equal(sc.unit, "msec");
	fmt_lat_scale(3000, 200000, 500, &sc);	/* a small stdev keeps nsec */
	assert_string_equal(sc.unit, "nsec");

	fmt_pct_scale(1080, 54528, &sc);		/* percentiles (nsec) */
	assert_string_equal(sc.unit, "nsec");
	fmt_pct_scale(41472, 544768, &sc);		/* percentiles (usec): [42] .. [545] */
	assert_string_equal(sc.unit, "usec");
	assert_int_equal(fmt_ceil_scale(41472, sc.steps), 42);
	assert_int_equal(fmt_ceil_scale(544768, sc.steps), 545);
	fmt_pct_scale(2500000, 150000000, &sc);
	assert_string_equal(sc.unit, "msec");
	assert_int_equal(fmt_ceil_scale(2000001, sc.steps), 3);
	assert_int_equal(fmt_ceil_scale(2000000, sc.steps), 2);
}

static void test_fmt_figures(void **state)
{
	const double a[] = { 50, 99 }, b[] = { 50, 99.9 }, c[] = { 99.999, 50 };
	const uint64_t depth[STATS_BUCKETS] = { 1, 9998, 1, 0, 0, 0, 0 };
	double pct[STATS_BUCKETS];

	assert_int_equal(fmt_pct_precision(default_pcts, ARRAY_SIZE(default_pcts)), 2);
	assert_int_equal(fmt_pct_precision(a, 2), 0);
	assert_int_equal(fmt_pct_precision(b, 2), 1);
	assert_int_equal(fmt_pct_precision(c, 2), 3);

	/* fio: whole microseconds rounded up to ms ("1001msec" for 1000.6 ms). */
	assert_int_equal(fmt_runtime_ms(1000600000), 1001);
	assert_int_equal(fmt_runtime_ms(1000 * MS), 1000);
	assert_int_equal(fmt_runtime_ms(999), 0);
	assert_int_equal(fmt_runtime_ms(1000), 1);
	assert_int_equal(fmt_per_sec(3, 2 * SEC), 1);
	assert_int_equal(fmt_per_sec(3, 0), 0);

	/* Depth distribution: a non-empty bucket shows at least 0.1 %. */
	fmt_dist(depth, pct);
	assert_close(pct[0], 0.1, 1e-12);
	assert_close(pct[1], 99.98, 1e-9);
	assert_close(pct[3], 0.0, 0);
}

/* ---- the text report ------------------------------------------------------------------- */

/* 10000 completions of 16..23 ns, 1250 each: exact bins, known percentiles. */
static void add_16_to_23(struct job_result *u, unsigned d)
{
	for (unsigned i = 0; i < 10000; i++)
		add_io_lat(u, d, 16 + i * 8 / 10000);
}

/*
 * The figures of the fio 3.33 run quoted in the comments of test_text_whole (null engine,
 * randrw, 1001 ms), so the lines must come out identical.
 */
static void unit_fio_like(struct job_result *u, const struct job *job)
{
	unit_setup(u, job, 0);
	u->st.runtime_ns = 1001 * MS;
	dir_io(u, 0, 2914753, 4096);
	dir_io(u, 1, 2913816, 4096);
	add_16_to_23(u, 0);
	add_16_to_23(u, 1);
	lat_add(&u->st.dir[0].bw_samples, 11848796);
	lat_add(&u->st.dir[0].iops_samples, 2962202);
	u->st.usr_ns = 990990000;
	u->st.ctx = 32;
	u->st.minf = 11;
}

static void test_text_whole(void **state)
{
	struct job job;
	struct job_result u;
	struct group_result g[1];
	struct run_result r;
	char header[128], date[64];
	char *out;

	job_setup(&job, name_t);
	unit_fio_like(&u, &job);
	run_setup(&r, &u, 1);
	groups_build(&r, g, 1);
	out = render(&r, RENDER_TEXT);

	time_t start = START_S;

	assert_non_null(ctime_r(&start, date));
	snprintf(header, sizeof(header), "\nt: (groupid=0, jobs=1): err= 0: pid=1234: %s", date);
	assert_memory_equal(out, header, strlen(header));
	/* fio 3.33: "  read: IOPS=2912k, BW=11.1GiB/s (11.9GB/s)(11.1GiB/1001msec)" */
	assert_has(out, "\n  read: IOPS=2912k, BW=11.1GiB/s (11.9GB/s)(11.1GiB/1001msec)\n"
		   "    clat (nsec): min=16, max=23, avg=19.50, stdev= 2.29\n"
		   "     lat (nsec): min=36, max=43, avg=39.50, stdev= 2.29\n"
		   "    clat percentiles (nsec):\n"
		   "     |  1.00th=[   16],  5.00th=[   16], 10.00th=[   16], 20.00th=[   17],\n"
		   "     | 30.00th=[   18], 40.00th=[   19], 50.00th=[   19], 60.00th=[   20],\n"
		   "     | 70.00th=[   21], 80.00th=[   22], 90.00th=[   23], 95.00th=[   23],\n"
		   "     | 99.00th=[   23], 99.50th=[   23], 99.90th=[   23], 99.95th=[   23],\n"
		   "     | 99.99th=[   23]\n"
		   "   bw (  MiB/s): min=11571, max=11571, per=100.00%, avg=11571.09, stdev= 0.00,"
		   " samples=1\n"
		   "   iops        : min=2962202, max=2962202, avg=2962202.00, stdev= 0.00,"
		   " samples=1\n"
		   "  write: IOPS=2911k, BW=11.1GiB/s (11.9GB/s)(11.1GiB/1001msec)\n");
	assert_has(out, "  lat (nsec)   : 20=50.00%, 50=50.00%\n"
		   "  cpu          : usr=99.00%, sys=0.00%, ctx=32, majf=0, minf=11\n"
		   "  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%,"
		   " >=64=0.0%\n"
		   "     submit    : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		   "     complete  : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		   "     issued rwts: total=2914753,2913816,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
		   "     latency   : target=0, window=0, percentile=100.00%, depth=1\n"
		   "\nRun status group 0 (all jobs):\n"
		   "   READ: bw=11.1GiB/s (11.9GB/s), 11.1GiB/s-11.1GiB/s (11.9GB/s-11.9GB/s),"
		   " io=11.1GiB (11.9GB), run=1001-1001msec\n"
		   "  WRITE: bw=11.1GiB/s (11.9GB/s), 11.1GiB/s-11.1GiB/s (11.9GB/s-11.9GB/s),"
		   " io=11.1GiB (11.9GB), run=1001-1001msec\n");
	assert_null(strstr(out, "trim:"));
	assert_null(strstr(out, "TRIM:"));
	free(out);
	units_release(&u, 1);
}

/* psync-like latencies: microsecond units in the min/max line and the percentile block. */
static void test_text_usec(void **state)
{
	struct job job;
	struct job_result u;
	struct run_result r;
	char *out, *block;
	unsigned lines = 0;

	job_setup(&job, name_t);
	job.o.rw = RW_F_READ | RW_F_RANDOM;
	unit_setup(&u, &job, 0);
	u.st.runtime_ns = 1 * SEC;
	dir_io(&u, 0, 1000, 4096);
	for (unsigned i = 0; i < 1000; i++)
		add_io_lat(&u, 0, 30000 + (uint64_t)i * 670);
	run_setup(&r, &u, 1);
	out = render(&r, RENDER_TEXT);
	assert_has(out, "  read: IOPS=1000, BW=4000KiB/s (4096kB/s)(4000KiB/1000msec)\n"
		   "    clat (usec): min=30, max=699, avg=364.67, stdev=193.51\n");
	block = strstr(out, "    clat percentiles (usec):\n     |  1.00th=[   36],");
	assert_non_null(block);
	for (const char *p = block; (p = strstr(p, "     |")); p++)
		lines++;
	assert_int_equal(lines, 5);
	/* 30 of the 1000 IOs lie below 50 us; bins straddling an edge are split (hist.h). */
	assert_has(out, "  lat (usec)   : 50=3.03%, 100=7.50%, 250=22.38%, 500=37.33%, 750=29.76%\n"
		   "  cpu          : ");
	free(out);
	units_release(&u, 1);
}

/* kb_base=1000 swaps the SI and IEC forms (fio 3.33 lines in the comments). */
static void test_text_kb_base(void **state)
{
	struct job job;
	struct job_result u;
	struct group_result g[1];
	struct run_result r;
	char *out;

	job_setup(&job, name_b);
	job.o.kb_base = 1000;
	unit_setup(&u, &job, 0);
	u.st.runtime_ns = 1 * MS;
	dir_io(&u, 1, 4096, 4096);
	run_setup(&r, &u, 1);
	groups_build(&r, g, 1);
	out = render(&r, RENDER_TEXT);
	/* "  write: IOPS=4096k, BW=16.8GB/s (15.6GiB/s)(16.8MB/1msec)" */
	assert_has(out, "  write: IOPS=4096k, BW=16.8GB/s (15.6GiB/s)(16.8MB/1msec)\n");
	/* "  WRITE: bw=16.8GB/s (15.6GiB/s), 16.8GB/s-16.8GB/s (15.6GiB/s-15.6GiB/s), ..." */
	assert_has(out, "  WRITE: bw=16.8GB/s (15.6GiB/s), 16.8GB/s-16.8GB/s (15.6GiB/s-15.6GiB/s),"
		   " io=16.8MB (16.0MiB), run=1-1msec\n");
	free(out);
	units_release(&u, 1);
}

/* ---- JSON ---------------------------------------------------------------------------------- */

/*
 * fio 3.33's key lists, in order, from
 *   fio --name=t --ioengine=null --rw=randrw --bs=4k --size=1g --runtime=1 --time_based \
 *       --output-format=json
 * read back with python3 (list(d.keys()), list(d['jobs'][0].keys()), ...).  fio leaves out
 * "global options" without a [global] section and "disk_util" without a disk (the null engine);
 * iowl always prints "disk_util", and its own run-level figures under "iowl" last.
 */
static const char *const fio_top_keys[] = {
	"fio version", "timestamp", "timestamp_ms", "time", "global options", "jobs", "disk_util",
	"iowl",
};

static const char *const fio_job_keys[] = {
	"jobname", "groupid", "error", "eta", "elapsed", "job options", "read", "write", "trim",
	"sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level",
	"iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms",
	"latency_depth", "latency_target", "latency_percentile", "latency_window",
};

static const char *const fio_dir_keys[] = {
	"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios", "short_ios",
	"drop_ios", "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_max", "bw_agg", "bw_mean",
	"bw_dev", "bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
};

/* clat_ns with clat_percentiles=1 under json+; without samples only the first five. */
static const char *const fio_lat_keys[] = {
	"min", "max", "mean", "stddev", "N", "percentile", "bins",
};

static const char *const fio_sync_keys[] = { "total_ios", "lat_ns" };
static const char *const fio_level_keys[] = { "1", "2", "4", "8", "16", "32", ">=64" };
static const char *const fio_batch_keys[] = { "0", "4", "8", "16", "32", "64", ">=64" };
static const char *const fio_ns_keys[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
};
static const char *const fio_ms_keys[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};
static const char *const fio_pct_keys[] = {
	"1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000", "50.000000",
	"60.000000", "70.000000", "80.000000", "90.000000", "95.000000", "99.000000", "99.500000",
	"99.900000", "99.950000", "99.990000",
};

static void test_json_fio_keys(void **state)
{
	struct job job;
	struct job_result u;
	struct group_result g[1];
	struct run_result r;
	json_t *root, *j;

	job_setup(&job, name_t);
	job.kv = job_kvs;
	job.nkv = ARRAY_SIZE(job_kvs);
	unit_fio_like(&u, &job);
	run_setup(&r, &u, 1);
	r.global_kv = global_kvs;
	r.nglobal_kv = ARRAY_SIZE(global_kvs);
	groups_build(&r, g, 1);
	root = render_json(&r, RENDER_JSONPLUS);

	assert_keys(root, fio_top_keys, ARRAY_SIZE(fio_top_keys), NULL);
	assert_memory_equal(json_string_value(jget(root, "fio version")), "iowl-", 5);
	assert_int_equal(jnum(root, "timestamp"), START_S);
	assert_int_equal(jnum(root, "timestamp_ms"), START_S * 1000ULL + 315);
	assert_int_equal(json_array_size(jget(root, "disk_util")), 0);
	j = json_array_get(jget(root, "jobs"), 0);
	assert_keys(j, fio_job_keys, ARRAY_SIZE(fio_job_keys), "iowl");
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const char *const names[] = { "read", "write", "trim" };

		assert_keys(jget(j, names[d]), fio_dir_keys, ARRAY_SIZE(fio_dir_keys), NULL);
	}
	assert_keys(jget(j, "read/clat_ns"), fio_lat_keys, ARRAY_SIZE(fio_lat_keys), NULL);
	assert_keys(jget(j, "read/lat_ns"), fio_lat_keys, 5, NULL);
	assert_keys(jget(j, "trim/clat_ns"), fio_lat_keys, 5, NULL);
	assert_keys(jget(j, "read/clat_ns/percentile"), fio_pct_keys, ARRAY_SIZE(fio_pct_keys),
		    NULL);
	assert_keys(jget(j, "sync"), fio_sync_keys, 2, NULL);
	assert_keys(jget(j, "iodepth_level"), fio_level_keys, 7, NULL);
	assert_keys(jget(j, "iodepth_submit"), fio_batch_keys, 7, NULL);
	assert_keys(jget(j, "iodepth_complete"), fio_batch_keys, 7, NULL);
	assert_keys(jget(j, "latency_ns"), fio_ns_keys, ARRAY_SIZE(fio_ns_keys), NULL);
	assert_keys(jget(j, "latency_us"), fio_ns_keys, ARRAY_SIZE(fio_ns_keys), NULL);
	assert_keys(jget(j, "latency_ms"), fio_ms_keys, ARRAY_SIZE(fio_ms_keys), NULL);
	/* Options in the order written; a bare key is left out, as fio 3.33 does. */
	assert_string_equal(json_string_value(jget(root, "global options/ioengine")), "null");
	assert_string_equal(json_string_value(jget(j, "job options/rw")), "randrw");
	assert_null(json_object_get(jget(j, "job options"), "time_based"));
	assert_int_equal(jnum(j, "iowl/latency_histogram/sub_bits"), HIST_SUB_BITS);
	assert_int_equal(jnum(j, "iowl/latency_histogram/bins"), HIST_NR);
	assert_null(json_object_get(jget(j, "iowl"), "first_error"));
	json_decref(root);
	units_release(&u, 1);
}

/* 200 reads of 8 KiB in 2.5 s, completion latencies 10..209 ns (one each, exact bins). */
static void values_fixture(struct job *job, struct job_result *u, struct group_result *g,
			   struct run_result *r)
{
	job_setup(job, name_t);
	unit_setup(u, job, 0);
	u->st.runtime_ns = 2 * SEC + 500 * MS;
	dir_io(u, 0, 200, 8192);
	for (unsigned i = 0; i < 200; i++)
		add_io_lat(u, 0, 10 + i);
	u->st.usr_ns = 500 * MS;
	u->st.sys_ns = 1 * SEC;
	run_setup(r, u, 1);
	groups_build(r, g, 1);
}

static void test_json_values(void **state)
{
	struct job job;
	struct job_result u;
	struct group_result g[1];
	struct run_result r;
	json_t *root, *j;

	values_fixture(&job, &u, g, &r);
	root = render_json(&r, RENDER_JSONPLUS);
	j = json_array_get(jget(root, "jobs"), 0);
	assert_close(jnum(j, "read/iops"), 200 / 2.5, 1e-6);
	assert_true(json_is_real(jget(j, "read/iops")));
	assert_int_equal(jnum(j, "read/bw_bytes"), 200 * 8192 * 2 / 5);
	assert_int_equal(jnum(j, "read/bw"), 200 * 8192 * 2 / 5 / 1024);
	assert_int_equal(jnum(j, "read/io_kbytes"), 200 * 8);
	assert_int_equal(jnum(j, "read/runtime"), 2500);
	assert_int_equal(jnum(j, "read/total_ios"), 200);
	assert_int_equal(jnum(j, "read/clat_ns/min"), 10);
	assert_int_equal(jnum(j, "read/clat_ns/max"), 209);
	assert_close(jnum(j, "read/clat_ns/mean"), 109.5, 1e-9);
	/* Ranks ceil(p * 200 / 100), exact bins below 256 ns. */
	assert_int_equal(jnum(j, "read/clat_ns/percentile/5.000000"), 19);
	assert_int_equal(jnum(j, "read/clat_ns/percentile/50.000000"), 109);
	assert_int_equal(jnum(j, "read/clat_ns/percentile/99.000000"), 207);
	assert_int_equal(jnum(j, "read/clat_ns/percentile/99.990000"), 209);
	assert_int_equal(jnum(j, "read/clat_ns/bins/109"), 1);
	assert_int_equal(json_object_size(jget(j, "read/clat_ns/bins")), 200);
	assert_int_equal(jnum(j, "job_runtime"), 2500);
	assert_close(jnum(j, "usr_cpu"), 20.0, 1e-9);
	assert_close(jnum(j, "sys_cpu"), 40.0, 1e-9);
	assert_true(json_is_real(jget(j, "usr_cpu")));
	assert_int_equal(jnum(j, "elapsed"), 2);
	assert_int_equal(jnum(j, "eta"), 0);
	assert_int_equal(jnum(j, "latency_depth"), 1);
	assert_close(jnum(j, "latency_percentile"), 100.0, 0);
	assert_close(jnum(j, "iodepth_level/1"), 100.0, 0);
	json_decref(root);
	units_release(&u, 1);
}

static void test_json_buckets_plain(void **state)
{
	struct job job;
	struct job_result u;
	struct group_result g[1];
	struct run_result r;
	json_t *root, *j, *v;
	const char *key;
	double sum = 0;

	values_fixture(&job, &u, g, &r);
	root = render_json(&r, RENDER_JSON);
	j = json_array_get(jget(root, "jobs"), 0);
	/* 10..19: 5 %, 20..49: 15 %, 50..99: 25 %, 100..209: 55 %. */
	assert_close(jnum(j, "latency_ns/20"), 5.0, 1e-9);
	assert_close(jnum(j, "latency_ns/50"), 15.0, 1e-9);
	assert_close(jnum(j, "latency_ns/100"), 25.0, 1e-9);
	assert_close(jnum(j, "latency_ns/250"), 55.0, 1e-9);
	json_object_foreach(jget(j, "latency_ns"), key, v)
		sum += json_number_value(v);
	json_object_foreach(jget(j, "latency_us"), key, v)
		sum += json_number_value(v);
	json_object_foreach(jget(j, "latency_ms"), key, v)
		sum += json_number_value(v);
	assert_close(sum, 100.0, 1e-6);
	/* Plain json: percentiles but no bins. */
	assert_null(json_object_get(jget(j, "read/clat_ns"), "bins"));
	assert_non_null(json_object_get(jget(j, "read/clat_ns"), "percentile"));
	json_decref(root);
	units_release(&u, 1);
}

/* A non-empty bucket below 0.01 % prints as 0.01, as fio. */
static void test_json_bucket_floor(void **state)
{
	struct job job;
	struct job_result u;
	struct run_result r;
	json_t *root, *j;

	job_setup(&job, name_t);
	unit_setup(&u, &job, 0);
	u.st.runtime_ns = 1 * SEC;
	dir_io(&u, 0, 100001, 4096);
	for (unsigned i = 0; i < 100000; i++)
		add_io_lat(&u, 0, 30);
	add_io_lat(&u, 0, 5000000);	/* one IO of 5 ms in 100001 */
	run_setup(&r, &u, 1);
	root = render_json(&r, RENDER_JSON);
	j = json_array_get(jget(root, "jobs"), 0);
	assert_close(jnum(j, "latency_ns/50"), 99.999, 1e-3);
	assert_close(jnum(j, "latency_ms/10"), 0.01, 0);
	assert_close(jnum(j, "latency_ms/4"), 0.0, 0);
	json_decref(root);
	units_release(&u, 1);
}

/* lat_percentiles and slat_percentiles: percentiles only where sampled. */
static void test_json_lat_percentiles(void **state)
{
	struct job job;
	struct job_result u;
	struct run_result r;
	json_t *root, *j;
	char *out;

	job_setup(&job, name_t);
	job.o.lat_percentiles = true;
	job.o.slat_percentiles = true;
	job.o.npercentiles = 2;
	job.o.percentile_list[0] = 99.9;
	job.o.percentile_list[1] = 50;
	unit_setup(&u, &job, 0);
	u.st.runtime_ns = 1 * SEC;
	dir_io(&u, 0, 100, 4096);
	for (unsigned i = 0; i < 100; i++)
		add_io_lat(&u, 0, 100);
	lat_init(&u.st.dir[0].slat);	/* no submission latency samples (sync engine) */
	memset(u.st.dir[0].slat_hist, 0, sizeof(struct hist));
	run_setup(&r, &u, 1);
	root = render_json(&r, RENDER_JSON);
	j = json_array_get(jget(root, "jobs"), 0);
	assert_null(json_object_get(jget(j, "read/slat_ns"), "percentile"));
	assert_int_equal(jnum(j, "read/lat_ns/percentile/50.000000"), 120);
	assert_int_equal(jnum(j, "read/lat_ns/percentile/99.900000"), 120);
	assert_int_equal(json_object_size(jget(j, "read/lat_ns/percentile")), 2);
	json_decref(root);
	out = render(&r, RENDER_TEXT);
	assert_has(out, "    clat percentiles (nsec):\n     | 50.0th=[  100], 99.9th=[  100]\n"
		   "    lat percentiles (nsec):\n     | 50.0th=[  120], 99.9th=[  120]\n");
	assert_null(strstr(out, "slat"));
	free(out);
	units_release(&u, 1);
}

/*
 * Two groups: a and b in group 0 (4000 and 6000 KiB/s of an 8000 KiB/s aggregate), and c in
 * group 1, a group_reporting-style unit merged from two workers with stats_merge().
 */
static void groups_fixture(struct job *jobs, struct job_result *u, struct group_result *g,
			   struct run_result *r)
{
	struct worker_stats w;

	job_setup(&jobs[0], name_a);
	jobs[0].o.description = desc_first;
	job_setup(&jobs[1], name_b);
	job_setup(&jobs[2], name_c);
	unit_setup(&u[0], &jobs[0], 0);
	u[0].st.runtime_ns = 1 * SEC;
	dir_io(&u[0], 0, 1000, 4096);
	lat_add(&u[0].st.dir[0].bw_samples, 4000);
	unit_setup(&u[1], &jobs[1], 0);
	u[1].st.runtime_ns = 2 * SEC;
	dir_io(&u[1], 0, 3000, 4096);
	lat_add(&u[1].st.dir[0].bw_samples, 6000);
	unit_setup(&u[2], &jobs[2], 1);
	u[2].nworkers = 0;
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(stats_init(&w, 7, false, true, false), 0);
		w.runtime_ns = (1000 + 200 * i) * MS;
		w.dir[1].ios = 500;
		w.dir[1].bytes = 500 * 4096;
		w.usr_ns = 300 * MS;
		hist_add(w.dir[1].clat_hist, 1000);
		lat_add(&w.dir[1].clat, 1000);
		assert_int_equal(stats_merge(&u[2].st, &w), 0);
		u[2].nworkers++;
		stats_release(&w);
	}
	run_setup(r, u, 3);
	groups_build(r, g, 2);
}

static void test_groups_text(void **state)
{
	struct job jobs[3];
	struct job_result u[3];
	struct group_result g[2];
	struct run_result r;
	char *out, *pa, *pb, *pc, *g0, *g1;

	groups_fixture(jobs, u, g, &r);
	out = render(&r, RENDER_TEXT);
	pa = strstr(out, "a: (groupid=0, jobs=1)");
	pb = strstr(out, "b: (groupid=0, jobs=1)");
	pc = strstr(out, "c: (groupid=1, jobs=2)");
	g0 = strstr(out, "\nRun status group 0 (all jobs):\n");
	g1 = strstr(out, "\nRun status group 1 (all jobs):\n");
	assert_true(pa && pb && pc && g0 && g1);
	/* As fio: all units, then the run status of every group. */
	assert_true(pa < pb && pb < pc && pc < g0 && g0 < g1);
	assert_has(out, "  Description  : [first job]\n  read: IOPS=1000, BW=4000KiB/s");
	assert_has(out, "   bw (  KiB/s): min= 4000, max= 4000, per=50.00%, avg=4000.00,"
		   " stdev= 0.00, samples=1\n");
	assert_has(out, "   READ: bw=8000KiB/s (8192kB/s), 4000KiB/s-6000KiB/s (4096kB/s-6144kB/s),"
		   " io=15.6MiB (16.4MB), run=1000-2000msec\n");
	/* The merged unit: the longest worker's runtime, CPU over the summed runtimes (600 ms of
	 * user CPU over 1000 + 1200 ms). */
	assert_has(out, "  write: IOPS=833, BW=3333KiB/s (3413kB/s)(4000KiB/1200msec)\n");
	assert_has(out, "  WRITE: bw=3333KiB/s (3413kB/s), 3333KiB/s-3333KiB/s (3413kB/s-3413kB/s),"
		   " io=4000KiB (4096kB), run=1200-1200msec\n");
	assert_has(out, "  cpu          : usr=27.27%, sys=0.00%");
	free(out);
	units_release(u, 3);
}

static void test_groups_json(void **state)
{
	struct job jobs[3];
	struct job_result u[3];
	struct group_result g[2];
	struct run_result r;
	json_t *root, *js;

	groups_fixture(jobs, u, g, &r);
	root = render_json(&r, RENDER_JSON);
	js = jget(root, "jobs");
	assert_int_equal(json_array_size(js), 3);
	/* bw_agg: mean KiB/s over the group's aggregate (8000 KiB/s). */
	assert_close(jnum(json_array_get(js, 0), "read/bw_agg"), 50.0, 1e-9);
	assert_close(jnum(json_array_get(js, 1), "read/bw_agg"), 75.0, 1e-9);
	assert_close(jnum(json_array_get(js, 2), "write/bw_agg"), 0.0, 0);
	assert_int_equal(jnum(json_array_get(js, 2), "groupid"), 1);
	/* the clones' own run times added up, as fio's total_run_time: 1000 + 1200 ms */
	assert_int_equal(jnum(json_array_get(js, 2), "job_runtime"), 2200);
	assert_int_equal(jnum(json_array_get(js, 2), "write/runtime"), 1200);
	assert_int_equal(jnum(json_array_get(js, 2), "write/clat_ns/N"), 2);
	assert_int_equal(jnum(json_array_get(js, 2), "iowl/workers"), 2);
	assert_string_equal(json_string_value(jget(json_array_get(js, 0), "desc")), "first job");
	assert_null(json_object_get(json_array_get(js, 1), "desc"));
	json_decref(root);
	units_release(u, 3);
}

/* A unit that failed: err= in the header, the io error line, iowl.first_error. */
static void test_error_unit(void **state)
{
	struct job job;
	struct job_result u[2];
	struct run_result r;
	json_t *root, *fe;
	char *out;

	job_setup(&job, name_e);
	unit_setup(&u[0], &job, 0);
	u[0].st.runtime_ns = 10 * MS;
	dir_io(&u[0], 1, 2, 4096);
	u[0].error = EIO;
	u[0].st.errors = 1;
	u[0].st.first_error = (struct io_error){
		.err = EIO, .offset = 8192, .len = 4096, .op = 1,
	};
	snprintf(u[0].st.first_error.path, sizeof(u[0].st.first_error.path), "%s", path_dev);
	/* Failed before any IO: still shown (fio drops it). */
	unit_setup(&u[1], &job, 0);
	u[1].error = ENOENT;
	run_setup(&r, u, 2);

	out = render(&r, RENDER_TEXT);
	assert_has(out, "\ne: (groupid=0, jobs=1): err= 5 (error=Input/output error): pid=1234: ");
	assert_has(out, "\niowl: io error on file /dev/sdx: Input/output error: write offset=8192,"
		   " buflen=4096\n  write: IOPS=200, ");
	assert_has(out, "\ne: (groupid=0, jobs=1): err= 2 (error=No such file or directory)");
	free(out);

	root = render_json(&r, RENDER_JSON);
	fe = jget(json_array_get(jget(root, "jobs"), 0), "iowl/first_error");
	assert_int_equal(jnum(json_array_get(jget(root, "jobs"), 0), "error"), EIO);
	assert_string_equal(json_string_value(jget(fe, "file")), "/dev/sdx");
	assert_int_equal(jnum(fe, "offset"), 8192);
	assert_int_equal(jnum(fe, "length"), 4096);
	assert_string_equal(json_string_value(jget(fe, "direction")), "write");
	assert_string_equal(json_string_value(jget(fe, "error")), "Input/output error");
	assert_int_equal(jnum(fe, "errno"), EIO);
	assert_int_equal(jnum(json_array_get(jget(root, "jobs"), 0), "iowl/errors"), 1);
	assert_int_equal(jnum(json_array_get(jget(root, "jobs"), 1), "error"), ENOENT);
	json_decref(root);
	units_release(u, 2);
}

/* Directions without IO: left out of the text, zeroes in JSON; idle units only in JSON. */
static void test_no_io(void **state)
{
	struct job job;
	struct job_result u[2];
	struct run_result r;
	json_t *root, *w;
	char *out;

	job_setup(&job, name_t);
	unit_setup(&u[0], &job, 0);
	u[0].st.runtime_ns = 1 * SEC;
	dir_io(&u[0], 0, 10, 4096);
	add_io_lat(&u[0], 0, 100);
	unit_setup(&u[1], &job, 0);	/* did nothing */
	u[1].pid = 999;
	run_setup(&r, u, 2);

	out = render(&r, RENDER_TEXT);
	assert_null(strstr(out, "write:"));
	assert_null(strstr(out, "trim:"));
	assert_null(strstr(out, "pid=999"));
	assert_has(out, "  read: IOPS=10, BW=40.0KiB/s (41.0kB/s)(40.0KiB/1000msec)\n");
	free(out);

	root = render_json(&r, RENDER_JSON);
	assert_int_equal(json_array_size(jget(root, "jobs")), 2);
	w = jget(json_array_get(jget(root, "jobs"), 0), "write");
	assert_int_equal(jnum(w, "io_bytes"), 0);
	assert_int_equal(jnum(w, "bw"), 0);
	assert_int_equal(jnum(w, "runtime"), 0);
	assert_close(jnum(w, "iops"), 0.0, 0);
	assert_int_equal(jnum(w, "clat_ns/min"), 0);
	assert_int_equal(jnum(w, "clat_ns/N"), 0);
	assert_null(json_object_get(jget(w, "clat_ns"), "percentile"));
	assert_int_equal(jnum(w, "bw_min"), 0);
	assert_close(jnum(w, "bw_agg"), 0.0, 0);
	assert_int_equal(jnum(json_array_get(jget(root, "jobs"), 1), "read/io_bytes"), 0);
	json_decref(root);
	units_release(u, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_num_golden),
		cmocka_unit_test(test_fmt_scales),
		cmocka_unit_test(test_fmt_figures),
		cmocka_unit_test(test_text_whole),
		cmocka_unit_test(test_text_usec),
		cmocka_unit_test(test_text_kb_base),
		cmocka_unit_test(test_json_fio_keys),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_json_buckets_plain),
		cmocka_unit_test(test_json_bucket_floor),
		cmocka_unit_test(test_json_lat_percentiles),
		cmocka_unit_test(test_groups_text),
		cmocka_unit_test(test_groups_json),
		cmocka_unit_test(test_error_unit),
		cmocka_unit_test(test_no_io),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
