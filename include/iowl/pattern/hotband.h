/* SPDX-License-Identifier: MIT */
/* The vdbench / SNIA Emerald hot-band address curve as a distribution over one band of blocks. */
#ifndef IOWL_PATTERN_HOTBAND_H
#define IOWL_PATTERN_HOTBAND_H

#include <stdint.h>

#include "iowl/pattern/rng.h"

#define HOTBAND_KNOTS 29
#define HOTBAND_GUIDE 64
#define HOTBAND_MAX_N (1ULL << 62)

/*
 * vdbench's HotBand curve: a piecewise-linear inverse CDF that maps u ~ U(0, 1) to an offset
 * in MB (10^6 bytes) from the start of the band, with knots at 0, 16, 32, 64, ..., 2^30 and
 * 10 * 2^30 MB and cumulative probabilities 0, .0872, ..., .8176, 1.  The offset becomes a
 * block index at block_size and wraps modulo the band, so the curve's absolute scale makes
 * skew depend on the band's size (a 1 GB band is far less skewed than a 1 TB one).
 */
struct hotband {
	uint64_t n; /* blocks in the band */
	double inv_n;
	double p[HOTBAND_KNOTS];     /* cumulative probability at each knot */
	double a[HOTBAND_KNOTS - 1]; /* on segment i: block = a[i] + b[i] * u */
	double b[HOTBAND_KNOTS - 1];
	uint8_t guide[HOTBAND_GUIDE]; /* first segment that can hold u in each 1/64 */
};

/*
 * Sets up the curve over a band of n blocks of block_size bytes.  Returns 0, or -EINVAL when n
 * is 0 or above HOTBAND_MAX_N, or block_size is 0.
 */
int hotband_init(struct hotband *h, uint64_t n, uint64_t block_size);

/* Returns (floor(curve offset / block_size) mod n): block 0 is the hottest. */
static inline uint64_t hotband_next(const struct hotband *h, struct rng *r)
{
	double u = rng_unit(r);
	unsigned i = h->guide[(unsigned)(u * HOTBAND_GUIDE)];
	double x;
	uint64_t q, rec;
	int64_t rem;

	while (u >= h->p[i + 1])
		i++;
	x = h->a[i] + h->b[i] * u;
	if (x < 0.0)
		x = 0.0;
	rec = (uint64_t)x;
	/* rec mod n without a division: the estimated quotient is off by at most one or two */
	q = (uint64_t)(x * h->inv_n);
	rem = (int64_t)(rec - q * h->n);
	while (rem < 0)
		rem += (int64_t)h->n;
	while ((uint64_t)rem >= h->n)
		rem -= (int64_t)h->n;
	return (uint64_t)rem;
}

#endif
