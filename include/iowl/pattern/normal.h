/* SPDX-License-Identifier: MIT */
/* Standard normal variates by the 256-layer ziggurat (Marsaglia and Tsang), 53-bit resolution. */
#ifndef IOWL_PATTERN_NORMAL_H
#define IOWL_PATTERN_NORMAL_H

#include <math.h>
#include <stdint.h>

#include "iowl/pattern/rng.h"

#define NORMAL_LAYERS 256

/*
 * Layer boundaries of the ziggurat under f(x) = exp(-x^2 / 2): x[1] = R is where the tail
 * starts, x[0] = V / f(R) is the width of the base strip (rectangle plus tail, area V), and
 * x[i + 1] solves x[i] * (f(x[i + 1]) - f(x[i])) = V; x[256] = 0.  f[i] = f(x[i]).
 */
struct normal {
	double x[NORMAL_LAYERS + 1];
	double f[NORMAL_LAYERS + 1];
};

/* Computes the layer tables (about 500 exp/log calls).  Cannot fail. */
void normal_init(struct normal *nz);

/* The rare paths (about 1 % of draws): the wedge test and the tail beyond R. */
double normal_slow(const struct normal *nz, struct rng *r, unsigned layer, double x);

/*
 * Returns a standard normal variate N(0, 1), or NAN when the caller must draw again (the
 * wedge test rejected); normal_next() loops on it.
 */
static inline double normal_try(const struct normal *nz, struct rng *r)
{
	uint64_t bits = rng_next(r);
	unsigned i = bits & (NORMAL_LAYERS - 1);
	/* the top 53 bits as a signed fraction in [-1, 1); the layer comes from the low 8 */
	double x = (double)((int64_t)bits >> 11) * 0x1.0p-52 * nz->x[i];

	if (fabs(x) < nz->x[i + 1])
		return x;
	return normal_slow(nz, r, i, x);
}

/* Returns a standard normal variate N(0, 1). */
static inline double normal_next(const struct normal *nz, struct rng *r)
{
	double z;

	do
		z = normal_try(nz, r);
	while (isnan(z));
	return z;
}

#endif
