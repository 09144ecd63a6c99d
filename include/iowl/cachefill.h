/* SPDX-License-Identifier: MIT */
/*
 * Cache fill: how many distinct blocks of its region a worker has touched.  A block is the
 * job's smallest block size; an IO counts for the block it starts in (as --analyze).  Up to a
 * limit (--cache-fill-exact, in blocks) one bit per block gives the exact count; above it a
 * HyperLogLog sketch of 2^14 one-byte registers estimates it with a relative standard error of
 * 1.04 / sqrt(2^14) = 0.81 %.  Per IO: a shift, an add and a bit test-and-set (or a hash and a
 * byte max), in memory of the worker's own.
 */
#ifndef IOWL_CACHEFILL_H
#define IOWL_CACHEFILL_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/stats.h"

#define CFILL_HLL_BITS 14
#define CFILL_HLL_M (1U << CFILL_HLL_BITS)
#define CFILL_HLL_ERR_PCT 0.8125		/* 104 / sqrt(CFILL_HLL_M) */
#define CFILL_EXACT_DEFAULT (1ULL << 20)	/* blocks: a 128 KiB bitmap (4 GiB of 4 KiB blocks) */

struct target_plan;
struct job;

/* The block of a job's cache fill and heat map: its smallest block size over its directions. */
uint32_t cfill_unit(const struct job *job);

struct cfill {
	uint64_t *bits;			/* exact: one bit per block; NULL: the sketch */
	uint8_t *hll;			/* the sketch's registers (CFILL_HLL_M) */
	int64_t *base;			/* per file: its first block's index minus start / unit */
	uint64_t distinct;		/* exact count */
	uint64_t ios;
	uint64_t blocks;		/* in the regions */
	uint32_t unit;			/* block size */
	int shift;			/* log2(unit), -1: unit is not a power of two */
};

/*
 * Sets up f for the regions of plan, blocks of unit bytes, exact up to exact_max blocks.
 * Returns 0 or -ENOMEM.
 */
int cfill_init(struct cfill *f, const struct target_plan *plan, uint32_t unit, uint64_t exact_max);

static inline uint64_t cfill_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Counts an IO at offset of file (per IO: no call, no division when unit is a power of two). */
static inline void cfill_add(struct cfill *f, uint32_t file, uint64_t offset)
{
	uint64_t b = (uint64_t)f->base[file] + (f->shift >= 0 ? offset >> f->shift : offset / f->unit);

	f->ios++;
	if (f->bits) {
		uint64_t *w = &f->bits[b >> 6], m = 1ULL << (b & 63);

		if (b < f->blocks && !(*w & m)) {
			*w |= m;
			f->distinct++;
		}
	} else {
		uint64_t h = cfill_mix(b);
		unsigned i = (unsigned)(h >> (64 - CFILL_HLL_BITS));
		uint8_t r = (uint8_t)(__builtin_clzll((h << CFILL_HLL_BITS) | (1ULL << (CFILL_HLL_BITS - 1))) + 1);

		if (r > f->hll[i])
			f->hll[i] = r;
	}
}

/* The HyperLogLog estimate of registers r (CFILL_HLL_M of them), with linear counting when small. */
double cfill_hll_estimate(const uint8_t *r);

/* Writes f's figures into s. */
void cfill_publish(const struct cfill *f, struct cfill_stats *s);

/* The expected share of N blocks touched by n uniform random IOs: 1 - (1 - 1/N)^n ~ 1 - e^(-n/N). */
double cfill_expected(uint64_t n, uint64_t blocks);

void cfill_release(struct cfill *f);

#endif
