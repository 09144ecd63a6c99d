// SPDX-License-Identifier: MIT
/* Universal Scalability Law fit: Levenberg-Marquardt least squares on X, sigma and kappa >= 0. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "iowl/usl.h"

#define USL_NPARAM	3
#define USL_XTOL	1e-10	    /* step norm, relative to the (order one) parameter norm */
#define USL_FTOL	1e-14	    /* cost reduction, relative to the cost */
#define USL_COST_FLOOR	1e-30	    /* scaled cost of a fit that is exact to rounding */
#define USL_MU_MAX	1e30	    /* no step this short lowers the cost: a minimum to precision */
#define USL_ZERO	1e-9	    /* a smaller cost at N_hi is reported as exactly 0 */
#define USL_LINEAR_COST (1.0 / 9.0) /* 1 / (1 + 1/9) = 90 % of linear scaling */

/* The measurements and the scales that make parameters and residuals of order one. */
struct usl_data {
	const double *n;
	const double *x;
	unsigned npoints;
	double lam_scale; /* the initial lambda */
	double n_scale;	  /* N_hi, the largest N */
	double x_scale;	  /* the largest X */
};

/*
 * Levenberg-Marquardt state on p = (lambda / lam_scale, sigma N_hi, kappa N_hi^2): the last two
 * are about the contention and coherency costs at N_hi, so every parameter is of order one
 * whatever the units.  p[1] and p[2] are bounded below by 0 (projected steps).
 */
struct usl_lm {
	double p[USL_NPARAM];
	double jtj[USL_NPARAM * USL_NPARAM];
	double jtr[USL_NPARAM];
	double diag[USL_NPARAM]; /* Marquardt scaling: running maximum of diag(J^T J) */
	double cost;		 /* half the sum of squared scaled residuals */
	double mu;
	double nu;
	bool done;
};

static void usl_set_why(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void usl_set_why(char *why, const char *fmt, ...)
{
	va_list ap;

	if (!why)
		return;
	va_start(ap, fmt);
	vsnprintf(why, USL_WHY_LEN, fmt, ap);
	va_end(ap);
}

static double usl_eval(double lambda, double sigma, double kappa, double n)
{
	return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

double usl_predict(const struct usl_fit *f, double n)
{
	if (!isinf(n))
		return usl_eval(f->lambda, f->sigma, f->kappa, n);
	if (f->kappa > 0)
		return 0;
	return f->sigma > 0 ? f->lambda / f->sigma : INFINITY;
}

const char *usl_limit_name(enum usl_limit limit)
{
	switch (limit) {
	case USL_LINEAR:
		return "linear";
	case USL_CONTENTION:
		return "contention";
	case USL_COHERENCY:
		return "coherency";
	}
	return "unknown";
}

/* Adds one row of a linear least-squares problem to its normal equations. */
static void usl_normal_add(double *ata, double *atb, const double *row, double rhs, unsigned dim)
{
	for (unsigned i = 0; i < dim; i++) {
		for (unsigned j = 0; j < dim; j++)
			ata[i * dim + j] += row[i] * row[j];
		atb[i] += row[i] * rhs;
	}
}

/*
 * Solves a x = b for a symmetric dim x dim matrix by Cholesky, in place: a is destroyed and b
 * becomes x.  Returns 0, or -EDOM when a is not numerically positive definite.
 */
static int usl_solve(double *a, double *b, unsigned dim)
{
	for (unsigned j = 0; j < dim; j++) {
		double d = a[j * dim + j], scale = d;

		for (unsigned k = 0; k < j; k++)
			d -= a[j * dim + k] * a[j * dim + k];
		if (!(d > 1e-13 * scale) || !isfinite(d))
			return -EDOM;
		a[j * dim + j] = d = sqrt(d);
		for (unsigned i = j + 1; i < dim; i++) {
			double s = a[i * dim + j];

			for (unsigned k = 0; k < j; k++)
				s -= a[i * dim + k] * a[j * dim + k];
			a[i * dim + j] = s / d;
		}
	}
	for (unsigned i = 0; i < dim; i++) {
		for (unsigned k = 0; k < i; k++)
			b[i] -= a[i * dim + k] * b[k];
		b[i] /= a[i * dim + i];
	}
	for (unsigned i = dim; i-- > 0;) {
		for (unsigned k = i + 1; k < dim; k++)
			b[i] -= a[k * dim + i] * b[k];
		b[i] /= a[i * dim + i];
	}
	return 0;
}

static void usl_unpack(const struct usl_data *d, const double *p, double *lambda, double *sigma,
		       double *kappa)
{
	*lambda = d->lam_scale * p[0];
	*sigma = p[1] / d->n_scale;
	*kappa = p[2] / (d->n_scale * d->n_scale);
}

/*
 * Returns the cost at p and, when jtj is not NULL, fills the normal equations J^T J and J^T r
 * of the scaled residuals r_i = (x_i - X(n_i)) / x_scale.
 */
static double usl_cost(const struct usl_data *d, const double *p, double *jtj, double *jtr)
{
	double lambda, sigma, kappa, cost = 0;

	usl_unpack(d, p, &lambda, &sigma, &kappa);
	if (jtj) {
		memset(jtj, 0, sizeof(double) * USL_NPARAM * USL_NPARAM);
		memset(jtr, 0, sizeof(double) * USL_NPARAM);
	}
	for (unsigned i = 0; i < d->npoints; i++) {
		double n = d->n[i], den = 1 + sigma * (n - 1) + kappa * n * (n - 1);
		double r = (d->x[i] - lambda * n / den) / d->x_scale;
		double slope = lambda * n * (n - 1) / (den * den * d->x_scale);
		double row[USL_NPARAM] = {
			-d->lam_scale * n / (den * d->x_scale),
			slope / d->n_scale,
			slope * n / (d->n_scale * d->n_scale),
		};

		cost += 0.5 * r * r;
		if (jtj)
			usl_normal_add(jtj, jtr, row, r, USL_NPARAM);
	}
	return cost;
}

/*
 * Initial lambda: N / X = ((1 - sigma) + (sigma - kappa) N + kappa N^2) / lambda is quadratic in
 * N and equals 1 / lambda at N = 1, so a least-squares quadratic in N through N / X, read at
 * N = 1, gives lambda even when the sweep does not start at 1.  Falls back to X / N at the
 * smallest N.
 */
static double usl_guess_lambda(const struct usl_data *d)
{
	double ata[9] = {0}, atb[3] = {0}, r1, lambda, n_lo = INFINITY;
	unsigned i, lo = 0;

	for (i = 0; i < d->npoints; i++) {
		double u = d->n[i] / d->n_scale, row[3] = {1, u, u * u};

		usl_normal_add(ata, atb, row, d->n[i] / d->x[i] * d->x_scale, 3);
		if (d->n[i] < n_lo) {
			n_lo = d->n[i];
			lo = i;
		}
	}
	if (!usl_solve(ata, atb, 3)) {
		r1 = (atb[0] + atb[1] / d->n_scale + atb[2] / (d->n_scale * d->n_scale)) /
		     d->x_scale;
		lambda = 1 / r1;
		if (r1 > 0 && isfinite(lambda))
			return lambda;
	}
	return d->x[lo] / d->n[lo];
}

/*
 * Initial sigma and kappa with lambda known, Gunther's linearisation: lambda N / X - 1 =
 * sigma (N - 1) + kappa N (N - 1), a least-squares fit through the origin, clamped at 0.
 */
static void usl_guess(struct usl_data *d, double *p)
{
	double ata[4] = {0}, atb[2] = {0}, lambda = usl_guess_lambda(d), ns = d->n_scale;

	for (unsigned i = 0; i < d->npoints; i++) {
		double n = d->n[i], row[2] = {(n - 1) / ns, n * (n - 1) / (ns * ns)};

		usl_normal_add(ata, atb, row, lambda * n / d->x[i] - 1, 2);
	}
	if (usl_solve(ata, atb, 2))
		atb[0] = atb[1] = 0;
	d->lam_scale = lambda;
	p[0] = 1;
	p[1] = fmax(atb[0], 0);
	p[2] = fmax(atb[1], 0);
}

static double usl_norm(const double *v)
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/*
 * Solves the damped normal equations for a step.  A bounded parameter that sits at 0 with the
 * gradient pushing it below is held there (its row and column replaced by the identity).
 * Returns 0, or -EDOM when the system is singular.
 */
static int usl_lm_solve(const struct usl_lm *s, double *step)
{
	double a[USL_NPARAM * USL_NPARAM];
	unsigned i, j;

	memcpy(a, s->jtj, sizeof(a));
	for (j = 0; j < USL_NPARAM; j++) {
		a[j * USL_NPARAM + j] += s->mu * s->diag[j];
		step[j] = -s->jtr[j];
	}
	for (j = 1; j < USL_NPARAM; j++) {
		if (s->p[j] > 0 || s->jtr[j] < 0)
			continue;
		for (i = 0; i < USL_NPARAM; i++)
			a[i * USL_NPARAM + j] = a[j * USL_NPARAM + i] = 0;
		a[j * USL_NPARAM + j] = 1;
		step[j] = 0;
	}
	return usl_solve(a, step, USL_NPARAM);
}

/* Returns the decrease of the Gauss-Newton model of the cost along step. */
static double usl_lm_predicted(const struct usl_lm *s, const double *step)
{
	double pred = 0;

	for (unsigned i = 0; i < USL_NPARAM; i++) {
		double row = 0;

		for (unsigned j = 0; j < USL_NPARAM; j++)
			row += s->jtj[i * USL_NPARAM + j] * step[j];
		pred -= step[i] * (s->jtr[i] + 0.5 * row);
	}
	return pred;
}

/*
 * Tries one damped Gauss-Newton step, projected onto sigma, kappa >= 0, and updates mu as
 * Nielsen does.  Sets s->done on convergence.  Returns 0, or -EDOM when even the most damped
 * system cannot be solved.
 */
static int usl_lm_step(const struct usl_data *d, struct usl_lm *s)
{
	double step[USL_NPARAM], trial[USL_NPARAM], cost = INFINITY, pred = 0, rho = -1;
	int singular = usl_lm_solve(s, step);

	if (!singular) {
		for (unsigned j = 0; j < USL_NPARAM; j++) {
			trial[j] = j ? fmax(s->p[j] + step[j], 0) : s->p[j] + step[j];
			step[j] = trial[j] - s->p[j];
		}
		pred = usl_lm_predicted(s, step);
		/* lambda must stay positive; a rejected step is retried shorter */
		if (trial[0] > 0)
			cost = usl_cost(d, trial, NULL, NULL);
		if (isfinite(cost) && pred > 0)
			rho = (s->cost - cost) / pred;
	}
	if (!(rho > 0)) {
		s->mu *= s->nu;
		s->nu *= 2;
		/* no step, however short, lowers the cost: a minimum to machine precision */
		s->done = s->mu > USL_MU_MAX;
		return s->done && singular ? -EDOM : 0;
	}
	s->done = usl_norm(step) <= USL_XTOL * (usl_norm(s->p) + USL_XTOL) ||
		  (s->cost - cost <= USL_FTOL * s->cost && pred <= USL_FTOL * s->cost);
	memcpy(s->p, trial, sizeof(trial));
	s->cost = usl_cost(d, s->p, s->jtj, s->jtr);
	s->done |= s->cost <= USL_COST_FLOOR;
	s->mu *= fmax(1.0 / 3, 1 - pow(2 * rho - 1, 3));
	s->nu = 2;
	return 0;
}

/* Minimises the cost from s->p.  Returns 0, or -EINVAL with why set. */
static int usl_lm_run(const struct usl_data *d, struct usl_lm *s, unsigned *iterations, char *why)
{
	s->cost = usl_cost(d, s->p, s->jtj, s->jtr);
	s->mu = 1e-3;
	s->nu = 2;
	s->done = false;
	memset(s->diag, 0, sizeof(s->diag));
	*iterations = 0;
	if (s->cost <= USL_COST_FLOOR)
		return 0; /* the linearised guess fits exactly */
	for (*iterations = 1; *iterations <= USL_MAX_ITER; (*iterations)++) {
		for (unsigned j = 0; j < USL_NPARAM; j++)
			s->diag[j] = fmax(s->diag[j], s->jtj[j * USL_NPARAM + j]);
		if (!isfinite(s->cost) || usl_lm_step(d, s)) {
			usl_set_why(why, "singular system after %u iterations", *iterations);
			return -EINVAL;
		}
		if (s->done)
			return 0;
	}
	usl_set_why(why, "no convergence after %u iterations", USL_MAX_ITER);
	return -EINVAL;
}

static unsigned usl_distinct(const double *n, unsigned npoints)
{
	unsigned i, j, count = 0;

	for (i = 0; i < npoints; i++) {
		for (j = 0; j < i && n[j] != n[i]; j++)
			;
		count += j == i;
	}
	return count;
}

/* Returns 0, or -EINVAL with why set when the points cannot be fitted. */
static int usl_check(const double *n, const double *x, unsigned npoints, char *why)
{
	unsigned i, distinct;

	if (!n || !x || npoints < USL_MIN_POINTS) {
		usl_set_why(why, "need at least %d points, got %u", USL_MIN_POINTS,
			    n && x ? npoints : 0);
		return -EINVAL;
	}
	for (i = 0; i < npoints; i++) {
		if (!isfinite(n[i]) || !isfinite(x[i])) {
			usl_set_why(why, "point %u: value is not a finite number", i + 1);
			return -EINVAL;
		}
		if (n[i] < 1 || x[i] <= 0) {
			usl_set_why(why, "point %u: %s %g is %s", i + 1,
				    n[i] < 1 ? "concurrency" : "throughput", n[i] < 1 ? n[i] : x[i],
				    n[i] < 1 ? "below 1" : "not positive");
			return -EINVAL;
		}
	}
	distinct = usl_distinct(n, npoints);
	if (distinct < USL_MIN_DISTINCT) {
		usl_set_why(why, "need at least %d distinct concurrencies, got %u",
			    USL_MIN_DISTINCT, distinct);
		return -EINVAL;
	}
	return 0;
}

static double usl_r2(const struct usl_fit *f, const double *n, const double *x, unsigned npoints)
{
	double mean = 0, ss_tot = 0, ss_res = 0;
	unsigned i;

	for (i = 0; i < npoints; i++)
		mean += x[i] / npoints;
	for (i = 0; i < npoints; i++) {
		double e = x[i] - usl_predict(f, n[i]);

		ss_tot += (x[i] - mean) * (x[i] - mean);
		ss_res += e * e;
	}
	return ss_tot > 0 ? 1 - ss_res / ss_tot : NAN;
}

/* Fills n_max, x_max and limit from the parameters; n_hi is the largest N swept. */
static void usl_derive(struct usl_fit *f, double n_hi)
{
	double contention = f->sigma * (n_hi - 1), coherency = f->kappa * n_hi * (n_hi - 1);

	if (f->sigma >= 1)
		f->n_max = 1; /* X(N) never rises above X(1) */
	else if (f->kappa == 0)
		f->n_max = INFINITY;
	else
		f->n_max = fmax(1, sqrt((1 - f->sigma) / f->kappa));
	f->x_max = usl_predict(f, f->n_max);
	if (contention + coherency <= USL_LINEAR_COST)
		f->limit = USL_LINEAR;
	else
		f->limit = coherency > contention ? USL_COHERENCY : USL_CONTENTION;
}

int usl_fit(const double *n, const double *x, unsigned npoints, struct usl_fit *out, char *why)
{
	struct usl_data d = {.n = n, .x = x, .npoints = npoints};
	struct usl_lm s;
	unsigned iterations;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = usl_check(n, x, npoints, why);
	if (ret)
		return ret;
	for (unsigned i = 0; i < npoints; i++) {
		d.n_scale = fmax(d.n_scale, n[i]);
		d.x_scale = fmax(d.x_scale, x[i]);
	}
	usl_guess(&d, s.p);
	ret = usl_lm_run(&d, &s, &iterations, why);
	if (ret)
		return ret;
	out->iterations = iterations;
	/* an interior fit of exact data stops at rounding noise, not at 0 */
	if (s.p[1] < USL_ZERO)
		s.p[1] = 0;
	if (s.p[2] < USL_ZERO)
		s.p[2] = 0;
	usl_unpack(&d, s.p, &out->lambda, &out->sigma, &out->kappa);
	usl_derive(out, d.n_scale);
	out->r2 = usl_r2(out, n, x, npoints);
	return 0;
}
