// SPDX-License-Identifier: MIT
/* Unit tests for the latency histogram: bin geometry, error bound, percentiles, fio buckets. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iowl/hist.h"
#include "iowl/pattern/rng.h"

#define NSAMPLES	200000 /* the error bound is a bin's half width: no count tightens it */
#define ONE_HOUR_NS	3600000000000ULL
#define MAX_ERR		0.004

static const double fio_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100,
};
#define NPCTS (sizeof(fio_pcts) / sizeof(fio_pcts[0]))

/* cmocka's assert_float_equal() compares floats; these checks need doubles. */
#define assert_close(got, want, tol) check_close((got), (want), (tol), __LINE__)

static void check_close(double got, double want, double tol, int line)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("line %d: got %.12g, want %.12g (tolerance %g)", line, got, want, tol);
}

/* Uniform double in (0, 1). */
static double rand_unit(uint64_t *state)
{
	return ((double)(rng_splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
}

static double rand_normal(uint64_t *state)
{
	double u = rand_unit(state), v = rand_unit(state);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static struct hist *hist_new(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

static void check_bin_of(uint64_t v)
{
	unsigned i = hist_index(v);

	assert_true(i < HIST_NR);
	if (hist_bin_low(i) > v || v > hist_bin_high(i))
		fail_msg("value %llu in bin %u [%llu, %llu]", (unsigned long long)v, i,
			 (unsigned long long)hist_bin_low(i),
			 (unsigned long long)hist_bin_high(i));
}

static void test_index_bounds(void **state)
{
	uint64_t seed = 1;

	for (uint64_t v = 0; v < 4096; v++)
		check_bin_of(v);
	for (unsigned b = 0; b < 64; b++) {
		uint64_t p = 1ULL << b;

		check_bin_of(p - 1);
		check_bin_of(p);
		check_bin_of(p + 1);
	}
	check_bin_of(UINT64_MAX);
	for (unsigned k = 0; k < 1000000; k++) {
		uint64_t r = rng_splitmix64(&seed);

		check_bin_of(r >> (r & 63));
	}
}

static void test_exact_below_256(void **state)
{
	for (unsigned v = 0; v < 256; v++) {
		assert_int_equal(hist_index(v), v);
		assert_int_equal(hist_bin_low(v), v);
		assert_int_equal(hist_bin_high(v), v);
		assert_int_equal(hist_bin_mid(v), v);
	}
	/* The first wider bins: [256, 257], then [510, 511], then [512, 515]. */
	assert_int_equal(hist_index(256), 256);
	assert_int_equal(hist_index(257), 256);
	assert_int_equal(hist_index(258), 257);
	assert_int_equal(hist_index(511), 383);
	assert_int_equal(hist_index(512), 384);
	assert_int_equal(hist_bin_high(384), 515);
}

static void test_bins_contiguous(void **state)
{
	assert_int_equal(hist_bin_low(0), 0);
	for (unsigned i = 0; i + 1 < HIST_NR; i++) {
		assert_int_equal(hist_bin_high(i) + 1, hist_bin_low(i + 1));
		assert_int_equal(hist_index(hist_bin_low(i)), i);
		assert_int_equal(hist_index(hist_bin_high(i)), i);
		assert_true(hist_bin_low(i) <= hist_bin_mid(i));
		assert_true(hist_bin_mid(i) <= hist_bin_high(i));
	}
	assert_int_equal(hist_bin_high(HIST_NR - 1), UINT64_MAX);
}

static void test_range_and_clamp(void **state)
{
	/* Tracked with full precision up to 2^44 - 1 (at least 2^43 was asked for). */
	assert_int_equal(hist_index((1ULL << 44) - 1), HIST_NR - 1);
	assert_int_equal(hist_bin_low(HIST_NR - 1), (1ULL << 44) - (1ULL << 36));
	assert_true(hist_index(1ULL << 43) < HIST_NR - 1);
	assert_int_equal(hist_index(1ULL << 44), HIST_NR - 1);
	assert_int_equal(hist_index(UINT64_MAX), HIST_NR - 1);
	assert_int_equal(HIST_NR, 4864);
}

static void check_rel_err(uint64_t v)
{
	uint64_t mid = hist_bin_mid(hist_index(v));
	double err = fabs((double)mid - (double)v) / (double)v;

	if (err > MAX_ERR)
		fail_msg("value %llu: mid %llu, error %.6f", (unsigned long long)v,
			 (unsigned long long)mid, err);
}

static void test_relative_error(void **state)
{
	uint64_t seed = 2;

	for (uint64_t v = 1; v < 1 << 20; v++)
		check_rel_err(v);
	/* Bin edges are the worst case: check every low and high up to 2^44. */
	for (unsigned i = 1; i + 1 < HIST_NR; i++) {
		check_rel_err(hist_bin_low(i));
		check_rel_err(hist_bin_high(i));
	}
	for (double v = 1; v <= (double)ONE_HOUR_NS; v *= 1.00001)
		check_rel_err((uint64_t)v);
	check_rel_err(ONE_HOUR_NS);
	check_rel_err((1ULL << 44) - 1);
	for (unsigned k = 0; k < 1000000; k++)
		check_rel_err(1 + rng_splitmix64(&seed) % ONE_HOUR_NS);
}

static void test_size(void **state)
{
	assert_true(sizeof(struct hist) <= 48 * 1024);
	assert_int_equal(sizeof(struct hist), HIST_NR * sizeof(uint64_t));
}

enum shape { SHAPE_UNIFORM, SHAPE_LOGNORMAL, SHAPE_BIMODAL, SHAPE_CONST, SHAPE_LOGUNIFORM,
	     SHAPE_SMALL, SHAPE_NR };

static uint64_t sample(enum shape s, uint64_t *seed)
{
	double x;

	switch (s) {
	case SHAPE_UNIFORM:
		return 100 + rng_splitmix64(seed) % (1000000 - 100 + 1);
	case SHAPE_LOGNORMAL:
		return (uint64_t)exp(log(50000.0) + 1.0 * rand_normal(seed));
	case SHAPE_BIMODAL:
		if (rng_splitmix64(seed) % 10 < 9)
			x = 20000 + 2000 * rand_normal(seed);
		else
			x = 5e6 + 5e5 * rand_normal(seed);
		return x < 1 ? 1 : (uint64_t)x;
	case SHAPE_CONST:
		return 123457;
	case SHAPE_LOGUNIFORM:
		return (uint64_t)exp(rand_unit(seed) * log((double)ONE_HOUR_NS));
	default:
		return rng_splitmix64(seed) % 300;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The exact percentile: the sample at 1-based rank ceil(p / 100 * n). */
static uint64_t exact_pct(const uint64_t *sorted, uint64_t n, double p)
{
	uint64_t pm = (uint64_t)llround(p * 1e6);
	uint64_t rank = (uint64_t)(((unsigned __int128)pm * n + 99999999) / 100000000);

	return sorted[(rank ? rank : 1) - 1];
}

static void check_shape(enum shape s, uint64_t *v, struct hist *h)
{
	uint64_t seed = 1000 + s, min = UINT64_MAX, max = 0, out[NPCTS];

	memset(h, 0, sizeof(*h));
	for (unsigned k = 0; k < NSAMPLES; k++) {
		v[k] = sample(s, &seed);
		hist_add(h, v[k]);
		min = v[k] < min ? v[k] : min;
		max = v[k] > max ? v[k] : max;
	}
	qsort(v, NSAMPLES, sizeof(*v), cmp_u64);
	hist_percentiles(h, min, max, fio_pcts, NPCTS, out);
	for (unsigned j = 0; j < NPCTS; j++) {
		uint64_t want = exact_pct(v, NSAMPLES, fio_pcts[j]);
		double err = fabs((double)out[j] - (double)want);

		if (err > MAX_ERR * (double)want || out[j] > max || out[j] < min)
			fail_msg("shape %d p%g: got %llu, exact %llu, min %llu max %llu", s,
				 fio_pcts[j], (unsigned long long)out[j],
				 (unsigned long long)want, (unsigned long long)min,
				 (unsigned long long)max);
	}
	assert_int_equal(out[NPCTS - 1], max);
}

static void test_percentiles_vs_exact(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	struct hist *h = hist_new();

	assert_non_null(v);
	for (int s = 0; s < SHAPE_NR; s++)
		check_shape((enum shape)s, v, h);
	free(v);
	free(h);
}

static void test_percentiles_clamped(void **state)
{
	struct hist *h = hist_new();
	uint64_t v = hist_bin_low(3000), out[3];
	const double p[] = { 1, 50, 100 };

	/* One value at a bin's low edge: the bin midpoint lies above it (fio issue #1984). */
	assert_true(hist_bin_mid(3000) > v);
	hist_add(h, v);
	hist_percentiles(h, v, v, p, 3, out);
	for (unsigned j = 0; j < 3; j++)
		assert_int_equal(out[j], v);
	/* And at a high edge the midpoint lies below the minimum. */
	memset(h, 0, sizeof(*h));
	v = hist_bin_high(3000);
	hist_add(h, v);
	hist_percentiles(h, v, v, p, 3, out);
	assert_int_equal(out[0], v);
	/* Loose bounds (cumulative extremes with an interval delta) do not move p1 or p100. */
	hist_percentiles(h, 0, UINT64_MAX, p, 3, out);
	assert_int_equal(out[0], hist_bin_mid(3000));
	assert_int_equal(out[2], hist_bin_mid(3000));
	free(h);
}

static void test_percentiles_rank(void **state)
{
	struct hist *h = hist_new();
	const double p[] = { 99.9, 100, 0.1, 50, 99.9 };
	uint64_t out[5];

	/* 999 values of 10 ns and one of 200 ns: p99.9 is rank 999 exactly, so 10. */
	for (unsigned k = 0; k < 999; k++)
		hist_add(h, 10);
	hist_add(h, 200);
	hist_percentiles(h, 10, 200, p, 5, out);
	assert_int_equal(out[0], 10);
	assert_int_equal(out[1], 200);
	assert_int_equal(out[2], 10);
	assert_int_equal(out[3], 10);
	assert_int_equal(out[4], 10);
	free(h);
}

static void test_percentiles_unsorted_and_empty(void **state)
{
	struct hist *h = hist_new();
	const double sorted[] = { 1, 25, 50, 75, 99 }, shuffled[] = { 75, 1, 99, 50, 25 };
	uint64_t a[5], b[5], seed = 7, max = 0;

	hist_percentiles(h, UINT64_MAX, 0, sorted, 5, a);
	for (unsigned j = 0; j < 5; j++)
		assert_int_equal(a[j], 0);
	for (unsigned k = 0; k < 10000; k++) {
		uint64_t v = 1 + rng_splitmix64(&seed) % 100000;

		max = v > max ? v : max;
		hist_add(h, v);
	}
	hist_percentiles(h, 1, max, sorted, 5, a);
	hist_percentiles(h, 1, max, shuffled, 5, b);
	assert_int_equal(b[0], a[3]);
	assert_int_equal(b[1], a[0]);
	assert_int_equal(b[2], a[4]);
	assert_int_equal(b[3], a[2]);
	assert_int_equal(b[4], a[1]);
	for (unsigned j = 1; j < 5; j++)
		assert_true(a[j - 1] <= a[j]);
	free(h);
}

static void test_merge_sub_total(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new(), *d = hist_new();
	uint64_t seed = 3;

	for (unsigned k = 0; k < 100000; k++) {
		uint64_t v = rng_splitmix64(&seed) >> (rng_splitmix64(&seed) & 63);

		hist_add(k & 1 ? a : b, v);
		hist_add(all, v);
	}
	assert_int_equal(hist_total(a), 50000);
	assert_int_equal(hist_total(b), 50000);
	hist_sub(d, all, a);
	assert_memory_equal(d, b, sizeof(*d));
	hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	assert_int_equal(hist_total(a), 100000);
	/* dst aliasing a, and a torn snapshot saturating at zero. */
	hist_sub(a, a, b);
	hist_sub(d, d, all);
	assert_int_equal(hist_total(a), 50000);
	assert_int_equal(hist_total(d), 0);
	free(a);
	free(b);
	free(all);
	free(d);
}

/* Bucket slot of a value the way fio's io_u_mark_latency() picks it (0..31). */
static unsigned fio_slot(uint64_t ns)
{
	static const unsigned edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	uint64_t unit = ns < 1000 ? ns : ns < 1000000 ? ns / 1000 : ns / 1000000;
	unsigned base = ns < 1000 ? 0 : ns < 1000000 ? 10 : 20, k = 0;

	while (k < 10 && unit >= edges[k])
		k++;
	if (base == 20 && k == 10 && unit >= 2000)
		k = 11;
	return base + k;
}

static void buckets_of(const struct hist *h, double *all)
{
	hist_fio_buckets(h, all, all + HIST_FIO_NS_NR, all + HIST_FIO_NS_NR + HIST_FIO_US_NR);
}

static void test_fio_buckets_known(void **state)
{
	static const struct {
		uint64_t ns;
		unsigned slot;
	} known[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 15, 3 }, { 19, 3 }, { 20, 4 }, { 300, 7 },
		{ 999, 9 }, { 1000, 10 }, { 1500, 10 }, { 3999, 11 }, { 990000, 19 },
		{ 1100000, 20 }, { 3000000, 21 }, { 1500000000, 30 }, { 5000000000, 31 },
		{ ONE_HOUR_NS, 31 }, { UINT64_MAX, 31 },
	};
	struct hist *h = hist_new();
	double all[32];

	for (unsigned k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
		assert_int_equal(fio_slot(known[k].ns), known[k].slot);
		memset(h, 0, sizeof(*h));
		for (unsigned j = 0; j < 1000; j++)
			hist_add(h, known[k].ns);
		buckets_of(h, all);
		for (unsigned s = 0; s < 32; s++)
			if (fabs(all[s] - (s == known[k].slot ? 100 : 0)) > 1e-9)
				fail_msg("%llu ns: slot %u is %g%%",
					 (unsigned long long)known[k].ns, s, all[s]);
	}
	free(h);
}

static void test_fio_buckets_split(void **state)
{
	struct hist *h = hist_new();
	double all[32];

	/* 750 ns lands in bin [748, 751]: half of it is below the edge. */
	assert_int_equal(hist_bin_low(hist_index(750)), 748);
	for (unsigned j = 0; j < 1000; j++)
		hist_add(h, 750);
	buckets_of(h, all);
	assert_close(all[8], 50, 1e-9);
	assert_close(all[9], 50, 1e-9);
	/* 1 ms lands in bin [999424, 1003519]: 576 of its 4096 values are below 1 ms. */
	memset(h, 0, sizeof(*h));
	assert_int_equal(hist_bin_low(hist_index(1000000)), 999424);
	hist_add(h, 1000000);
	buckets_of(h, all);
	assert_close(all[19], 100.0 * 576 / 4096, 1e-9);
	assert_close(all[20], 100.0 * 3520 / 4096, 1e-9);
	memset(h, 0, sizeof(*h));
	hist_fio_buckets(h, all, all + 10, all + 20);
	for (unsigned s = 0; s < 32; s++)
		assert_close(all[s], 0, 0);
	free(h);
}

/* Every integer value below 2^22 once: the uniform split is then exact. */
static void test_fio_buckets_uniform(void **state)
{
	const uint64_t n = 1ULL << 22;
	struct hist *h = hist_new();
	double all[32], want[32] = { 0 }, sum = 0;

	for (uint64_t v = 0; v < n; v++) {
		hist_add(h, v);
		want[fio_slot(v)] += 100.0 / (double)n;
	}
	buckets_of(h, all);
	for (unsigned s = 0; s < 32; s++) {
		assert_close(all[s], want[s], 1e-9);
		sum += all[s];
	}
	assert_close(sum, 100, 1e-9);
	free(h);
}

static void test_fio_buckets_random_sum(void **state)
{
	struct hist *h = hist_new();
	uint64_t seed = 5;
	double all[32], sum = 0, exact[32] = { 0 };

	for (unsigned k = 0; k < 1000000; k++) {
		uint64_t v = (uint64_t)exp(rand_unit(&seed) * log(1e10));

		hist_add(h, v);
		exact[fio_slot(v)] += 1e-4;
	}
	buckets_of(h, all);
	for (unsigned s = 0; s < 32; s++) {
		sum += all[s];
		/* Splitting straddling bins moves at most a bin's worth: 0.4 % of the edge. */
		assert_close(all[s], exact[s], 0.05 + 0.01 * exact[s]);
	}
	assert_close(sum, 100, 1e-9);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_bounds),
		cmocka_unit_test(test_exact_below_256),
		cmocka_unit_test(test_bins_contiguous),
		cmocka_unit_test(test_range_and_clamp),
		cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_percentiles_vs_exact),
		cmocka_unit_test(test_percentiles_clamped),
		cmocka_unit_test(test_percentiles_rank),
		cmocka_unit_test(test_percentiles_unsorted_and_empty),
		cmocka_unit_test(test_merge_sub_total),
		cmocka_unit_test(test_fio_buckets_known),
		cmocka_unit_test(test_fio_buckets_split),
		cmocka_unit_test(test_fio_buckets_uniform),
		cmocka_unit_test(test_fio_buckets_random_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
