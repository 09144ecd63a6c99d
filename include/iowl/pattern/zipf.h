/* SPDX-License-Identifier: MIT */
/* Exact Zipf(theta, n) ranks in O(1) time and memory by Hormann-Derflinger rejection-inversion. */
#ifndef IOWL_PATTERN_ZIPF_H
#define IOWL_PATTERN_ZIPF_H

#include <math.h>
#include <stdint.h>

#include "iowl/pattern/rng.h"

#define ZIPF_HEAD_MAX 256
#define ZIPF_GUIDE    1024

/* Rank k's precomputed boundaries in the head table. */
struct zipf_head {
	double hi;     /* H(k + 1/2): the top of k's interval */
	double accept; /* H(k + 1/2) - k^-theta: accept k when u >= accept */
};

/*
 * Sampler for P(k) = k^-theta / H(n, theta), k = 1..n, any theta > 0 (theta = 1 included) and
 * any n up to 2^63 (ranks are exact while n <= 2^53, the doubles' integer range).
 *
 * Hormann and Derflinger (1996), "Rejection-inversion to generate variates from monotone
 * discrete distributions", with the hat integral written as H(x) = (x^(1-theta) - 1) / (1-theta),
 * which has the limit log(x) at theta = 1, so one formula serves every theta.  Rank k owns
 * the interval (H(k - 1/2), H(k + 1/2)] (rank 1 starts at H(3/2) - 1); a uniform point u in
 * the union is inverted to x = H^-1(u) and rounded to k, and accepted when it lies in the
 * part of k's interval of length exactly k^-theta.  Acceptance is above 90 % for any theta,
 * and most accepted points pass the cheap "squeeze" test without a second log.
 *
 * The head (the first head_n ranks, those at least half a guide cell wide) skips H^-1:
 * a guide table over u finds k in one or two steps and the acceptance bound is read from
 * head[], so the hottest ranks cost no transcendental function (70 % of draws at theta 1.2,
 * 29 % at 0.99 for n = 2^28).  The algorithm and its result are unchanged.
 */
struct zipf {
	uint64_t n;
	double theta;
	double omt;	    /* 1 - theta */
	double inv_omt;	    /* 1 / (1 - theta); unused when |u * omt| is tiny */
	double h_lo;	    /* H(3/2) - 1: u is uniform on (h_lo, h_hi] */
	double h_hi;	    /* H(n + 1/2) */
	double width;	    /* h_hi - h_lo */
	double squeeze;	    /* accept without testing when k - x <= squeeze */
	double nmax;	    /* n as a double */
	double head_v;	    /* a draw v below this lands in the head */
	double guide_scale; /* ZIPF_GUIDE / head_v */
	uint32_t head_n;
	uint16_t guide[ZIPF_GUIDE + 1]; /* first rank that can hold each cell of the head */
	struct zipf_head head[ZIPF_HEAD_MAX + 2]; /* 1..head_n, then a sentinel */
};

/* Sets up the sampler.  Returns 0, or -EINVAL when n is 0 or theta is not finite and > 0. */
int zipf_init(struct zipf *z, uint64_t n, double theta);

/*
 * Returns H(n, theta) = sum of k^-theta over k = 1..n: the first 1024 terms summed directly in
 * long double, the rest by Euler-Maclaurin (integral, end-point and B2/B4/B6 terms; the
 * remainder is below 1e-20 of the sum).  O(1) in n.
 */
double zipf_harmonic(uint64_t n, double theta);

/* The slow half of the acceptance test (two more logs); out of line, rarely reached. */
int zipf_accept(const struct zipf *z, double u, uint64_t k);

/* H^-1(u), written with log1p(t) / t so that it stays accurate as theta -> 1. */
static inline double zipf_hinv(const struct zipf *z, double u)
{
	double t = u * z->omt;

	if (t < -1.0)
		t = -1.0;
	if (fabs(t) > 1e-8) {
		/* log1p(t) from glibc's fast log: log(w) corrected by the rounding of w = 1 + t */
		double w = 1.0 + t;

		return exp((log(w) + (t - (w - 1.0)) / w) * z->inv_omt);
	}
	/* log1p(t) / t by its series: exact to double precision for |t| <= 1e-8 */
	return exp(u * (1.0 - t * (0.5 - t * (1.0 / 3.0 - 0.25 * t))));
}

/* Rounds x to the nearest rank, clamped to [1, n]. */
static inline uint64_t zipf_round(const struct zipf *z, double x)
{
	if (!(x < z->nmax))
		return z->n;
	if (x < 1.5)
		return 1;
	return (uint64_t)(x + 0.5);
}

/* Returns a rank in [1, n], rank 1 the most probable. */
static inline uint64_t zipf_next(const struct zipf *z, struct rng *r)
{
	for (;;) {
		double v = rng_unit(r);
		double u = z->h_lo + v * z->width;
		double x;
		uint64_t k;

		if (v < z->head_v) {
			k = z->guide[(unsigned)(v * z->guide_scale)];
			/* two steps without branches; a cell rarely holds more edges */
			k += u > z->head[k].hi;
			k += u > z->head[k].hi;
			while (u > z->head[k].hi)
				k++;
			if (u >= z->head[k].accept)
				return k;
			continue;
		}
		x = zipf_hinv(z, u);
		k = zipf_round(z, x);
		if ((double)k - x <= z->squeeze || zipf_accept(z, u, k))
			return k;
	}
}

#endif
