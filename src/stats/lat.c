// SPDX-License-Identifier: MIT
/* Latency summary: merging, interval deltas, mean and sample standard deviation. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "iowl/lat.h"

void lat_merge(struct lat_stat *dst, const struct lat_stat *src)
{
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
}

void lat_sub(struct lat_stat *dst, const struct lat_stat *a, const struct lat_stat *b)
{
	struct lat_stat d = {
		.n = a->n - b->n,
		.sum = a->sum - b->sum,
		.sumsq = a->sumsq - b->sumsq,
		.min = a->min,
		.max = a->max,
	};

	if (!d.n)
		lat_init(&d);
	*dst = d;
}

double lat_mean(const struct lat_stat *s)
{
	if (!s->n)
		return 0;
	return (double)((long double)s->sum / s->n);
}

/*
 * Sum of squared deviations from the integer part q of the mean, sum (v - q)^2 =
 * sumsq - n q^2 - 2 q r with sum = q n + r, exact in 128 bits: every term is bounded by sumsq.
 * Returns false when the summary is inconsistent (a torn snapshot) and the terms overflow.
 */
static bool lat_dev_sq(const struct lat_stat *s, unsigned __int128 *out)
{
	uint64_t q = s->sum / s->n, r = s->sum % s->n;
	unsigned __int128 nq2, qr2, sub;

	if (__builtin_mul_overflow((unsigned __int128)q * q, s->n, &nq2) ||
	    __builtin_mul_overflow((unsigned __int128)q * r, 2U, &qr2) ||
	    __builtin_add_overflow(nq2, qr2, &sub) || sub > s->sumsq)
		return false;
	*out = s->sumsq - sub;
	return true;
}

double lat_stddev(const struct lat_stat *s)
{
	unsigned __int128 dsq;
	long double r, m2;

	if (s->n < 2 || !lat_dev_sq(s, &dsq))
		return 0;
	/* Shift the deviations from q to the true mean: subtract r^2 / n. */
	r = (long double)(s->sum % s->n);
	m2 = (long double)dsq - r * r / (long double)s->n;
	if (m2 <= 0)
		return 0;
	return (double)sqrtl(m2 / (long double)(s->n - 1));
}

uint64_t lat_min(const struct lat_stat *s)
{
	return s->n ? s->min : 0;
}
