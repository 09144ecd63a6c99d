/* SPDX-License-Identifier: MIT */
/* Block-index distributions over a region: uniform, zipf, pareto, normal, zoned, hot band. */
#ifndef IOWL_PATTERN_DIST_H
#define IOWL_PATTERN_DIST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "iowl/pattern/alias.h"
#include "iowl/pattern/hotband.h"
#include "iowl/pattern/normal.h"
#include "iowl/pattern/perm.h"
#include "iowl/pattern/rng.h"
#include "iowl/pattern/zipf.h"

#define DIST_MAX_ZONES 256
#define DIST_WHY_LEN   256 /* size of the why buffers below */
#define DIST_MAX_N     PERM_MAX_N

/* fio's defaults when the parameter is left out */
#define DIST_ZIPF_THETA 1.1
#define DIST_PARETO_H	0.2
#define DIST_NORMAL_DEV 0.0

/*
 * What each type draws (n blocks; "rank" 0 is the hottest; see dist_init() for placement):
 *  - random: uniform over [0, n).
 *  - zipf:theta: rank k - 1 with probability k^-theta / H(n, theta), exactly, any theta > 0.
 *  - pareto:h: fio's rank floor(n * u^p), p = ln(h) / ln(1 - h), so h = 0.8 and h = 0.2 both
 *    put 80 % of the IOs on 20 % of the ranks (the shapes differ elsewhere); for h > 0.5 fio's
 *    hottest ranks are the highest, so the rank is turned around to keep rank 0 the hottest.
 *  - normal:dev: fio's law (lib/gauss.c): rank ceil(sum of 12 uniform draws in [0, n] / 12),
 *    a bell of standard deviation n / 12 (8.3 %) around n / 2; for dev > 0 plus a uniform
 *    jitter ceil(n * dev / 100) blocks wide (at most n / 2) centred on 0, halved until the rank
 *    is inside the region, for a total of about n * sqrt(1/144 + (dev/100)^2 / 12) (normal:10
 *    8.8 %).  center rotates the bell (it wraps around the region, as fio's does).  Unlike
 *    fio's 32-bit draws, regions beyond 2^32 blocks keep the bell (fio's stops near 2^31).
 *  - normal_sd:dev: iowl's own normal law: a position of mean center * n (n / 2 without
 *    center) and standard deviation dev % of n (dev 0: n / 12); draws outside [0, n) are drawn
 *    again, so the bell is truncated, not wrapped.
 *  - zoned / zoned_abs: a zone by its access share (alias table), then a uniform block in it;
 *    zones are laid out from block 0 in order, boundaries rounded down to whole blocks.
 *  - hotband: vdbench's hot-band curve over the region (struct hotband); never scattered,
 *    center rotates it (vdbench moves writes by 1 % of the band: use hotband:0.01 for them).
 */
enum dist_type {
	DIST_UNIFORM = 0, /* random */
	DIST_ZIPF,	  /* zipf:theta[:center] */
	DIST_PARETO,	  /* pareto:h[:center] */
	DIST_NORMAL,	  /* normal:dev[:center], alias gauss */
	DIST_ZONED,	  /* zoned:access/size%:... */
	DIST_ZONED_ABS,	  /* zoned_abs:access/bytes:... */
	DIST_HOTBAND,	  /* hotband[:center] */
	DIST_NORMAL_SD,	  /* normal_sd:sd%[:center], iowl's normal law */
};

/* One zone: its share of the IOs in percent, and its size in percent (zoned) or bytes. */
struct dist_zone {
	double access;
	double size;
};

/*
 * The parsed form of one direction's random_distribution.  center, when has_center is set,
 * is where the hottest block goes, as a fraction of the region (see dist_init()).
 */
struct dist_spec {
	enum dist_type type;
	double param; /* zipf theta, pareto h, normal / normal_sd dev (% of the region) */
	double center;
	bool has_center;
	bool contiguous; /* keep the hot set packed instead of scattering it */
	unsigned nzones;
	bool rest_zone;	 /* the last zoned zone gave no size: it takes the rest (while parsing) */
	struct dist_zone zones[DIST_MAX_ZONES];
};

struct dist_pareto {
	double p;    /* ln(h) / ln(1 - h) */
	double nd;   /* n as a double */
	bool mirror; /* h > 0.5: fio's hottest ranks are the highest */
};

/* fio's normal: 12 uniform draws in [0, span) and a jitter of width jitter blocks. */
struct dist_gauss {
	uint64_t span;	 /* n + 1 */
	uint64_t jitter; /* 0: none */
};

struct dist_normal {
	double mu;    /* mean position, in blocks */
	double sigma; /* standard deviation, in blocks */
	double nd;
	struct normal zig;
};

struct dist_zoned {
	struct alias pick;
	uint64_t start[DIST_MAX_ZONES];
	uint64_t len[DIST_MAX_ZONES];
};

/*
 * A distribution ready to sample.  Everything is computed by dist_init(); dist_next() only
 * reads it, so one struct dist may serve several threads (each with its own struct rng).
 */
struct dist {
	enum dist_type type;
	bool scatter; /* map ranks through perm */
	uint64_t n;
	uint64_t shift; /* rotation applied after the mapping: places the hottest block */
	struct perm perm;
	union {
		struct zipf zipf;
		struct dist_pareto pareto;
		struct dist_normal normal;
		struct dist_gauss gauss;
		struct dist_zoned zoned;
		struct hotband hotband;
	};
};

/* Formats a message into why (DIST_WHY_LEN bytes, may be NULL).  Returns -EINVAL. */
int dist_why(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Returns the name used in the job file ("random", "zipf", ...). */
const char *dist_type_name(enum dist_type type);

/*
 * Parses one direction of fio's random_distribution syntax into *out: random, zipf[:theta
 * [:center]], pareto[:h[:center]], normal[:dev[:center]] (alias gauss), zoned:a/s[:a/s...]
 * (s in percent of the region), zoned_abs:a/size[:...] (size with k/m/g/t/p suffixes, base
 * 1024) and hotband[:center].  Leaves contiguous false.  Returns 0, or -EINVAL with a
 * message in why (DIST_WHY_LEN bytes, no "iowl:" prefix, no final period).
 */
int dist_spec_parse(const char *s, struct dist_spec *out, char *why);

/*
 * Checks a spec's values (parameter ranges, zone totals); dist_spec_parse() and dist_init()
 * call it.  Returns 0, or -EINVAL with a message in why.
 */
int dist_spec_check(const struct dist_spec *spec, char *why);

/*
 * The exact law of fio's normal:dev rank (lib/gauss.c) over n blocks: the mean of 12 uniform
 * draws in [0, n] rounded up, plus a uniform jitter of ceil(n * dev / 100) blocks (at most
 * n / 2) centred on 0 and halved until the rank is inside the region.  Writes p[0..n) (the
 * rank fio could give as n, once in (n + 1)^12 draws, is counted in p[n - 1]).  For tests and
 * previews: O(n * jitter) time and 12 n doubles of memory.  Returns 0, or -EINVAL for n == 0
 * or n > DIST_NORMAL_LAW_MAX, or -ENOMEM.
 */
#define DIST_NORMAL_LAW_MAX (1U << 20)
int dist_normal_law(uint64_t n, double dev, double *p);

/*
 * Prepares d to draw block indexes in [0, nblocks) as spec says; block_size (bytes per block)
 * scales zoned_abs sizes and the hot-band curve, and seed keys the scatter permutation.
 *
 * zipf, pareto and normal first draw a rank; unless spec->contiguous, ranks are mapped to
 * blocks by a keyed bijection (struct perm), so the hot set is scattered but every block can
 * be reached.  With has_center the mapping is then rotated so that the hottest rank lands on
 * block floor(center * nblocks) (capped at nblocks - 1); with contiguous the hot set starts
 * there and wraps.  Returns 0, or -EINVAL with a message in why.
 */
int dist_init(struct dist *d, const struct dist_spec *spec, uint64_t nblocks, uint64_t block_size,
	      uint64_t seed, char *why);

/* Maps a rank to its block: the permutation (unless contiguous), then the rotation. */
static inline uint64_t dist_place(const struct dist *d, uint64_t rank)
{
	uint64_t b = d->scatter ? perm_apply(&d->perm, rank) : rank;

	b += d->shift;
	return b >= d->n ? b - d->n : b;
}

/* fio's pareto rank floor(n * u^p), turned around when needed so that rank 0 is the hottest. */
static inline uint64_t dist_pareto_rank(const struct dist_pareto *pa, uint64_t n, struct rng *r)
{
	uint64_t k = (uint64_t)(exp(pa->p * log(rng_unit(r))) * pa->nd);

	if (k >= n)
		k = n - 1;
	return pa->mirror ? n - 1 - k : k;
}

/*
 * fio's normal rank in [0, n): the rounded-up mean of 12 uniform draws in [0, n], then the
 * jitter, halved towards 0 until the rank is inside.  Twelve 32-bit draws come from six
 * 64-bit numbers (a multiply each, as fio's modulo but without its bias) while n < 2^32.
 */
static inline uint64_t dist_gauss_rank(const struct dist_gauss *g, uint64_t n, struct rng *r)
{
	uint64_t k, sum = 0;
	int64_t j;

	if (g->span <= 1ULL << 32) {
		for (int i = 0; i < 6; i++) {
			uint64_t x = rng_next(r);

			sum += ((x & 0xffffffffULL) * g->span) >> 32;
			sum += ((x >> 32) * g->span) >> 32;
		}
		k = (sum + 11) / 12;
	} else {
		unsigned __int128 big = 0;

		for (int i = 0; i < 12; i++)
			big += rng_below(r, g->span);
		k = (uint64_t)((big + 11) / 12);
	}
	if (g->jitter) {
		j = (int64_t)rng_below(r, g->jitter) - (int64_t)(g->jitter / 2);
		while (j && ((j < 0 && (uint64_t)-j > k) || (j > 0 && k + (uint64_t)j >= n)))
			j /= 2;
		k += (uint64_t)j;
	}
	return k < n ? k : n - 1;
}

/* A normal_sd position in [0, n): draws outside the region are drawn again. */
static inline uint64_t dist_normal_pos(const struct dist_normal *g, uint64_t n, struct rng *r)
{
	double x;
	uint64_t k;

	do
		x = g->mu + g->sigma * normal_next(&g->zig, r);
	while (!(x >= 0.0 && x < g->nd));
	k = (uint64_t)x;
	return k < n ? k : n - 1;
}

/* A zone by its access share, then a uniform block inside it. */
static inline uint64_t dist_zoned_next(const struct dist_zoned *z, struct rng *r)
{
	unsigned i = alias_pick(&z->pick, r);

	return z->start[i] + rng_below(r, z->len[i]);
}

/* Returns the next block index in [0, n). */
static inline uint64_t dist_next(const struct dist *d, struct rng *r)
{
	switch (d->type) {
	case DIST_UNIFORM:
		return rng_below(r, d->n);
	case DIST_ZIPF:
		return dist_place(d, zipf_next(&d->zipf, r) - 1);
	case DIST_PARETO:
		return dist_place(d, dist_pareto_rank(&d->pareto, d->n, r));
	case DIST_NORMAL:
		return dist_place(d, dist_gauss_rank(&d->gauss, d->n, r));
	case DIST_NORMAL_SD:
		return dist_place(d, dist_normal_pos(&d->normal, d->n, r));
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return dist_zoned_next(&d->zoned, r);
	case DIST_HOTBAND:
		return dist_place(d, hotband_next(&d->hotband, r));
	}
	return 0;
}

#define DIST_BATCH 16

/*
 * Fills out[0..DIST_BATCH) with the next block indexes, each drawn as dist_next() draws it (the
 * same law; the random numbers are consumed in the same order when only this distribution reads
 * r).  Drawing the ranks first and placing them after keeps the two apart: the rank loops
 * branch (zipf's head or tail, rejection), the placement does not, and its permutation is a
 * chain of eight dependent multiplies per block that the CPU can run for sixteen independent
 * blocks at once, where one block per IO leaves it waiting on each chain in turn.
 */
static inline void dist_fill(const struct dist *d, struct rng *r, uint64_t *out)
{
	unsigned i;

	switch (d->type) {
	case DIST_ZIPF:
		for (i = 0; i < DIST_BATCH; i++)
			out[i] = zipf_next(&d->zipf, r) - 1;
		break;
	case DIST_PARETO:
		for (i = 0; i < DIST_BATCH; i++)
			out[i] = dist_pareto_rank(&d->pareto, d->n, r);
		break;
	case DIST_NORMAL:
		for (i = 0; i < DIST_BATCH; i++)
			out[i] = dist_gauss_rank(&d->gauss, d->n, r);
		break;
	case DIST_NORMAL_SD:
		for (i = 0; i < DIST_BATCH; i++)
			out[i] = dist_normal_pos(&d->normal, d->n, r);
		break;
	case DIST_HOTBAND:
		for (i = 0; i < DIST_BATCH; i++)
			out[i] = hotband_next(&d->hotband, r);
		break;
	default:
		for (i = 0; i < DIST_BATCH; i++)
			out[i] = dist_next(d, r);
		return;
	}
	for (i = 0; i < DIST_BATCH; i++)
		out[i] = dist_place(d, out[i]);
}

#endif
