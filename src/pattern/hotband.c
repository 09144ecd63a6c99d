// SPDX-License-Identifier: MIT
/* The vdbench hot-band knot table and its conversion to blocks of one band. */
#include <errno.h>

#include "iowl/pattern/hotband.h"

static const double hotband_prob[HOTBAND_KNOTS] = {
	0,     .0872, .1010, .1322, .1599, .2017, .2626, .3265, .3669, .3862,
	.4369, .4826, .5238, .5608, .5941, .6240, .6510, .6753, .6972, .7168,
	.7345, .7505, .7648, .7777, .7893, .7998, .8092, .8176, 1.0,
};

/*
 * vdbench's slope (MB per unit of probability) on the last segment, from 2^30 MB on.  The
 * knot at 10 * 2^30 MB would imply 5.3e10; vdbench uses this value, so the last 18 % of the
 * mass ends near 1.31e9 MB instead.  After the wrap it is uniform over any band below about
 * 240 TB either way; we keep vdbench's number to produce the same offsets.
 */
#define HOTBAND_LAST_SLOPE 1313220630.0

/* Knot k's offset in MB: 0, then 16 * 2^(k - 1) up to 2^30, then 10 * 2^30. */
static double hotband_knot_mb(unsigned k)
{
	if (k == 0)
		return 0;
	if (k == HOTBAND_KNOTS - 1)
		return 10.0 * (double)(1ULL << 30);
	return 16.0 * (double)(1ULL << (k - 1));
}

int hotband_init(struct hotband *h, uint64_t n, uint64_t block_size)
{
	double per_mb;
	unsigned i, j;

	if (n == 0 || n > HOTBAND_MAX_N || block_size == 0)
		return -EINVAL;
	per_mb = 1e6 / (double)block_size; /* blocks per MB */
	h->n = n;
	h->inv_n = 1.0 / (double)n;
	for (i = 0; i < HOTBAND_KNOTS; i++)
		h->p[i] = hotband_prob[i];
	for (i = 0; i + 1 < HOTBAND_KNOTS; i++) {
		double c = hotband_knot_mb(i), slope;

		if (i + 2 == HOTBAND_KNOTS)
			slope = HOTBAND_LAST_SLOPE;
		else
			slope = (hotband_knot_mb(i + 1) - c) / (h->p[i + 1] - h->p[i]);
		/* offset = c + (u - p[i]) * slope, in blocks */
		h->b[i] = slope * per_mb;
		h->a[i] = (c - h->p[i] * slope) * per_mb;
	}
	for (j = 0, i = 0; j < HOTBAND_GUIDE; j++) {
		while (h->p[i + 1] <= (double)j / HOTBAND_GUIDE)
			i++;
		h->guide[j] = i;
	}
	return 0;
}
