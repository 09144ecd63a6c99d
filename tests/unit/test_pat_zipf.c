// SPDX-License-Identifier: MIT
/* Zipf at scale: exact harmonic numbers and the head mass for n up to 2^48, against fio's error. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "iowl/pattern/zipf.h"

#define DRAWS 1000000

/*
 * H(n, theta) for the tests, computed independently of zipf_harmonic(): the first 10^6 terms
 * summed directly (smallest first, into a long double), then the tail k = 10^6 + 1 .. n by
 * Euler-Maclaurin: integral + (f(a) + f(n)) / 2 + (f'(n) - f'(a)) / 12 with f(x) = x^-theta,
 * whose next term, (f'''(a) - f'''(n)) / 720, is below 1e-24 at a = 10^6 + 1.
 */
static double ref_harmonic(uint64_t n, double theta)
{
	const uint64_t m = 1000000;
	static struct {
		double theta;
		long double sum;
	} head[8]; /* the first 10^6 terms per theta, summed once (most calls have n > 10^6) */
	static unsigned nhead;
	long double sum = 0, a, fa, fn, integral;
	uint64_t k, top = n < m ? n : m;
	unsigned i;

	for (i = 0; n > m && i < nhead && head[i].theta != theta; i++)
		;
	if (n > m && i < nhead) {
		sum = head[i].sum;
	} else {
		for (k = top; k >= 1; k--)
			sum += pow((double)k, -theta);
		if (n > m && nhead < 8) {
			head[nhead].theta = theta;
			head[nhead++].sum = sum;
		}
	}
	if (n <= m)
		return (double)sum;
	a = (long double)(m + 1);
	fa = powl(a, -theta);
	fn = powl((long double)n, -theta);
	if (theta == 1.0)
		integral = logl((long double)n / a);
	else
		integral = (powl((long double)n, 1 - theta) - powl(a, 1 - theta)) / (1 - theta);
	sum += integral + (fa + fn) / 2 + (-theta * fn / n + theta * fa / a) / 12;
	return (double)sum;
}

/* Values from mpmath (zeta(theta) - zeta(theta, n + 1), 30 digits). */
static const struct {
	uint64_t n;
	double theta, h;
} known[] = {
	{1000, 0.5, 61.801008765243232338},	   {1000, 1.0, 7.4854708605503449127},
	{33554432, 0.99, 19.497198540264486747},   {1ULL << 30, 0.99, 23.690928357336738701},
	{1ULL << 40, 0.99, 32.527278099561841846}, {1ULL << 30, 1.2, 5.5134574411850277517},
	{1ULL << 40, 1.2, 5.5720511911777536316},  {1ULL << 48, 1.0, 33.848280331778909489},
	{1ULL << 63, 1.2, 5.5907770774626805353},
};

static void test_harmonic(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		double h = known[i].h;

		assert_true(fabs(ref_harmonic(known[i].n, known[i].theta) / h - 1) < 1e-13);
		/* within 2 ulp: a wrong Euler-Maclaurin term would show */
		assert_true(fabs(zipf_harmonic(known[i].n, known[i].theta) / h - 1) < 5e-16);
	}
	assert_true(fabs(zipf_harmonic(1, 0.7) - 1) < 1e-15);
	assert_true(fabs(zipf_harmonic(5000, 0.3) - 553.99114441749902169) < 1e-10);
}

/* Shares of rank 1 and of ranks 1..10 within 3 standard errors of the exact values. */
static void check_head(uint64_t n, double theta, uint64_t seed)
{
	double h = ref_harmonic(n, theta), h10 = ref_harmonic(10, theta);
	double p1 = 1 / h, p10 = h10 / h;
	double se1 = sqrt(p1 * (1 - p1) / DRAWS), se10 = sqrt(p10 * (1 - p10) / DRAWS);
	unsigned c1 = 0, c10 = 0;
	struct zipf z;
	struct rng r;
	int i;

	assert_int_equal(zipf_init(&z, n, theta), 0);
	rng_init(&r, seed, 0);
	for (i = 0; i < DRAWS; i++) {
		uint64_t k = zipf_next(&z, &r);

		assert_true(k >= 1 && k <= n);
		c1 += k == 1;
		c10 += k <= 10;
	}
	if (fabs((double)c1 / DRAWS - p1) > 3 * se1)
		fail_msg("n %llu theta %g: rank 1 %.5f, exact %.5f", (unsigned long long)n, theta,
			 (double)c1 / DRAWS, p1);
	if (fabs((double)c10 / DRAWS - p10) > 3 * se10)
		fail_msg("n %llu theta %g: ranks 1-10 %.5f, exact %.5f", (unsigned long long)n,
			 theta, (double)c10 / DRAWS, p10);
}

static void test_head_mass(void **state)
{
	check_head(1ULL << 30, 0.99, 1);
	check_head(1ULL << 30, 1.2, 2);
	check_head(1ULL << 40, 0.99, 3);
	check_head(1ULL << 40, 1.2, 4);
	check_head(1ULL << 48, 1.0, 5);
	check_head(1ULL << 48, 0.5, 6);
}

/* 128 GiB of 4 KiB blocks at theta 0.99: rank 1 is 5.13 %; fio's capped zeta gives 5.54 %. */
static void test_fio_case(void **state)
{
	const uint64_t n = 33554432;
	struct zipf z;
	struct rng r;
	unsigned c1 = 0;
	double share;
	int i;

	zipf_init(&z, n, 0.99);
	rng_init(&r, 7, 0);
	for (i = 0; i < DRAWS; i++)
		c1 += zipf_next(&z, &r) == 1;
	share = c1 * 100.0 / DRAWS;
	assert_true(fabs(share - 5.129) < 3 * 100 * sqrt(0.05129 * 0.94871 / DRAWS));
	assert_true(share < 5.4);
	check_head(n, 0.99, 8);
}

/* Steep and flat extremes: theta 5 puts 1/zeta(5) = 96.4 % on rank 1; tiny n works. */
static void test_extremes(void **state)
{
	struct zipf z;
	struct rng r;
	unsigned c1 = 0;
	int i;

	check_head(1ULL << 40, 5.0, 9);
	check_head(1ULL << 20, 0.01, 10);
	assert_int_equal(zipf_init(&z, 1, 1.0), 0);
	rng_init(&r, 11, 0);
	for (i = 0; i < 1000; i++)
		assert_int_equal(zipf_next(&z, &r), 1);
	assert_int_equal(zipf_init(&z, 2, 1.0), 0);
	for (i = 0; i < DRAWS; i++)
		c1 += zipf_next(&z, &r) == 1;
	/* P(1) = 1 / (1 + 1/2) */
	assert_true(fabs(c1 / (double)DRAWS - 2.0 / 3) < 4 * sqrt(2.0 / 9 / DRAWS));
}

/* The head table is only a shortcut: with it switched off the same draws give the same ranks. */
static void check_head_table_same(uint64_t n, double theta)
{
	static struct zipf with, without;
	struct rng r1, r2;
	unsigned head = 0;
	int i;

	zipf_init(&with, n, theta);
	without = with;
	without.head_v = 0;
	assert_true(with.head_n >= 2);
	rng_init(&r1, 12, 0);
	rng_init(&r2, 12, 0);
	for (i = 0; i < DRAWS; i++) {
		uint64_t k = zipf_next(&with, &r1);

		assert_int_equal(k, zipf_next(&without, &r2));
		head += k <= with.head_n;
	}
	/* and the head was really used */
	assert_true(head > DRAWS / 100);
}

static void test_head_table(void **state)
{
	check_head_table_same(1000, 0.5);
	check_head_table_same(1ULL << 28, 0.99);
	check_head_table_same(1ULL << 28, 1.2);
	check_head_table_same(1ULL << 40, 2.0);
	check_head_table_same(3, 1.0);
}

static void test_init_errors(void **state)
{
	struct zipf z;

	assert_int_equal(zipf_init(&z, 0, 1.1), -EINVAL);
	assert_int_equal(zipf_init(&z, 10, 0), -EINVAL);
	assert_int_equal(zipf_init(&z, 10, -1), -EINVAL);
	assert_int_equal(zipf_init(&z, 10, NAN), -EINVAL);
	assert_int_equal(zipf_init(&z, 10, INFINITY), -EINVAL);
	assert_int_equal(zipf_init(&z, UINT64_MAX, 1.0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_harmonic),   cmocka_unit_test(test_head_mass),
		cmocka_unit_test(test_fio_case),   cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_head_table), cmocka_unit_test(test_init_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
