// SPDX-License-Identifier: MIT
/* Unit tests for the PRNG: known answers, streams, unbiased bounds, unit doubles, chances. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "iowl/pattern/rng.h"

/* Upper 0.1 % point of chi-square with df degrees of freedom (Wilson-Hilferty). */
static double chi2_crit(double df)
{
	double a = 2.0 / (9.0 * df);

	return df * pow(1.0 - a + 3.090232 * sqrt(a), 3);
}

/* splitmix64 from 1234567: the reference outputs of Vigna's splitmix64.c */
static void test_splitmix_known(void **state)
{
	uint64_t x = 1234567;

	assert_int_equal(rng_splitmix64(&x), 6457827717110365317ULL);
	assert_int_equal(rng_splitmix64(&x), 3203168211198807973ULL);
	assert_int_equal(rng_splitmix64(&x), 9817491932198370423ULL);
}

/* xoshiro256** from the state {1, 2, 3, 4}, checked against an independent implementation */
static void test_xoshiro_known(void **state)
{
	struct rng r = {.s = {1, 2, 3, 4}};

	assert_int_equal(rng_next(&r), 11520);
	assert_int_equal(rng_next(&r), 0);
	assert_int_equal(rng_next(&r), 1509978240);
	assert_int_equal(rng_next(&r), 1215971899390074240ULL);
}

static void test_streams(void **state)
{
	struct rng a, b, c, d;
	int i, same_ac = 0, same_ad = 0;

	rng_init(&a, 42, rng_stream_id(0, 1));
	rng_init(&b, 42, rng_stream_id(0, 1));
	rng_init(&c, 42, rng_stream_id(0, 2));
	rng_init(&d, 43, rng_stream_id(0, 1));
	for (i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);

		assert_int_equal(x, rng_next(&b));
		same_ac += x == rng_next(&c);
		same_ad += x == rng_next(&d);
	}
	assert_int_equal(same_ac, 0);
	assert_int_equal(same_ad, 0);
	/* clone 1 of stream kind 0 and clone 0 of kind 1 are different streams */
	assert_true(rng_stream_id(1, 0) != rng_stream_id(0, 1));
}

static void test_below_small(void **state)
{
	enum { N = 6, DRAWS = 600000 };
	unsigned cnt[N] = {0};
	double chi2 = 0, e = (double)DRAWS / N;
	struct rng r;
	int i;

	rng_init(&r, 1, 0);
	for (i = 0; i < DRAWS; i++) {
		uint64_t v = rng_below(&r, N);

		assert_true(v < N);
		cnt[v]++;
	}
	for (i = 0; i < N; i++)
		chi2 += (cnt[i] - e) * (cnt[i] - e) / e;
	assert_true(chi2 < chi2_crit(N - 1));
	assert_int_equal(rng_below(&r, 1), 0);
	assert_int_equal(rng_below(&r, 0), 0);
}

/*
 * n = 3 * 2^62, where both classic shortcuts are badly biased: a modulo reduction gives
 * [0, 2^62) half the draws instead of a third, and a multiply-shift without Lemire's
 * rejection gives the multiples of 3 half the draws instead of a third.
 */
static void test_below_large(void **state)
{
	const uint64_t n = 3ULL << 62;
	const int draws = 1000000;
	struct rng r;
	int i, low = 0, mul3 = 0;
	double p = 1.0 / 3, se = sqrt(p * (1 - p) / draws);

	rng_init(&r, 2, 0);
	for (i = 0; i < draws; i++) {
		uint64_t v = rng_below(&r, n);

		assert_true(v < n);
		low += v < (1ULL << 62);
		mul3 += v % 3 == 0;
	}
	assert_true(fabs((double)low / draws - p) < 4 * se);
	assert_true(fabs((double)mul3 / draws - p) < 4 * se);
}

static void test_unit(void **state)
{
	const int draws = 1000000;
	double sum = 0, lo = 1, hi = 0;
	struct rng r;
	int i;

	rng_init(&r, 3, 0);
	for (i = 0; i < draws; i++) {
		double u = rng_unit(&r);

		assert_true(u >= 0.0 && u < 1.0);
		sum += u;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	assert_true(fabs(sum / draws - 0.5) < 4 * sqrt(1.0 / 12 / draws));
	assert_true(lo < 1e-5 && hi > 1 - 1e-5);
}

static void test_chance(void **state)
{
	const int draws = 1000000;
	uint64_t t30 = rng_percent_threshold(30);
	struct rng r;
	int i, hits = 0;

	assert_int_equal(rng_chance_threshold(0), 0);
	assert_int_equal(rng_chance_threshold(-1), 0);
	assert_int_equal(rng_chance_threshold(NAN), 0);
	assert_int_equal(rng_chance_threshold(1), RNG_CHANCE_ONE);
	assert_int_equal(rng_chance_threshold(2), RNG_CHANCE_ONE);
	assert_int_equal(t30, rng_chance_threshold(0.3));
	rng_init(&r, 4, 0);
	for (i = 0; i < draws; i++) {
		assert_false(rng_chance(&r, 0));
		assert_true(rng_chance(&r, RNG_CHANCE_ONE));
		hits += rng_chance(&r, t30);
	}
	assert_true(fabs(hits * 100.0 / draws - 30.0) < 0.3);
}

/* rng_fill: xorshift64 (13, 7, 17) words, little-endian, the last cut short, *x left at the last word. */
static void test_fill(void **state)
{
	static const unsigned char first[8] = { 0x41, 0x20, 0x82, 0x40, 0, 0, 0, 0 };
	unsigned char a[16], b[11];
	uint64_t x = 1, y = 1;

	(void)state;
	rng_fill(a, sizeof(a), &x);
	assert_memory_equal(a, first, sizeof(first));	/* 1 -> 0x2001 -> 0x2041 -> 0x40822041 */
	rng_fill(b, sizeof(b), &y);
	assert_memory_equal(a, b, sizeof(b));
	assert_int_equal(x, y);	/* both ended on the second word */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splitmix_known), cmocka_unit_test(test_xoshiro_known),
		cmocka_unit_test(test_streams),	       cmocka_unit_test(test_below_small),
		cmocka_unit_test(test_below_large),    cmocka_unit_test(test_unit),
		cmocka_unit_test(test_chance),	       cmocka_unit_test(test_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
