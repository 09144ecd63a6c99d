// SPDX-License-Identifier: MIT
/* Set-up and slow paths of the rejection-inversion Zipf sampler, and exact harmonic numbers. */
#include <errno.h>
#include <math.h>

#include "iowl/pattern/zipf.h"

/* expm1(t) / t, accurate near t = 0 (the theta -> 1 limit). */
static double expm1_over(double t)
{
	if (fabs(t) > 1e-8)
		return expm1(t) / t;
	return 1.0 + t * 0.5 * (1.0 + t / 3.0 * (1.0 + 0.25 * t));
}

/* The hat integral H(x) = (x^(1-theta) - 1) / (1-theta), log(x) at theta = 1. */
static double zipf_hint(const struct zipf *z, double x)
{
	double lx = log(x);

	return expm1_over(z->omt * lx) * lx;
}

/* The hat h(x) = x^-theta. */
static double zipf_h(const struct zipf *z, double x)
{
	return exp(-z->theta * log(x));
}

int zipf_accept(const struct zipf *z, double u, uint64_t k)
{
	double kd = (double)k;

	return u >= zipf_hint(z, kd + 0.5) - zipf_h(z, kd);
}

/* Fills head[1..] while ranks stay at least half a guide cell wide; sets head_n. */
static void zipf_head_ranks(struct zipf *z)
{
	uint64_t k, max = z->n < ZIPF_HEAD_MAX ? z->n : ZIPF_HEAD_MAX;
	double prev = z->h_lo;

	z->head_n = 0;
	for (k = 1; k <= max; k++) {
		double hi = zipf_hint(z, (double)k + 0.5);

		if (k > 1 && (hi - prev) * ZIPF_GUIDE < 0.5 * (hi - z->h_lo))
			break;
		z->head[k].hi = hi;
		z->head[k].accept = k == 1 ? z->h_lo : hi - zipf_h(z, (double)k);
		z->head_n = k;
		prev = hi;
	}
	/* unreachable given the margin on head_v, and correct for rank head_n + 1 if reached */
	z->head[k].hi = INFINITY;
	z->head[k].accept =
		k <= z->n ? zipf_hint(z, (double)k + 0.5) - zipf_h(z, (double)k) : INFINITY;
}

/* The guide: for each cell of v, the rank holding its lowest u (or the one before). */
static void zipf_guide(struct zipf *z)
{
	unsigned c, k = 1;

	/* the 1e-12 margins keep float rounding at a cell or head edge from skipping a rank */
	z->head_v = (z->head[z->head_n].hi - z->h_lo) / z->width * (1 - 1e-12);
	z->guide_scale = ZIPF_GUIDE / z->head_v;
	for (c = 0; c < ZIPF_GUIDE; c++) {
		double u = z->h_lo + (double)c / z->guide_scale * z->width;

		u -= fabs(u) * 1e-12;
		while (k < z->head_n && u > z->head[k].hi)
			k++;
		z->guide[c] = (uint16_t)k;
	}
	/* v * guide_scale may round up to ZIPF_GUIDE for the largest v below head_v */
	z->guide[ZIPF_GUIDE] = (uint16_t)k;
}

int zipf_init(struct zipf *z, uint64_t n, double theta)
{
	if (n == 0 || !isfinite(theta) || !(theta > 0.0))
		return -EINVAL;
	z->n = n;
	z->nmax = (double)n;
	z->theta = theta;
	z->omt = 1.0 - theta;
	z->inv_omt = z->omt != 0.0 ? 1.0 / z->omt : 0.0;
	z->h_lo = zipf_hint(z, 1.5) - 1.0;
	z->h_hi = zipf_hint(z, z->nmax + 0.5);
	z->width = z->h_hi - z->h_lo;
	/* H-D's squeeze: k - x <= 2 - H^-1(H(5/2) - h(2)) implies acceptance for every k >= 2 */
	z->squeeze = 2.0 - zipf_hinv(z, zipf_hint(z, 2.5) - zipf_h(z, 2.0));
	zipf_head_ranks(z);
	zipf_guide(z);
	return 0;
}

/* x^-theta and the odd derivatives Euler-Maclaurin needs, at x. */
static void zipf_em_terms(double theta, long double x, long double *f, long double *corr)
{
	long double fx = expl(-theta * logl(x));
	long double d1 = -theta * fx / x;
	long double d3 = d1 * (theta + 1) * (theta + 2) / (x * x);
	long double d5 = d3 * (theta + 3) * (theta + 4) / (x * x);

	*f = fx;
	*corr = d1 / 12 - d3 / 720 + d5 / 30240;
}

double zipf_harmonic(uint64_t n, double theta)
{
	const uint64_t direct = 1024;
	long double sum = 0, fa, fb, ca, cb, lr, a, integral;
	uint64_t k, m = n < direct ? n : direct;

	for (k = m; k >= 1; k--)
		sum += expl(-theta * logl((long double)k));
	if (n <= direct)
		return (double)sum;
	/* sum over k = a..n with a = direct + 1 */
	a = (long double)(direct + 1);
	lr = logl((long double)n / a);
	integral = a * expl(-theta * logl(a)) * lr;
	if (fabsl((1 - theta) * lr) > 1e-12L)
		integral *= expm1l((1 - theta) * lr) / ((1 - theta) * lr);
	zipf_em_terms(theta, a, &fa, &ca);
	zipf_em_terms(theta, (long double)n, &fb, &cb);
	sum += integral + (fa + fb) / 2 + (cb - ca);
	return (double)sum;
}
