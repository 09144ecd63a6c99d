/* SPDX-License-Identifier: MIT */
/* Fits the USL, X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)), to a sweep. */
#ifndef IOWL_USL_H
#define IOWL_USL_H

#define USL_WHY_LEN	 256 /* size of the why buffer usl_fit() fills */
#define USL_MIN_POINTS	 4   /* fewer points are refused */
#define USL_MIN_DISTINCT 3   /* three parameters need three distinct concurrencies */
#define USL_MAX_ITER	 500 /* Levenberg-Marquardt iterations before "no convergence" */

/*
 * What limits throughput at the largest concurrency swept, N_hi.  The denominator of the model
 * is 1 + C + K with the contention cost C = sigma (N_hi - 1) and the coherency cost
 * K = kappa N_hi (N_hi - 1); X(N_hi) = lambda N_hi / (1 + C + K).
 *  - USL_LINEAR when C + K <= 1/9: throughput at N_hi is still 90 % or more of linear scaling;
 *  - otherwise USL_COHERENCY when K > C (crosstalk costs more; it is also what makes the curve
 *    turn down past n_max), else USL_CONTENTION (queueing on a shared resource, Amdahl).
 * The costs are compared at N_hi, not as raw sigma against kappa: kappa multiplies N^2, so the
 * raw comparison some tools print says nothing about the swept range.
 */
enum usl_limit {
	USL_LINEAR,
	USL_CONTENTION,
	USL_COHERENCY,
};

/* The fitted model and what follows from it. */
struct usl_fit {
	double lambda;	      /* throughput of one outstanding IO, the ideal slope */
	double sigma;	      /* contention, >= 0 */
	double kappa;	      /* coherency, >= 0 */
	double r2;	      /* coefficient of determination on X (NAN when every X is equal) */
	double n_max;	      /* sqrt((1 - sigma) / kappa), >= 1; INFINITY when kappa == 0 */
	double x_max;	      /* X(n_max); the asymptote lambda / sigma when n_max is infinite */
	enum usl_limit limit; /* see enum usl_limit */
	unsigned iterations;  /* LM steps tried, accepted or not; 0 if the first guess is exact */
};

/*
 * Fits the model to npoints measurements: n[i] concurrency (iodepth x numjobs, >= 1) and x[i]
 * throughput (IOPS, > 0), in any order.  Plain least squares on X: every point weighs the same
 * in IOPS, so the high-throughput points dominate, as they do on a throughput chart.
 * sigma and kappa are kept >= 0 by projected Levenberg-Marquardt steps, so a superlinear sweep
 * gets 0 where the unconstrained fit would go negative; a term worth less than 1e-9 in the
 * denominator at the largest N is reported as exactly 0.
 * Returns 0, or -EINVAL with why (USL_WHY_LEN bytes, may be NULL) saying why, without position:
 * fewer than USL_MIN_POINTS points, fewer than USL_MIN_DISTINCT distinct N, a value that is not
 * finite, N below 1, X not positive, a singular system or no convergence.  *out is zeroed on
 * error so nothing stale is printed by mistake.
 */
int usl_fit(const double *n, const double *x, unsigned npoints, struct usl_fit *out, char *why);

/*
 * Returns the throughput the fit predicts at concurrency n (>= 1).  n = INFINITY gives the
 * limit: 0 when kappa > 0, lambda / sigma when only sigma > 0, INFINITY when both are 0.
 */
double usl_predict(const struct usl_fit *f, double n);

/* Returns "linear", "contention" or "coherency" (a static string). */
const char *usl_limit_name(enum usl_limit limit);

#endif
