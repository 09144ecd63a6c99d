// SPDX-License-Identifier: MIT
/* Unit tests for the latency summary and fio's IO-depth and submit/complete buckets. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "iowl/lat.h"
#include "iowl/pattern/rng.h"

#define NSAMPLES	100000
#define ONE_HOUR_NS	3600000000000ULL

#define assert_close(got, want, tol) check_close((got), (want), (tol), __LINE__)

/* Relative comparison in doubles (cmocka's assert_float_equal() works in floats). */
static void check_close(double got, double want, double rel, int line)
{
	double tol = rel * fabs(want);

	if (!(fabs(got - want) <= tol))
		fail_msg("line %d: got %.17g, want %.17g (relative %g)", line, got, want, rel);
}

/* Two-pass mean and sample standard deviation in long double, the reference. */
static void direct_stats(const uint64_t *v, unsigned n, double *mean, double *sd)
{
	long double sum = 0, m, dev = 0;

	for (unsigned k = 0; k < n; k++)
		sum += v[k];
	m = sum / n;
	for (unsigned k = 0; k < n; k++)
		dev += ((long double)v[k] - m) * ((long double)v[k] - m);
	*mean = (double)m;
	*sd = n > 1 ? (double)sqrtl(dev / (n - 1)) : 0;
}

static uint64_t draw(unsigned shape, uint64_t *seed)
{
	uint64_t r = rng_splitmix64(seed);

	switch (shape) {
	case 0:
		return 100 + r % 1000000;
	case 1:
		return r >> (20 + r % 40);
	case 2:
		/* A large mean with a tiny spread: naive sumsq/n - mean^2 cancels. */
		return ONE_HOUR_NS + r % 1000;
	default:
		return r % 2 ? 20000 : 5000000;
	}
}

static void test_mean_stddev_vs_direct(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));

	assert_non_null(v);
	for (unsigned shape = 0; shape < 4; shape++) {
		struct lat_stat s;
		uint64_t seed = 10 + shape, min = UINT64_MAX, max = 0;
		double mean, sd;

		lat_init(&s);
		for (unsigned k = 0; k < NSAMPLES; k++) {
			v[k] = draw(shape, &seed);
			lat_add(&s, v[k]);
			min = v[k] < min ? v[k] : min;
			max = v[k] > max ? v[k] : max;
		}
		direct_stats(v, NSAMPLES, &mean, &sd);
		assert_int_equal(s.n, NSAMPLES);
		assert_int_equal(lat_min(&s), min);
		assert_int_equal(s.max, max);
		assert_close(lat_mean(&s), mean, 1e-12);
		assert_close(lat_stddev(&s), sd, 1e-9);
	}
	free(v);
}

static void test_small_n(void **state)
{
	struct lat_stat s;

	lat_init(&s);
	assert_int_equal(s.min, UINT64_MAX);
	assert_int_equal(lat_min(&s), 0);
	assert_int_equal(s.max, 0);
	assert_true(lat_mean(&s) == 0);
	assert_true(lat_stddev(&s) == 0);
	lat_add(&s, 42);
	assert_int_equal(lat_min(&s), 42);
	assert_int_equal(s.max, 42);
	assert_true(lat_mean(&s) == 42);
	assert_true(lat_stddev(&s) == 0);
	lat_add(&s, 44);
	assert_true(lat_mean(&s) == 43);
	assert_close(lat_stddev(&s), sqrt(2), 1e-15);
	lat_add(&s, 0);
	assert_int_equal(lat_min(&s), 0);
	assert_close(lat_stddev(&s), sqrt((42.0 * 42 + 44.0 * 44 - 86.0 * 86 / 3) / 2), 1e-12);
}

static void test_merge_equals_single(void **state)
{
	struct lat_stat parts[3], merged, all;
	uint64_t seed = 20;

	lat_init(&all);
	lat_init(&merged);
	for (unsigned p = 0; p < 3; p++)
		lat_init(&parts[p]);
	for (unsigned k = 0; k < NSAMPLES; k++) {
		uint64_t v = draw(k % 4, &seed);

		lat_add(&parts[k % 3], v);
		lat_add(&all, v);
	}
	for (unsigned p = 0; p < 3; p++)
		lat_merge(&merged, &parts[p]);
	assert_int_equal(merged.n, all.n);
	assert_int_equal(merged.min, all.min);
	assert_int_equal(merged.max, all.max);
	assert_int_equal(merged.sum, all.sum);
	assert_true(merged.sumsq == all.sumsq);
	/* Merging an empty summary changes nothing. */
	lat_init(&parts[0]);
	lat_merge(&merged, &parts[0]);
	assert_int_equal(merged.min, all.min);
	assert_int_equal(merged.max, all.max);
	assert_true(lat_stddev(&merged) == lat_stddev(&all));
}

static void test_sub_interval(void **state)
{
	struct lat_stat cum, snap, later, d;
	uint64_t seed = 30;

	lat_init(&cum);
	lat_init(&later);
	for (unsigned k = 0; k < 1000; k++)
		lat_add(&cum, draw(0, &seed));
	snap = cum;
	for (unsigned k = 0; k < 500; k++) {
		uint64_t v = draw(1, &seed);

		lat_add(&cum, v);
		lat_add(&later, v);
	}
	lat_sub(&d, &cum, &snap);
	assert_int_equal(d.n, later.n);
	assert_int_equal(d.sum, later.sum);
	assert_true(d.sumsq == later.sumsq);
	assert_int_equal(d.min, cum.min);
	assert_int_equal(d.max, cum.max);
	assert_close(lat_mean(&d), lat_mean(&later), 1e-15);
	assert_close(lat_stddev(&d), lat_stddev(&later), 1e-12);
	/* dst aliasing a; an empty delta is the empty summary. */
	lat_sub(&snap, &snap, &snap);
	assert_int_equal(snap.n, 0);
	assert_int_equal(snap.min, UINT64_MAX);
	assert_int_equal(snap.max, 0);
	assert_int_equal(lat_min(&snap), 0);
}

static void test_large_values(void **state)
{
	struct lat_stat s;
	uint64_t seed = 40, ups = 0;
	double n, dev, jitter_sd;

	lat_init(&s);
	for (unsigned k = 0; k < 1000000; k++)
		lat_add(&s, ONE_HOUR_NS);
	assert_int_equal(s.sum, 1000000 * ONE_HOUR_NS);
	assert_true(s.sumsq == (unsigned __int128)ONE_HOUR_NS * ONE_HOUR_NS * 1000000);
	assert_true(lat_mean(&s) == (double)ONE_HOUR_NS);
	assert_true(lat_stddev(&s) == 0);
	/* One hour +/- 1 ns: sd sqrt(n / (n - 1)), far below what doubles can cancel to. */
	lat_init(&s);
	for (unsigned k = 0; k < 1000000; k++) {
		uint64_t up = rng_splitmix64(&seed) & 1;

		ups += up;
		lat_add(&s, ONE_HOUR_NS - 1 + 2 * up);
	}
	n = (double)s.n;
	dev = 2.0 * (double)ups - n;	/* sum of the +/- 1 deviations */
	jitter_sd = sqrt((n - dev * dev / n) / (n - 1));
	assert_close(lat_stddev(&s), jitter_sd, 1e-9);
	assert_close(lat_mean(&s), (double)ONE_HOUR_NS + dev / n, 1e-15);
	/* n * sumsq is 2^128 here: the exact path must not need it. */
	lat_init(&s);
	lat_add(&s, (1ULL << 63) - 1);
	lat_add(&s, (1ULL << 63) - 3);
	assert_close(lat_stddev(&s), sqrt(2), 1e-15);
	assert_close(lat_mean(&s), 9223372036854775806.0, 1e-15);
}

/* fio's io_u_mark_depth() switch on cur_depth (depth 0 added as bucket 0). */
static unsigned fio_depth(unsigned d)
{
	if (d <= 1)
		return 0;
	if (d <= 3)
		return 1;
	if (d <= 7)
		return 2;
	if (d <= 15)
		return 3;
	if (d <= 31)
		return 4;
	if (d <= 63)
		return 5;
	return 6;
}

/* fio's __io_u_mark_map() switch, used for submit and complete. */
static unsigned fio_batch(unsigned n)
{
	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	if (n <= 8)
		return 2;
	if (n <= 16)
		return 3;
	if (n <= 32)
		return 4;
	if (n <= 64)
		return 5;
	return 6;
}

static void test_depth_and_batch_buckets(void **state)
{
	const unsigned big[] = { 1000, 65535, 65536, 1U << 31, UINT_MAX - 1, UINT_MAX };

	for (unsigned d = 0; d < 4096; d++) {
		assert_int_equal(depth_bucket(d), fio_depth(d));
		assert_int_equal(batch_bucket(d), fio_batch(d));
	}
	for (unsigned k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
		assert_int_equal(depth_bucket(big[k]), 6);
		assert_int_equal(batch_bucket(big[k]), 6);
	}
	/* The labels: depth 16 is "16" (16..31), a batch of 16 is "16" (9..16). */
	assert_int_equal(depth_bucket(16), 4);
	assert_int_equal(depth_bucket(31), 4);
	assert_int_equal(depth_bucket(32), 5);
	assert_int_equal(depth_bucket(64), 6);
	assert_int_equal(batch_bucket(16), 3);
	assert_int_equal(batch_bucket(17), 4);
	assert_int_equal(batch_bucket(64), 5);
	assert_int_equal(batch_bucket(65), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_stddev_vs_direct),
		cmocka_unit_test(test_small_n),
		cmocka_unit_test(test_merge_equals_single),
		cmocka_unit_test(test_sub_interval),
		cmocka_unit_test(test_large_values),
		cmocka_unit_test(test_depth_and_batch_buckets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
