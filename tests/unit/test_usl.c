// SPDX-License-Identifier: MIT
/* Unit tests for the USL fit: exact and noisy synthetic sweeps, a seed-shaped sweep, refusals. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "iowl/pattern/rng.h"
#include "iowl/usl.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The sweep of the brief: iodepth 1..256 in powers of two. */
static const double sweep_n[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
#define SWEEP_NR ARRAY_SIZE(sweep_n)

struct usl_case {
	double lambda, sigma, kappa;
	enum usl_limit limit; /* the classification of the exact data over sweep_n */
};

static const struct usl_case cases[] = {
	{10000, 0.05, 0.0002, USL_COHERENCY}, /* the brief's example; costs 12.75 vs 13.06 at 256 */
	{10000, 0.05, 0, USL_CONTENTION},     /* pure Amdahl */
	{5000, 0, 0.0001, USL_COHERENCY},     /* crosstalk only */
	{300, 0.2, 0.001, USL_COHERENCY},     /* saturates early, peak at 28 */
	{1e6, 0.01, 1e-5, USL_CONTENTION},    /* IOPS in the millions, peak past the sweep */
	{2000, 0, 0, USL_LINEAR},	      /* linear */
	{2000, 0.0003, 0, USL_LINEAR},	      /* 7 % below linear at 256 */
};

/* cmocka's assert_float_equal() compares floats; these checks need doubles. */
#define assert_close(got, want, tol) check_close((got), (want), (tol), __LINE__)
#define assert_rel(got, want, tol)   check_rel((got), (want), (tol), __LINE__)

static void check_close(double got, double want, double tol, int line)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("line %d: got %.12g, want %.12g (tolerance %g)", line, got, want, tol);
}

static void check_rel(double got, double want, double tol, int line)
{
	if (!(fabs(got - want) <= tol * fabs(want)))
		fail_msg("line %d: got %.12g, want %.12g (relative tolerance %g)", line, got, want,
			 tol);
}

/* Uniform double in [-1, 1). */
static double rand_sym(uint64_t *state)
{
	return (double)(rng_splitmix64(state) >> 11) / 4503599627370496.0 - 1;
}

static double model(const struct usl_case *c, double n)
{
	return c->lambda * n / (1 + c->sigma * (n - 1) + c->kappa * n * (n - 1));
}

/* Fills x with the model over sweep_n times (1 + noise u), u uniform in [-1, 1). */
static void make_sweep(const struct usl_case *c, double noise, uint64_t seed, double *x)
{
	for (unsigned i = 0; i < SWEEP_NR; i++)
		x[i] = model(c, sweep_n[i]) * (1 + noise * rand_sym(&seed));
}

static double sse(const struct usl_fit *f, const double *n, const double *x, unsigned nr)
{
	double sum = 0;

	for (unsigned i = 0; i < nr; i++)
		sum += (x[i] - usl_predict(f, n[i])) * (x[i] - usl_predict(f, n[i]));
	return sum;
}

/*
 * The fit is a least-squares minimum: moving any parameter by 0.1 % either way (only up for one
 * held at its bound 0) raises the sum of squares.  Fails if only the linearised guess was used.
 */
static void assert_local_min(const struct usl_fit *f, const double *n, const double *x, unsigned nr)
{
	double best = sse(f, n, x, nr);

	for (unsigned j = 0; j < 3; j++) {
		for (int dir = -1; dir <= 1; dir += 2) {
			struct usl_fit g = *f;
			double *p = j == 0 ? &g.lambda : j == 1 ? &g.sigma : &g.kappa;

			if (*p == 0 && dir < 0)
				continue;
			*p = *p ? *p * (1 + dir * 1e-3) : 1e-3 / pow(n[nr - 1], j);
			if (!(sse(&g, n, x, nr) > best))
				fail_msg("parameter %u moved %+d gives sse %.9g <= %.9g", j, dir,
					 sse(&g, n, x, nr), best);
		}
	}
}

/* R^2 computed here, independently of the library. */
static double r2_of(const struct usl_fit *f, const double *n, const double *x, unsigned nr)
{
	double mean = 0, ss_tot = 0;

	for (unsigned i = 0; i < nr; i++)
		mean += x[i];
	mean /= nr;
	for (unsigned i = 0; i < nr; i++)
		ss_tot += (x[i] - mean) * (x[i] - mean);
	return 1 - sse(f, n, x, nr) / ss_tot;
}

static void fit_ok(const double *n, const double *x, unsigned nr, struct usl_fit *f)
{
	char why[USL_WHY_LEN] = "";

	if (usl_fit(n, x, nr, f, why))
		fail_msg("usl_fit failed: %s", why);
	assert_true(f->lambda > 0 && isfinite(f->lambda));
	assert_true(f->sigma >= 0 && isfinite(f->sigma));
	assert_true(f->kappa >= 0 && isfinite(f->kappa));
}

/* Exact data: every parameter back to 1e-6, zeros exactly, and the derived quantities. */
static void test_exact(void **state)
{
	double x[SWEEP_NR];

	for (unsigned k = 0; k < ARRAY_SIZE(cases); k++) {
		const struct usl_case *c = &cases[k];
		struct usl_fit f;
		double want_nmax = c->kappa ? sqrt((1 - c->sigma) / c->kappa) : INFINITY;

		make_sweep(c, 0, 1, x);
		fit_ok(sweep_n, x, SWEEP_NR, &f);
		assert_rel(f.lambda, c->lambda, 1e-6);
		assert_rel(f.sigma, c->sigma, 1e-6);
		assert_rel(f.kappa, c->kappa, 1e-6);
		if (c->sigma == 0)
			assert_true(f.sigma == 0);
		if (c->kappa == 0)
			assert_true(f.kappa == 0);
		assert_true(f.r2 > 1 - 1e-12);
		assert_int_equal(f.limit, c->limit);
		if (isinf(want_nmax)) {
			assert_true(isinf(f.n_max));
			assert_true(c->sigma ? fabs(f.x_max / (c->lambda / c->sigma) - 1) < 1e-6
					     : isinf(f.x_max));
		} else {
			assert_rel(f.n_max, want_nmax, 1e-6);
			assert_rel(f.x_max, model(c, want_nmax), 1e-6);
		}
	}
}

/*
 * Exact Amdahl (kappa = 0) and crosstalk-only (sigma = 0) sweeps over a grid of magnitudes: the
 * zero comes back as exactly 0 (n_max infinite, or the peak of a pure coherency curve), not as
 * rounding noise that would print a finite n_max of 1e9.
 */
static void test_exact_grid(void **state)
{
	double x[SWEEP_NR];

	for (double lambda = 100; lambda < 1e7; lambda *= 3.7) {
		for (double v = 0.001; v < 0.9; v *= 1.9) {
			struct usl_case amdahl = {lambda, v, 0, 0},
					cross = {lambda, 0, v * 1e-3, 0};
			struct usl_fit f;

			make_sweep(&amdahl, 0, 1, x);
			fit_ok(sweep_n, x, SWEEP_NR, &f);
			assert_rel(f.lambda, lambda, 1e-6);
			assert_rel(f.sigma, v, 1e-6);
			assert_true(f.kappa == 0 && isinf(f.n_max));
			make_sweep(&cross, 0, 1, x);
			fit_ok(sweep_n, x, SWEEP_NR, &f);
			assert_rel(f.lambda, lambda, 1e-6);
			assert_rel(f.kappa, v * 1e-3, 1e-6);
			assert_true(f.sigma == 0);
			assert_rel(f.n_max, sqrt(1 / (v * 1e-3)), 1e-6);
		}
	}
}

/* Exact data from a sweep that starts at N = 16: lambda comes from extrapolation, not X(1). */
static void test_exact_no_n1(void **state)
{
	static const double n[] = {16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512};
	const struct usl_case *c = &cases[0];
	double x[ARRAY_SIZE(n)];
	struct usl_fit f;

	for (unsigned i = 0; i < ARRAY_SIZE(n); i++)
		x[i] = model(c, n[i]);
	fit_ok(n, x, ARRAY_SIZE(n), &f);
	assert_rel(f.lambda, c->lambda, 1e-6);
	assert_rel(f.sigma, c->sigma, 1e-6);
	assert_rel(f.kappa, c->kappa, 1e-6);
	/* the linearised guess is already the answer (X(16) / 16 as lambda would take 7 steps) */
	assert_true(f.iterations <= 2);
}

/*
 * +/-2 % uniform multiplicative noise, seed 1 for every case (fixed before looking at results).
 * Bounds from 1000 seeds per case: lambda and the fitted curve stay within 4.6 % of the truth
 * at every swept N, so 5 % holds for any seed; sigma and kappa, which only the upper half of
 * the sweep pins down under unweighted least squares, drift up to 9.8 %, so they get 10 %
 * (both within 5 % for only 79 % of seeds in the first case, 96 % in the fourth: asserting
 * that would test the seed, not the fit).  A
 * parameter that is 0 in truth must take under 6 % of the denominator at N = 256 (worst 5.7 %).
 */
static void test_noisy(void **state)
{
	double x[SWEEP_NR];

	for (unsigned k = 0; k < 4; k++) {
		const struct usl_case *c = &cases[k];
		double hi = sweep_n[SWEEP_NR - 1], den;
		struct usl_fit f;

		make_sweep(c, 0.02, 1, x);
		fit_ok(sweep_n, x, SWEEP_NR, &f);
		den = 1 + f.sigma * (hi - 1) + f.kappa * hi * (hi - 1);
		assert_rel(f.lambda, c->lambda, 0.05);
		for (unsigned i = 0; i < SWEEP_NR; i++)
			assert_rel(usl_predict(&f, sweep_n[i]), model(c, sweep_n[i]), 0.05);
		if (c->sigma)
			assert_rel(f.sigma, c->sigma, 0.10);
		else
			assert_true(f.sigma * (hi - 1) / den < 0.06);
		if (c->kappa)
			assert_rel(f.kappa, c->kappa, 0.10);
		else
			assert_true(f.kappa * hi * (hi - 1) / den < 0.06);
		assert_true(f.r2 > 0.99);
		assert_close(f.r2, r2_of(&f, sweep_n, x, SWEEP_NR), 1e-12);
		assert_true(f.iterations > 0 && f.iterations < USL_MAX_ITER);
		assert_local_min(&f, sweep_n, x, SWEEP_NR);
	}
}

/*
 * +/-1 % noise, seed 1: every parameter within 5 % of the truth (the bar).  At this
 * noise the worst drift of sigma and kappa over 1000 seeds is about half of the 2 % case's.
 */
static void test_noisy_5pct(void **state)
{
	double x[SWEEP_NR];

	for (unsigned k = 0; k < 4; k++) {
		const struct usl_case *c = &cases[k];
		struct usl_fit f;

		make_sweep(c, 0.01, 1, x);
		fit_ok(sweep_n, x, SWEEP_NR, &f);
		assert_rel(f.lambda, c->lambda, 0.05);
		if (c->sigma)
			assert_rel(f.sigma, c->sigma, 0.05);
		if (c->kappa)
			assert_rel(f.kappa, c->kappa, 0.05);
	}
}

/* Pure Amdahl with noise: still contention-limited, and no peak inside the sweep. */
static void test_noisy_amdahl(void **state)
{
	double x[SWEEP_NR];
	struct usl_fit f;

	make_sweep(&cases[1], 0.02, 1, x);
	fit_ok(sweep_n, x, SWEEP_NR, &f);
	assert_int_equal(f.limit, USL_CONTENTION);
	assert_true(f.n_max > sweep_n[SWEEP_NR - 1]);
}

/*
 * The seed's "How scalable is my Nutanix cluster really?": a 100 % random-read sweep of a
 * cluster to N = 576 whose USL fit gave contention 0.074 %, a peak near N = 600 and 500,000 IOPS
 * at N = 1200.  Its raw numbers are not published, so these are that model (lambda 2450,
 * sigma 0.00074, kappa 2.776e-6, peak about 602,000 IOPS) at N = 8..768 with a fixed
 * pseudo-random +/-2 % perturbation, rounded to 100 IOPS; 672 and 768 go past the seed's sweep
 * to show the decline its model predicted.
 */
static void test_seed_shape(void **state)
{
	static const double n[] = {8,	16,  32,  64,  96,  128, 192, 256,
				   320, 384, 448, 512, 576, 672, 768};
	static const double x[] = {19600,  39100,  77400,  150900, 216800, 280000, 371300, 457300,
				   525200, 559500, 591200, 587000, 601200, 593100, 588600};
	struct usl_fit f;

	fit_ok(n, x, ARRAY_SIZE(n), &f);
	assert_true(f.sigma > 0 && f.kappa > 0);
	assert_true(f.n_max > n[0] && f.n_max < n[ARRAY_SIZE(n) - 1]);
	assert_close(f.n_max, 600, 60);
	assert_rel(f.x_max, 602000, 0.02);
	assert_rel(f.sigma, 0.00074, 0.25);
	assert_rel(usl_predict(&f, 1200), 500000, 0.05);
	assert_true(f.r2 > 0.95);
	assert_close(f.r2, r2_of(&f, n, x, ARRAY_SIZE(n)), 1e-12);
	/* the seed took contention (0.074 %) as the limit; past the peak it is kappa that bites */
	assert_int_equal(f.limit, USL_COHERENCY);
	assert_local_min(&f, n, x, ARRAY_SIZE(n));
}

/*
 * Data whose unconstrained fit wants a negative sigma or kappa: the fit holds it at exactly 0 and
 * is the least-squares minimum among sigma, kappa >= 0 (moving up from 0 only makes it worse).
 */
static void test_bounds(void **state)
{
	double x[SWEEP_NR];
	struct usl_fit f;

	/* superlinear, X = 1000 N^1.05 (a cache warming up across the sweep): linear at best */
	for (unsigned i = 0; i < SWEEP_NR; i++)
		x[i] = 1000 * pow(sweep_n[i], 1.05);
	fit_ok(sweep_n, x, SWEEP_NR, &f);
	assert_true(f.sigma == 0 && f.kappa == 0);
	assert_int_equal(f.limit, USL_LINEAR);
	assert_true(isinf(f.n_max) && isinf(f.x_max));
	assert_local_min(&f, sweep_n, x, SWEEP_NR);

	/* Amdahl tilted up by 3 % at the top: kappa would go negative */
	make_sweep(&cases[1], 0, 1, x);
	for (unsigned i = 0; i < SWEEP_NR; i++)
		x[i] *= 1 + 0.03 * sweep_n[i] / 256;
	fit_ok(sweep_n, x, SWEEP_NR, &f);
	assert_true(f.kappa == 0 && f.sigma > 0);
	assert_true(isinf(f.n_max));
	assert_int_equal(f.limit, USL_CONTENTION);
	assert_true(f.r2 > 0.999);
	assert_local_min(&f, sweep_n, x, SWEEP_NR);
}

/* Expects -EINVAL, a why containing text, and a zeroed result. */
static void expect_refusal(const double *n, const double *x, unsigned nr, const char *text)
{
	struct usl_fit f;
	char why[USL_WHY_LEN] = "";

	memset(&f, 0xa5, sizeof(f));
	assert_int_equal(usl_fit(n, x, nr, &f, why), -EINVAL);
	if (!strstr(why, text))
		fail_msg("why '%s' does not contain '%s'", why, text);
	assert_true(f.lambda == 0 && f.sigma == 0 && f.kappa == 0 && f.iterations == 0);
	/* a NULL why is allowed */
	assert_int_equal(usl_fit(n, x, nr, &f, NULL), -EINVAL);
}

static void test_errors(void **state)
{
	double n[] = {1, 2, 4, 8, 16}, x[] = {100, 190, 350, 600, 900};
	double same[] = {8, 8, 8, 8}, two[] = {1, 1, 2, 2};
	double bad[5];
	struct usl_fit f;

	expect_refusal(n, x, 3, "need at least 4 points, got 3");
	expect_refusal(NULL, x, 5, "need at least 4 points");
	expect_refusal(same, x, 4, "need at least 3 distinct concurrencies, got 1");
	expect_refusal(two, x, 4, "need at least 3 distinct concurrencies, got 2");

	memcpy(bad, x, sizeof(x));
	bad[2] = 0;
	expect_refusal(n, bad, 5, "point 3: throughput 0 is not positive");
	bad[2] = -350;
	expect_refusal(n, bad, 5, "point 3: throughput -350 is not positive");
	bad[2] = NAN;
	expect_refusal(n, bad, 5, "point 3: value is not a finite number");
	bad[2] = INFINITY;
	expect_refusal(n, bad, 5, "point 3: value is not a finite number");

	memcpy(bad, n, sizeof(n));
	bad[4] = NAN;
	expect_refusal(bad, x, 5, "point 5: value is not a finite number");
	bad[4] = 0;
	expect_refusal(bad, x, 5, "point 5: concurrency 0 is below 1");
	bad[4] = -16;
	expect_refusal(bad, x, 5, "point 5: concurrency -16 is below 1");

	/* the same data is accepted once fixed: the refusals above are about the values */
	fit_ok(n, x, 5, &f);
	fit_ok(n, x, 4, &f);
}

static void test_predict(void **state)
{
	struct usl_fit f = {.lambda = 1000, .sigma = 0.1, .kappa = 0.001};

	assert_close(usl_predict(&f, 1), 1000, 1e-9);
	assert_close(usl_predict(&f, 10), 10000 / (1 + 0.9 + 0.09), 1e-9);
	assert_true(usl_predict(&f, INFINITY) == 0);
	f.kappa = 0;
	assert_close(usl_predict(&f, INFINITY), 10000, 1e-9);
	f.sigma = 0;
	assert_true(isinf(usl_predict(&f, INFINITY)));
	assert_string_equal(usl_limit_name(USL_LINEAR), "linear");
	assert_string_equal(usl_limit_name(USL_CONTENTION), "contention");
	assert_string_equal(usl_limit_name(USL_COHERENCY), "coherency");
}

/* sigma >= 1: throughput never rises above X(1), so the peak is at N = 1; flat data fits it. */
static void test_flat(void **state)
{
	double n[] = {1, 2, 4, 8, 16}, x[] = {500, 500, 500, 500, 500};
	struct usl_fit f;

	fit_ok(n, x, 5, &f);
	assert_rel(f.lambda, 500, 1e-6);
	assert_rel(f.sigma, 1, 1e-6);
	assert_close(f.kappa, 0, 1e-12);
	assert_true(f.n_max == 1);
	assert_true(isnan(f.r2));
	assert_int_equal(f.limit, USL_CONTENTION);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),	     cmocka_unit_test(test_exact_grid),
		cmocka_unit_test(test_exact_no_n1),  cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_noisy_5pct),
		cmocka_unit_test(test_noisy_amdahl), cmocka_unit_test(test_seed_shape),
		cmocka_unit_test(test_errors),	     cmocka_unit_test(test_predict),
		cmocka_unit_test(test_flat),	     cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
