// SPDX-License-Identifier: MIT
/* Ziggurat tables and the rare (wedge and tail) paths of the normal sampler. */
#include <math.h>

#include "iowl/pattern/normal.h"

/* Where the tail starts for 256 layers (Marsaglia and Tsang 2000; Doornik 2005). */
#define NORMAL_R 3.6541528853610088

static double normal_pdf(double x)
{
	return exp(-0.5 * x * x);
}

void normal_init(struct normal *nz)
{
	const double r = NORMAL_R;
	/* area of each layer: the rectangle under f(R) plus the tail integral */
	const double v = r * normal_pdf(r) + sqrt(M_PI / 2) * erfc(r / M_SQRT2);
	unsigned i;

	nz->x[0] = v / normal_pdf(r);
	nz->x[1] = r;
	for (i = 1; i < NORMAL_LAYERS - 1; i++) {
		double y = v / nz->x[i] + normal_pdf(nz->x[i]);

		nz->x[i + 1] = sqrt(-2.0 * log(y));
	}
	nz->x[NORMAL_LAYERS] = 0.0;
	for (i = 0; i <= NORMAL_LAYERS; i++)
		nz->f[i] = normal_pdf(nz->x[i]);
}

/* Marsaglia's tail method: a variate beyond R with the normal's tail density. */
static double normal_tail(struct rng *r, double sign)
{
	double x, y;

	do {
		/* 1 - rng_unit() is in (0, 1], so log() stays finite */
		x = -log(1.0 - rng_unit(r)) / NORMAL_R;
		y = -log(1.0 - rng_unit(r));
	} while (2.0 * y < x * x);
	return sign * (NORMAL_R + x);
}

double normal_slow(const struct normal *nz, struct rng *r, unsigned layer, double x)
{
	double y;

	if (layer == 0)
		return normal_tail(r, x < 0 ? -1.0 : 1.0);
	/* the wedge between x[layer + 1] and x[layer]: a point under the curve is accepted */
	y = nz->f[layer] + rng_unit(r) * (nz->f[layer + 1] - nz->f[layer]);
	return y < normal_pdf(x) ? x : NAN;
}
