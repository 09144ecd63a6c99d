// SPDX-License-Identifier: MIT
/* Unit tests for the Feistel permutation and the full-coverage walk. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "iowl/pattern/perm.h"

static double chi2_crit(double df)
{
	double a = 2.0 / (9.0 * df);

	return df * pow(1.0 - a + 3.090232 * sqrt(a), 3);
}

static uint8_t *bitmap_new(uint64_t n)
{
	uint8_t *m = calloc(n / 8 + 1, 1);

	assert_non_null(m);
	return m;
}

/* Sets bit x; returns false when it was already set. */
static bool bitmap_claim(uint8_t *m, uint64_t x)
{
	bool was = m[x / 8] >> (x % 8) & 1;

	m[x / 8] |= (uint8_t)(1U << (x % 8));
	return !was;
}

static void check_bijection(uint64_t n, uint64_t seed)
{
	uint8_t *seen = bitmap_new(n);
	struct perm p;
	uint64_t x;

	assert_int_equal(perm_init(&p, n, seed), 0);
	for (x = 0; x < n; x++) {
		uint64_t y = perm_apply(&p, x);

		assert_true(y < n);
		assert_true(bitmap_claim(seen, y));
		assert_int_equal(perm_invert(&p, y), x);
	}
	free(seen);
}

static void test_bijection(void **state)
{
	static const uint64_t sizes[] = {1, 2, 3, 4, 5, 1000, 4096, 786432, 1000003, 3000017};
	struct perm p;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check_bijection(sizes[i], 7);
		check_bijection(sizes[i], 0x123456789ULL);
	}
	/* both domain shapes are exercised above */
	perm_init(&p, 1000003, 1);
	assert_false(p.mixed);
	perm_init(&p, 786432, 1);
	assert_true(p.mixed);
	assert_int_equal(p.a * p.b - 786432 < p.a, 1);
	perm_init(&p, 3000017, 1);
	assert_true(p.mixed);
}

static void test_limits(void **state)
{
	struct perm p;
	uint64_t x;

	assert_int_equal(perm_init(&p, 0, 1), -EINVAL);
	assert_int_equal(perm_init(&p, PERM_MAX_N + 1, 1), -EINVAL);
	assert_int_equal(perm_init(&p, PERM_MAX_N, 1), 0);
	for (x = 0; x < 100000; x++) {
		uint64_t v = x * 0x9e3779b97f4a7c15ULL % PERM_MAX_N;
		uint64_t y = perm_apply(&p, v);

		assert_true(y < PERM_MAX_N);
		assert_int_equal(perm_invert(&p, y), v);
	}
	/* 2^63 - 1: an odd number of bits with a walk */
	assert_int_equal(perm_init(&p, PERM_MAX_N - 1, 1), 0);
	for (x = 0; x < 100000; x++)
		assert_int_equal(perm_invert(&p, perm_apply(&p, x)), x);
	/* 2^62 + 1: the largest mixed-radix domains */
	assert_int_equal(perm_init(&p, (1ULL << 62) + 1, 1), 0);
	assert_true(p.mixed);
	for (x = 0; x < 100000; x++) {
		uint64_t v = (1ULL << 62) - x;
		uint64_t y = perm_apply(&p, v);

		assert_true(y <= 1ULL << 62);
		assert_int_equal(perm_invert(&p, y), v);
	}
}

static void test_seeds_differ(void **state)
{
	struct perm a, b;
	uint64_t x, same = 0;

	perm_init(&a, 1000003, 1);
	perm_init(&b, 1000003, 2);
	for (x = 0; x < 1000003; x++)
		same += perm_apply(&a, x) == perm_apply(&b, x);
	/* two independent permutations agree in about one place */
	assert_true(same < 10);
}

/* The first 1 % of ranks (the hot set) lands evenly over the whole region. */
static void check_scatter_even(uint64_t n)
{
	enum { BUCKETS = 100, RANKS = 10000 };
	unsigned cnt[BUCKETS] = {0};
	double chi2 = 0, e = (double)RANKS / BUCKETS;
	struct perm p;
	uint64_t x;
	int i;

	perm_init(&p, n, 99);
	for (x = 0; x < RANKS; x++)
		cnt[perm_apply(&p, x) * BUCKETS / n]++;
	for (i = 0; i < BUCKETS; i++)
		chi2 += (cnt[i] - e) * (cnt[i] - e) / e;
	assert_true(chi2 < chi2_crit(BUCKETS - 1));
}

static void test_scatter_even(void **state)
{
	check_scatter_even(1000003);
	check_scatter_even(3000017);
}

/* Average network passes per value over the whole of [0, n). */
static double walk_cost(uint64_t n)
{
	uint64_t x, steps = 0;
	struct perm p;

	perm_init(&p, n, 5);
	for (x = 0; x < n; x++) {
		uint64_t y = x;

		do {
			y = perm_encrypt(&p, y);
			steps++;
		} while (y >= n);
		assert_int_equal(y, perm_apply(&p, x));
	}
	return (double)steps / n;
}

/* The worst case of each shape: 1/8 of a power of two empty, and just above one. */
static void test_walk_cost(void **state)
{
	assert_true(walk_cost((7ULL << 17) + 1) < 8.0 / 7 + 0.01);
	assert_true(walk_cost((1ULL << 20) + 1) < 1.01);
}

static void check_cover(uint64_t n, uint64_t seed)
{
	uint64_t *first = malloc(n * sizeof(*first));
	uint8_t *seen;
	struct cover c;
	uint64_t i, same = 0;
	int pass;

	assert_non_null(first);
	assert_int_equal(cover_init(&c, n, seed), 0);
	for (pass = 0; pass < 3; pass++) {
		seen = bitmap_new(n);
		for (i = 0; i < n; i++) {
			bool done = false;
			uint64_t b = cover_next(&c, &done);

			assert_true(b < n);
			assert_true(bitmap_claim(seen, b));
			assert_int_equal(done, i == n - 1);
			if (pass == 0)
				first[i] = b;
			else if (pass == 1)
				same += first[i] == b;
		}
		assert_int_equal(c.pass, pass + 1);
		free(seen);
	}
	/* the second pass is a different order (two random orders agree in about one place) */
	if (n >= 1000)
		assert_true(same < 10);
	free(first);
}

static void test_cover(void **state)
{
	struct cover c;
	bool done = false;

	check_cover(1000, 1);
	check_cover(786432, 2);
	check_cover(1000003, 3);
	assert_int_equal(cover_init(&c, 0, 1), -EINVAL);
	assert_int_equal(cover_init(&c, 1, 1), 0);
	assert_int_equal(cover_next(&c, &done), 0);
	assert_true(done);
	assert_int_equal(cover_next(&c, NULL), 0);
	assert_int_equal(c.pass, 2);
}

/* Consecutive blocks of a pass are uncorrelated (no LFSR-like structure). */
static void check_cover_serial(uint64_t n)
{
	double sx = 0, sxx = 0, sxy = 0, prev, r, mean, var;
	struct cover c;
	uint64_t i;

	cover_init(&c, n, 11);
	prev = (double)cover_next(&c, NULL);
	for (i = 1; i < n; i++) {
		double x = (double)cover_next(&c, NULL);

		sx += prev;
		sxx += prev * prev;
		sxy += prev * x;
		prev = x;
	}
	mean = sx / (n - 1);
	var = sxx / (n - 1) - mean * mean;
	r = (sxy / (n - 1) - mean * mean) / var;
	assert_true(fabs(r) < 4.0 / sqrt((double)n));
}

static void test_cover_serial(void **state)
{
	check_cover_serial(1 << 20);
	check_cover_serial(786432);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bijection),    cmocka_unit_test(test_limits),
		cmocka_unit_test(test_seeds_differ), cmocka_unit_test(test_scatter_even),
		cmocka_unit_test(test_walk_cost),    cmocka_unit_test(test_cover),
		cmocka_unit_test(test_cover_serial),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
