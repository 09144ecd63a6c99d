// SPDX-License-Identifier: MIT
/* Validation and set-up of the block-index distributions. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/pattern/dist.h"

/* Slack for sums of decimal percentages such as 33.3 + 33.3 + 33.4. */
#define DIST_PCT_EPS 1e-9

static const char *const dist_names[] = {
	[DIST_UNIFORM] = "random",  [DIST_ZIPF] = "zipf",   [DIST_PARETO] = "pareto",
	[DIST_NORMAL] = "normal",   [DIST_ZONED] = "zoned", [DIST_ZONED_ABS] = "zoned_abs",
	[DIST_HOTBAND] = "hotband", [DIST_NORMAL_SD] = "normal_sd",
};

const char *dist_type_name(enum dist_type type)
{
	if ((unsigned)type >= sizeof(dist_names) / sizeof(dist_names[0]))
		return "unknown";
	return dist_names[type];
}

int dist_why(char *why, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why, DIST_WHY_LEN, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int dist_check_param(const struct dist_spec *s, char *why)
{
	double v = s->param;

	switch (s->type) {
	case DIST_ZIPF:
		if (!isfinite(v) || !(v > 0))
			return dist_why(why, "zipf theta must be > 0, got %g", v);
		break;
	case DIST_PARETO:
		if (!(v > 0 && v < 1))
			return dist_why(why, "pareto h must be > 0 and < 1, got %g", v);
		break;
	case DIST_NORMAL:
	case DIST_NORMAL_SD:
		if (!(v >= 0 && v < 100))
			return dist_why(why, "%s dev must be >= 0 and < 100, got %g",
					dist_type_name(s->type), v);
		break;
	default:
		break;
	}
	if (s->has_center && !(s->center >= 0 && s->center <= 1))
		return dist_why(why, "center must be between 0 and 1, got %g", s->center);
	return 0;
}

static int dist_check_zones(const struct dist_spec *s, char *why)
{
	const char *name = dist_type_name(s->type);
	double acc = 0, size = 0;
	unsigned i;

	if (s->nzones == 0)
		return dist_why(why, "%s needs at least one access/size zone", name);
	if (s->nzones > DIST_MAX_ZONES)
		return dist_why(why, "%s has %u zones, at most %d are allowed", name, s->nzones,
				DIST_MAX_ZONES);
	for (i = 0; i < s->nzones; i++) {
		const struct dist_zone *z = &s->zones[i];

		if (!(z->access >= 0 && z->access <= 100))
			return dist_why(why, "%s zone %u: access must be between 0 and 100, got %g",
					name, i + 1, z->access);
		if (s->type == DIST_ZONED && !(z->size > 0 && z->size <= 100))
			return dist_why(why, "%s zone %u: size must be > 0 and at most 100, got %g",
					name, i + 1, z->size);
		if (s->type == DIST_ZONED_ABS && !(z->size >= 1 && z->size < 0x1p63))
			return dist_why(why, "%s zone %u: size must be at least 1 byte, got %g",
					name, i + 1, z->size);
		acc += z->access;
		size += z->size;
	}
	if (fabs(acc - 100) > DIST_PCT_EPS)
		return dist_why(why, "%s access percentages total %g, must be 100", name, acc);
	if (s->type == DIST_ZONED && size > 100 + DIST_PCT_EPS)
		return dist_why(why, "zoned sizes total %g%%, must be at most 100", size);
	return 0;
}

int dist_spec_check(const struct dist_spec *spec, char *why)
{
	switch (spec->type) {
	case DIST_UNIFORM:
	case DIST_HOTBAND:
	case DIST_ZIPF:
	case DIST_PARETO:
	case DIST_NORMAL:
	case DIST_NORMAL_SD:
		return dist_check_param(spec, why);
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return dist_check_zones(spec, why);
	}
	return dist_why(why, "unknown distribution type %d", (int)spec->type);
}

/* Block where the hottest rank goes: floor(center * n), at most n - 1. */
static uint64_t dist_target(const struct dist_spec *spec, uint64_t n)
{
	double t = spec->center * (double)n;

	if (!spec->has_center)
		return 0;
	return t >= (double)(n - 1) ? n - 1 : (uint64_t)t;
}

/* Rotation so that rank hot maps to block target. */
static uint64_t dist_rotation(const struct dist *d, uint64_t hot, uint64_t target)
{
	uint64_t m = d->scatter ? perm_apply(&d->perm, hot) : hot;

	return target >= m ? target - m : target + (d->n - m);
}

/* The jitter of fio's normal:dev: ceil(n * dev / 100) blocks wide, at most n / 2. */
static uint64_t normal_jitter_width(uint64_t n, double dev)
{
	double s = ceil((double)n * dev / 100.0);

	if (!(dev > 0))
		return 0;
	return s >= (double)(n / 2) ? n / 2 : (uint64_t)s;
}

static void dist_normal_init(struct dist *d, const struct dist_spec *spec)
{
	struct dist_normal *g = &d->normal;

	g->nd = (double)d->n;
	g->mu = spec->has_center ? spec->center * g->nd : g->nd / 2;
	/* dev 0 is fio's own bell: the mean of 12 uniforms has a standard deviation of n / 12 */
	g->sigma = spec->param > 0 ? spec->param / 100 * g->nd : g->nd / 12;
	normal_init(&g->zig);
}

/* Lays the zones out from the start of the region and builds the alias table. */
static int dist_zoned_init(struct dist *d, const struct dist_spec *spec, uint64_t block_size,
			   char *why)
{
	struct dist_zoned *z = &d->zoned;
	double w[DIST_MAX_ZONES], pct = 0;
	uint64_t bytes = 0, start = 0, end;
	unsigned i;

	for (i = 0; i < spec->nzones; i++) {
		w[i] = spec->zones[i].access;
		if (spec->type == DIST_ZONED) {
			pct += spec->zones[i].size;
			end = pct >= 100 ? d->n : (uint64_t)(pct / 100 * (double)d->n);
			if (end > d->n)
				end = d->n;
		} else {
			if (__builtin_add_overflow(bytes, (uint64_t)spec->zones[i].size, &bytes) ||
			    bytes / block_size > d->n)
				return dist_why(why,
						"zoned_abs zones 1 to %u exceed the region of "
						"%llu blocks of %llu bytes",
						i + 1, (unsigned long long)d->n,
						(unsigned long long)block_size);
			end = bytes / block_size;
		}
		z->start[i] = start;
		z->len[i] = end - start;
		if (w[i] > 0 && z->len[i] == 0)
			return dist_why(why, "%s zone %u holds no whole block",
					dist_type_name(spec->type), i + 1);
		start = end;
	}
	return alias_init(&z->pick, w, spec->nzones)
		       ? dist_why(why, "%s zone weights are invalid", dist_type_name(spec->type))
		       : 0;
}

/* Sets up the rank sampler of zipf, pareto and normal, and their placement. */
static void dist_ranked_init(struct dist *d, const struct dist_spec *spec, uint64_t seed)
{
	uint64_t hot = 0;

	d->scatter = !spec->contiguous;
	if (spec->type == DIST_ZIPF) {
		zipf_init(&d->zipf, d->n, spec->param);
	} else if (spec->type == DIST_PARETO) {
		d->pareto.p = log(spec->param) / log(1 - spec->param);
		d->pareto.nd = (double)d->n;
		d->pareto.mirror = spec->param > 0.5;
	} else if (spec->type == DIST_NORMAL) {
		/* fio's bell peaks mid-region; center rotates it there, scattered or not */
		d->gauss.span = d->n + 1;
		d->gauss.jitter = normal_jitter_width(d->n, spec->param);
		hot = d->n / 2;
	} else {
		dist_normal_init(d, spec);
		/* the bell is already centred on its target: only scattering can move it */
		hot = d->normal.mu >= (double)(d->n - 1) ? d->n - 1 : (uint64_t)d->normal.mu;
		if (!d->scatter)
			return;
	}
	perm_init(&d->perm, d->n, seed);
	if (spec->has_center)
		d->shift = dist_rotation(d, hot, dist_target(spec, d->n));
}

int dist_init(struct dist *d, const struct dist_spec *spec, uint64_t nblocks, uint64_t block_size,
	      uint64_t seed, char *why)
{
	int ret = dist_spec_check(spec, why);

	if (ret)
		return ret;
	if (nblocks == 0 || nblocks > DIST_MAX_N)
		return dist_why(why, "%s needs a region of 1 to 2^63 blocks, got %llu",
				dist_type_name(spec->type), (unsigned long long)nblocks);
	if (block_size == 0)
		return dist_why(why, "block size must be > 0");
	memset(d, 0, sizeof(*d));
	d->type = spec->type;
	d->n = nblocks;
	switch (spec->type) {
	case DIST_UNIFORM:
		return 0;
	case DIST_ZIPF:
	case DIST_PARETO:
	case DIST_NORMAL:
	case DIST_NORMAL_SD:
		dist_ranked_init(d, spec, seed);
		return 0;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return dist_zoned_init(d, spec, block_size, why);
	case DIST_HOTBAND:
		if (hotband_init(&d->hotband, nblocks, block_size))
			return dist_why(why, "hotband region of %llu blocks is too large",
					(unsigned long long)nblocks);
		d->shift = dist_target(spec, nblocks);
		return 0;
	}
	return 0;
}

/* fio's fold of a jittered rank: the jitter is halved (towards 0) until k + j is in [0, n). */
static uint64_t normal_fold(uint64_t n, uint64_t k, int64_t j)
{
	while ((j < 0 && (uint64_t)-j > k) || (j >= 0 && k + (uint64_t)j >= n)) {
		if (!j)
			return n - 1;	/* k == n without jitter: counted as the last block */
		j /= 2;
	}
	return k + (uint64_t)j;
}

int dist_normal_law(uint64_t n, double dev, double *p)
{
	uint64_t m = 12 * n + 1, s = normal_jitter_width(n, dev);
	double *q, *t;

	if (!n || n > DIST_NORMAL_LAW_MAX)
		return -EINVAL;
	q = calloc(m, sizeof(*q));
	t = calloc(m + 1, sizeof(*t));
	if (!q || !t) {
		free(q);
		free(t);
		return -ENOMEM;
	}
	/* the sum of 12 uniform draws in [0, n]: each step a moving window over prefix sums */
	q[0] = 1;
	for (unsigned d = 0; d < 12; d++) {
		for (uint64_t i = 0; i < m; i++)
			t[i + 1] = t[i] + q[i];
		for (uint64_t i = 0; i < m; i++)
			q[i] = (t[i + 1] - (i >= n + 1 ? t[i - n] : 0)) / (double)(n + 1);
	}
	memset(p, 0, n * sizeof(*p));
	for (uint64_t k = 0; k <= n; k++) {
		/* rank k = ceil(sum / 12): sums 12k - 11 .. 12k */
		double pk = 0;

		for (uint64_t v = k ? 12 * k - 11 : 0; v <= 12 * k; v++)
			pk += q[v];
		if (!s) {
			p[k < n ? k : n - 1] += pk;
			continue;
		}
		for (uint64_t v = 0; v < s; v++)
			p[normal_fold(n, k, (int64_t)v - (int64_t)(s / 2))] += pk / (double)s;
	}
	free(q);
	free(t);
	return 0;
}
