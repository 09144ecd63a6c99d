// SPDX-License-Identifier: MIT
/* The analysis mode: a job's IOs generated but not issued, summarised per stream, direction, size and block heat. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/ddir.h"
#include "iowl/analyze.h"
#include "iowl/lru.h"
#include "iowl/cachefill.h"
#include "iowl/gen.h"
#include "iowl/iolog.h"
#include "iowl/target.h"
#include "iowl/version.h"

#define SIZES_MAX 256
#define GRID_ROWS 128		/* the pattern's heat map: offset rows by IO-number columns */
#define GRID_COLS 128

static const double hot_pcts[] = { 1, 5, 10, 20, 50 };
static const double lru_pcts[] = { 1, 2, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
#define NLRU (sizeof(lru_pcts) / sizeof(lru_pcts[0]))
#define NHOT (sizeof(hot_pcts) / sizeof(hot_pcts[0]))
/* The concentration curve's points: shares of the blocks (%), from 0.01 % to all of them. */
static const double curve_pcts[] = { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 3, 5, 7, 10, 15, 20,
				     25, 30, 40, 50, 60, 70, 80, 90, 100 };
#define NCURVE (sizeof(curve_pcts) / sizeof(curve_pcts[0]))

struct size_count {
	uint32_t bs;
	uint64_t ios;
};

/* Counts per block: open addressing over keys file << 48 | block (key + 1 so 0 is empty). */
struct heat {
	uint64_t *key;
	uint32_t *count;
	uint64_t mask;
	uint64_t distinct;
};

struct analysis {
	uint64_t ios, bytes;
	uint64_t dir_ios[DDIR_NR], dir_bytes[DDIR_NR];
	struct size_count sizes[DDIR_NR][SIZES_MAX];
	unsigned nsizes[DDIR_NR];
	uint64_t other_sizes[DDIR_NR];
	uint64_t (*stream_ios)[DDIR_NR];
	uint64_t (*stream_bytes)[DDIR_NR];
	struct heat heat;
	struct lru lru;			/* the LRU hit-ratio curve */
	int lru_err;
	uint32_t unit;			/* block size of the heat map */
	uint64_t blocks;		/* blocks in the regions */
	double hot[NHOT];		/* share of IOs on the hottest x % of the blocks */
	double curve_x[NCURVE], curve_y[NCURVE];	/* share of blocks, hottest first: share of IOs */
	const struct target_plan *plan;
	uint64_t *base;			/* per file: where its region starts in the stacked regions */
	uint64_t span;			/* bytes in all the regions */
	uint64_t nios, done;		/* IOs to generate, generated */
	uint32_t grid[GRID_ROWS][GRID_COLS];
};

static int heat_init(struct heat *h, uint64_t n)
{
	uint64_t cap = 1;

	while (cap < 2 * n)
		cap <<= 1;
	h->key = calloc(cap, sizeof(*h->key));
	h->count = calloc(cap, sizeof(*h->count));
	h->mask = cap - 1;
	h->distinct = 0;
	return h->key && h->count ? 0 : -ENOMEM;
}

static void heat_add(struct heat *h, uint64_t key)
{
	uint64_t i = (key * 0x9e3779b97f4a7c15ULL) >> 20 & h->mask;

	key++;
	while (h->key[i] && h->key[i] != key)
		i = (i + 1) & h->mask;
	if (!h->key[i]) {
		h->key[i] = key;
		h->distinct++;
	}
	h->count[i]++;
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The share of the IOs (%) on the hottest pct % of all the blocks in the regions (c: counts, hottest first). */
static double hottest_share(const struct analysis *a, const uint32_t *c, uint64_t k, double pct)
{
	uint64_t top = (uint64_t)((long double)a->blocks * pct / 100 + 0.999999);
	uint64_t sum = 0;

	for (uint64_t i = 0; i < k && i < top; i++)
		sum += c[i];
	return a->ios ? 100.0 * (double)sum / (double)a->ios : 0;
}

/* Shares of the IOs on the hottest x % of all the blocks in the regions. */
static int heat_summarise(struct analysis *a)
{
	uint32_t *c = malloc((a->heat.distinct ? a->heat.distinct : 1) * sizeof(*c));
	uint64_t k = 0;

	if (!c)
		return -ENOMEM;
	for (uint64_t i = 0; i <= a->heat.mask; i++)
		if (a->heat.key[i])
			c[k++] = a->heat.count[i];
	qsort(c, k, sizeof(*c), cmp_desc);
	for (unsigned h = 0; h < NHOT; h++)
		a->hot[h] = hottest_share(a, c, k, hot_pcts[h]);
	for (unsigned h = 0; h < NCURVE; h++) {
		a->curve_x[h] = curve_pcts[h];
		a->curve_y[h] = hottest_share(a, c, k, curve_pcts[h]);
	}
	free(c);
	return 0;
}

static void count_size(struct analysis *a, unsigned d, uint32_t bs)
{
	for (unsigned i = 0; i < a->nsizes[d]; i++) {
		if (a->sizes[d][i].bs == bs) {
			a->sizes[d][i].ios++;
			return;
		}
	}
	if (a->nsizes[d] == SIZES_MAX) {
		a->other_sizes[d]++;
		return;
	}
	a->sizes[d][a->nsizes[d]++] = (struct size_count){ bs, 1 };
}

/* The heat map: which offset row (stacked regions, bottom up) and IO-number column an IO falls in. */
static void grid_add(struct analysis *a, const struct io_u *io)
{
	const struct target_file *f = &a->plan->files[io->file];
	uint64_t col = (uint64_t)((unsigned __int128)a->done++ * GRID_COLS / (a->nios ? a->nios : 1));
	uint64_t at = a->base[io->file] + (io->offset >= f->start ? io->offset - f->start : 0);
	uint64_t row = a->span ? (uint64_t)((unsigned __int128)at * GRID_ROWS / a->span) : 0;

	a->grid[row < GRID_ROWS ? row : GRID_ROWS - 1][col < GRID_COLS ? col : GRID_COLS - 1]++;
}

/* Cache size i of the LRU curve, in blocks (at least one). */
static uint64_t lru_blocks(const struct analysis *a, unsigned i)
{
	uint64_t b = (uint64_t)((double)a->blocks * lru_pcts[i] / 100 + 0.5);

	return b ? b : 1;
}

static void count(struct analysis *a, const struct io_u *io)
{
	unsigned d = io->op;

	a->ios++;
	a->bytes += io->len;
	a->dir_ios[d]++;
	a->dir_bytes[d] += io->len;
	a->stream_ios[io->stream][d]++;
	a->stream_bytes[io->stream][d] += io->len;
	count_size(a, d, io->len);
	heat_add(&a->heat, (uint64_t)io->file << 48 | io->offset / a->unit);
	a->lru_err = a->lru_err ? a->lru_err : lru_access(&a->lru, (uint64_t)io->file << 48 | io->offset / a->unit);
	grid_add(a, io);
}

static int analysis_init(struct analysis *a, const struct job *job, const struct target_plan *plan,
			 uint64_t nios)
{
	unsigned ns = job->nstreams ? job->nstreams : 1;

	memset(a, 0, sizeof(*a));
	a->unit = cfill_unit(job);
	a->plan = plan;
	a->nios = nios;
	a->base = calloc(plan->nfiles ? plan->nfiles : 1, sizeof(*a->base));
	if (!a->base)
		return -ENOMEM;
	for (unsigned f = 0; f < plan->nfiles; f++) {
		a->blocks += plan->files[f].size / a->unit;
		a->base[f] = a->span;
		a->span += plan->files[f].size;
	}
	a->stream_ios = calloc(ns, sizeof(*a->stream_ios));
	a->stream_bytes = calloc(ns, sizeof(*a->stream_bytes));
	if (!a->stream_ios || !a->stream_bytes)
		return -ENOMEM;
	if (lru_init(&a->lru, a->blocks, false))
		return -ENOMEM;
	return heat_init(&a->heat, nios);
}

static void analysis_release(struct analysis *a)
{
	free(a->stream_ios);
	free(a->stream_bytes);
	free(a->base);
	free(a->heat.key);
	free(a->heat.count);
	lru_release(&a->lru);
}

static int cmp_size(const void *a, const void *b)
{
	const struct size_count *x = a, *y = b;

	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* Generates nios IOs of the job's first clone into a; with iolog, records them in its write_iolog. */
static int generate(const struct job *job, uint64_t nios, bool iolog, struct analysis *a,
		    struct iowl_err *err)
{
	const char *path = iolog ? job->o.write_iolog : NULL;
	struct iolog_w log = { .fd = -1 };
	struct target_plan plan;
	struct gen *g = NULL;
	int ret;

	ret = target_plan(job, 0, &plan, err);
	if (ret)
		return ret;
	ret = analysis_init(a, job, &plan, nios);
	if (ret) {
		err_nomem(err, "out of memory for %" PRIu64 " IOs", nios);
		goto out;
	}
	g = gen_new(job, 0, 0, &plan, err);
	if (!g) {
		ret = -EINVAL;
		goto out;
	}
	plan.lazy = false; /* openfiles: nothing is opened here; the log opens every file first */
	if (path) {
		ret = iolog_begin(job->o.name, path, true, &plan, err);
		if (!ret)
			ret = iolog_w_open(&log, job->o.name, path, err);
		if (ret)
			goto out;
	}
	for (uint64_t i = 0; i < nios; i++) {
		struct io_u io = { 0 };

		if (gen_pass_done(g))	/* as a run's next loop (or time_based pass) would */
			gen_restart(g);
		gen_next(g, &io);
		count(a, &io);
		if (log.fd >= 0)
			iolog_w_add(&log, plan.files[io.file].path, io.op, io.offset, io.len);
	}
	if (path)
		ret = iolog_w_close(&log, job->o.name, path, err);
	if (!ret && path)
		ret = iolog_end(job->o.name, path, &plan, err);
	if (!ret && (heat_summarise(a) || a->lru_err))
		ret = err_nomem(err, "out of memory");
	for (unsigned d = 0; d < DDIR_NR; d++)
		qsort(a->sizes[d], a->nsizes[d], sizeof(a->sizes[d][0]), cmp_size);
out:
	if (log.buf)
		iolog_w_close(&log, job->o.name, path, &(struct iowl_err){ "" });
	gen_free(g);
	target_plan_release(&plan);
	return ret;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static const char *stream_name(const struct job *job, unsigned i)
{
	return job->nstreams ? job->streams[i].name : job->o.name;
}

static void text_sizes(FILE *f, const struct analysis *a, unsigned d)
{
	fprintf(f, "  %-6s sizes  :", ddir_name(d));
	for (unsigned i = 0; i < a->nsizes[d]; i++)
		fprintf(f, " %u=%.2f%%", a->sizes[d][i].bs, pct(a->sizes[d][i].ios, a->dir_ios[d]));
	if (a->other_sizes[d])
		fprintf(f, " other=%.2f%%", pct(a->other_sizes[d], a->dir_ios[d]));
	fputc('\n', f);
}

static void text_report(FILE *f, const struct job *job, const struct analysis *a)
{
	unsigned ns = job->nstreams ? job->nstreams : 1;

	fprintf(f, "%s: %" PRIu64 " IOs generated, none issued (%" PRIu64 " bytes)\n", job->o.name,
		a->ios, a->bytes);
	fputs("  streams      : share of IOs, share of bytes, reads\n", f);
	for (unsigned i = 0; i < ns; i++) {
		uint64_t n = a->stream_ios[i][0] + a->stream_ios[i][1] + a->stream_ios[i][2];
		uint64_t b = a->stream_bytes[i][0] + a->stream_bytes[i][1] + a->stream_bytes[i][2];

		fprintf(f, "     %-14s: %6.2f%% IOs, %6.2f%% bytes, %6.2f%% reads\n",
			stream_name(job, i), pct(n, a->ios), pct(b, a->bytes),
			pct(a->stream_ios[i][0], n));
	}
	for (unsigned d = 0; d < DDIR_NR; d++) {
		if (!a->dir_ios[d])
			continue;
		fprintf(f, "  %-6s       : %6.2f%% IOs, %6.2f%% bytes\n", ddir_name(d),
			pct(a->dir_ios[d], a->ios), pct(a->dir_bytes[d], a->bytes));
		text_sizes(f, a, d);
	}
	fprintf(f, "  concentration: blocks of %u bytes, %" PRIu64 " in the region\n", a->unit,
		a->blocks);
	fputs("     IOs on the hottest", f);
	for (unsigned h = 0; h < NHOT; h++)
		fprintf(f, " %g%%=%.2f%%", hot_pcts[h], a->hot[h]);
	fprintf(f, "\n     distinct blocks touched: %" PRIu64 " (%.2f%% of the region)\n",
		a->heat.distinct, pct(a->heat.distinct, a->blocks));
	if (a->lru.rate < 1)
		fprintf(f, "  LRU hit ratio (SHARDS, %g%% of the blocks sampled) by cache size in %% of the region:\n    ",
			100 * a->lru.rate);
	else
		fputs("  LRU hit ratio (exact stack distances) by cache size in % of the region:\n    ", f);
	for (unsigned i = 0; i < NLRU; i++)
		fprintf(f, " %g%%=%.2f%%", lru_pcts[i], 100 * lru_hit_ratio(&a->lru, lru_blocks(a, i)));
	fputc('\n', f);
}

/* The LRU curve: method, sampling rate, and the hit ratio at cache sizes in % of the region. */
static json_t *json_lru(const struct analysis *a)
{
	json_t *pts = json_array();

	for (unsigned i = 0; pts && i < NLRU; i++)
		json_array_append_new(pts, json_pack("{s:f, s:I, s:I, s:f}", "cache_pct", lru_pcts[i],
						     "blocks", (json_int_t)lru_blocks(a, i), "bytes",
						     (json_int_t)(lru_blocks(a, i) * a->unit), "hit_ratio",
						     lru_hit_ratio(&a->lru, lru_blocks(a, i))));
	return json_pack("{s:s, s:f, s:I, s:I, s:I, s:o}", "method", a->lru.rate < 1 ? "shards" : "exact",
			 "sampling_rate", a->lru.rate, "block_size", (json_int_t)a->unit,
			 "accesses_sampled", (json_int_t)a->lru.accesses, "cold_misses_sampled",
			 (json_int_t)a->lru.cold, "points", pts);
}

static json_t *json_dir(const struct analysis *a, unsigned d)
{
	json_t *sizes = json_object();
	char key[16];

	for (unsigned i = 0; sizes && i < a->nsizes[d]; i++) {
		snprintf(key, sizeof(key), "%u", a->sizes[d][i].bs);
		json_object_set_new(sizes, key, json_integer((json_int_t)a->sizes[d][i].ios));
	}
	if (sizes && a->other_sizes[d])
		json_object_set_new(sizes, "other", json_integer((json_int_t)a->other_sizes[d]));
	return json_pack("{s:I, s:I, s:o}", "ios", (json_int_t)a->dir_ios[d], "bytes",
			 (json_int_t)a->dir_bytes[d], "sizes", sizes);
}

/* The concentration curve: [{"blocks_pct", "ios_pct"}, ...], hottest blocks first. */
static json_t *json_curve(const struct analysis *a)
{
	json_t *c = json_array();

	for (unsigned i = 0; c && i < NCURVE; i++)
		json_array_append_new(c, json_pack("{s:f, s:f}", "blocks_pct", a->curve_x[i], "ios_pct",
						   a->curve_y[i]));
	return c;
}

/* The heat map: IOs per cell, rows of offsets (row 0: the regions' start) by IO-number columns. */
static json_t *json_grid(const struct analysis *a)
{
	json_t *rows = json_array();

	for (unsigned r = 0; rows && r < GRID_ROWS; r++) {
		json_t *row = json_array();

		for (unsigned c = 0; row && c < GRID_COLS; c++)
			json_array_append_new(row, json_integer(a->grid[r][c]));
		json_array_append_new(rows, row);
	}
	return json_pack("{s:i, s:i, s:I, s:I, s:o}", "rows", GRID_ROWS, "cols", GRID_COLS, "bytes",
			 (json_int_t)a->span, "ios_per_col",
			 (json_int_t)((a->ios + GRID_COLS - 1) / GRID_COLS), "counts", rows);
}

static json_t *json_report(const struct job *job, const struct analysis *a)
{
	unsigned ns = job->nstreams ? job->nstreams : 1;
	json_t *streams = json_array(), *hot = json_object();
	char key[16];

	for (unsigned i = 0; streams && i < ns; i++) {
		json_t *s = json_pack("{s:s, s:{s:I, s:I}, s:{s:I, s:I}, s:{s:I, s:I}}",
				      "name", stream_name(job, i),
				      "read", "ios", (json_int_t)a->stream_ios[i][0], "bytes",
				      (json_int_t)a->stream_bytes[i][0],
				      "write", "ios", (json_int_t)a->stream_ios[i][1], "bytes",
				      (json_int_t)a->stream_bytes[i][1],
				      "trim", "ios", (json_int_t)a->stream_ios[i][2], "bytes",
				      (json_int_t)a->stream_bytes[i][2]);

		json_array_append_new(streams, s);
	}
	for (unsigned h = 0; hot && h < NHOT; h++) {
		snprintf(key, sizeof(key), "%g", hot_pcts[h]);
		json_object_set_new(hot, key, json_real(a->hot[h]));
	}
	return json_pack("{s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:{s:I, s:I, s:I, s:o, s:o}, s:o, s:o}",
			 "jobname", job->o.name, "ios", (json_int_t)a->ios, "bytes",
			 (json_int_t)a->bytes, "streams", streams, "read", json_dir(a, 0),
			 "write", json_dir(a, 1), "trim", json_dir(a, 2), "concentration",
			 "block_size", (json_int_t)a->unit, "blocks", (json_int_t)a->blocks,
			 "distinct_blocks", (json_int_t)a->heat.distinct, "hottest_pct", hot,
			 "curve", json_curve(a), "heatmap", json_grid(a), "lru", json_lru(a));
}

int analyze_job(const struct job *job, uint64_t nios, bool iolog, FILE *text, json_t *arr,
		struct iowl_err *err)
{
	struct analysis a = { 0 };
	int ret = generate(job, nios, iolog, &a, err);

	if (!ret && arr)
		json_array_append_new(arr, json_report(job, &a));
	if (!ret && text)
		text_report(text, job, &a);
	analysis_release(&a);
	return ret;
}

json_t *analyze_json(const struct job *jobs, unsigned njobs, uint64_t nios)
{
	json_t *root = json_pack("{s:s, s:I, s:[]}", "iowl version", "iowl-" IOWL_VERSION,
				 "ios_per_job", (json_int_t)nios, "analysis");

	for (unsigned j = 0; root && j < njobs;
	     j++) /* a job that cannot be generated is left out */
		analyze_job(&jobs[j], nios, false, NULL, json_object_get(root, "analysis"),
			    &(struct iowl_err){ "" });
	return root;
}
