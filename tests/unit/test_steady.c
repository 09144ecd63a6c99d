// SPDX-License-Identifier: MIT
/* Unit tests for steady-state detection: hand-computed windows, the ring, ss= parsing. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "iowl/steady.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* cmocka's assert_float_equal() compares floats; these checks need doubles. */
#define assert_close(got, want, tol) check_close((got), (want), (tol), __LINE__)

static void check_close(double got, double want, double tol, int line)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("line %d: got %.12g, want %.12g (tolerance %g)", line, got, want, tol);
}

static struct steady_spec spec_of(const char *text)
{
	struct steady_spec s;
	char err[256] = "";

	if (steady_parse(text, &s, err, sizeof(err)))
		fail_msg("'%s' did not parse: %s", text, err);
	return s;
}

/* Feeds ys as the series the spec watches (the other two metrics get unrelated values). */
static bool feed(struct steady *st, const uint64_t *ys, unsigned nr)
{
	bool got = false;

	for (unsigned i = 0; i < nr; i++) {
		uint64_t v[STEADY_METRIC_NR] = { 7777 + i * 13, 5 + i * i, 123456 - i };

		v[st->spec.metric] = ys[i];
		got = steady_add(st, v[STEADY_IOPS], v[STEADY_BW], v[STEADY_LAT]);
	}
	return got;
}

/* Runs ys through a fresh window of ARRAY-size n with the spec text and returns attained. */
static bool run(const char *text, const uint64_t *ys, unsigned n, struct steady *st)
{
	struct steady_spec s = spec_of(text);
	bool got;

	assert_int_equal(steady_init(st, &s, n), 0);
	got = feed(st, ys, n);
	assert_true(st->evaluated);
	assert_int_equal(got, st->attained);
	return got;
}

static void test_constant(void **state)
{
	static const uint64_t ys[] = { 1000, 1000, 1000, 1000, 1000 };
	static const char *const specs[] = {
		"iops:1%", "iops_slope:0.001%", "bw:0.5", "bw_slope:1e-9", "lat:1%", "lat_slope:0.1",
	};
	struct steady st;

	for (unsigned i = 0; i < ARRAY_SIZE(specs); i++) {
		assert_true(run(specs[i], ys, 5, &st));
		assert_true(st.deviation == 0 && st.slope == 0 && st.criterion == 0);
		assert_close(steady_mean(&st, st.spec.metric), 1000, 0);
		steady_release(&st);
	}
	/* |0| < 0 is false: a zero limit never attains. */
	assert_false(run("iops:0", ys, 5, &st));
	steady_release(&st);
	assert_false(run("iops_slope:0%", ys, 5, &st));
	steady_release(&st);
}

/* 100, 110, 120, 130, 140: slope 10, mean 120, deviation 20. */
static void test_ramp(void **state)
{
	static const uint64_t ys[] = { 100, 110, 120, 130, 140 };
	struct steady st;

	assert_false(run("iops_slope:10", ys, 5, &st)); /* 10 < 10 is false */
	assert_close(st.slope, 10, 1e-12);
	assert_close(st.criterion, 10, 1e-12);
	assert_close(st.deviation, 20, 1e-12);
	steady_release(&st);
	assert_true(run("iops_slope:10.0001", ys, 5, &st));
	steady_release(&st);

	/* 100 * 10 / 120 = 8.3333 %. */
	assert_false(run("bw_slope:8.333%", ys, 5, &st));
	assert_close(st.criterion, 100.0 * 10 / 120, 1e-9);
	steady_release(&st);
	assert_true(run("bw_slope:8.334%", ys, 5, &st));
	steady_release(&st);

	/* Deviation: 100 * 20 / 120 = 16.667 %. */
	assert_false(run("lat:16.666%", ys, 5, &st));
	assert_close(st.criterion, 100.0 * 20 / 120, 1e-9);
	steady_release(&st);
	assert_true(run("lat:16.667%", ys, 5, &st));
	steady_release(&st);
}

/* A falling series has a negative slope; the criterion keeps the sign, the test uses |.|. */
static void test_falling(void **state)
{
	static const uint64_t ys[] = { 400, 300, 200, 100 };
	struct steady st;

	/* mean 250, slope -100, -40 %. */
	assert_false(run("iops_slope:40%", ys, 4, &st));
	assert_close(st.slope, -100, 1e-12);
	assert_close(st.criterion, -40, 1e-12);
	steady_release(&st);
	assert_true(run("iops_slope:40.001%", ys, 4, &st));
	steady_release(&st);
}

/*
 * 100, 100, 100, 100, 200: mean 120, deviation 80 (66.67 %).  Slope: x - 2 is -2..2, y - 120
 * is -20 four times and 80, so sum (x - 2)(y - 120) = 40 + 20 + 0 - 20 + 160 = 200 over
 * sum (x - 2)^2 = 10: 20 per sample, 16.67 % of the mean.
 */
static void test_spike(void **state)
{
	static const uint64_t ys[] = { 100, 100, 100, 100, 200 };
	struct steady st;

	assert_false(run("iops:80", ys, 5, &st));
	assert_close(st.deviation, 80, 1e-12);
	assert_close(st.slope, 20, 1e-12);
	steady_release(&st);
	assert_true(run("iops:80.01", ys, 5, &st));
	steady_release(&st);
	assert_false(run("iops:66.666%", ys, 5, &st));
	assert_close(st.criterion, 100.0 * 80 / 120, 1e-9);
	steady_release(&st);
	assert_true(run("iops:66.667%", ys, 5, &st));
	steady_release(&st);
	assert_false(run("iops_slope:16.666%", ys, 5, &st));
	assert_true(st.criterion > 16.666 && st.criterion < 16.667);
	steady_release(&st);

	/* The spike first: the same deviation, the opposite slope. */
	static const uint64_t first[] = { 200, 100, 100, 100, 100 };

	assert_false(run("iops:66.666%", first, 5, &st));
	assert_close(st.deviation, 80, 1e-12);
	assert_close(st.slope, -20, 1e-12);
	steady_release(&st);
}

/* Values near 2^64 would overflow 64-bit sums; the criterion must still be exact. */
static void test_large_values(void **state)
{
	const uint64_t big = UINT64_MAX - 1000;
	const uint64_t ys[] = { big, big + 250, big + 500, big + 750, big + 1000 };
	struct steady st;

	assert_false(run("bw_slope:250", ys, 5, &st));
	assert_close(st.slope, 250, 1e-3);
	assert_close(st.deviation, 500, 1e-3);
	steady_release(&st);
	assert_true(run("bw_slope:250.01", ys, 5, &st));
	steady_release(&st);
}

static void test_not_full(void **state)
{
	static const uint64_t ys[] = { 5, 5, 5, 5 };
	struct steady_spec s = spec_of("iops:50%");
	struct steady st;
	uint64_t out[4];

	assert_int_equal(steady_init(&st, &s, 4), 0);
	assert_false(feed(&st, ys, 3));
	assert_false(st.evaluated);
	assert_int_equal(steady_samples(&st, STEADY_IOPS, out), 3);
	/* fio's integer mean divides by n with the missing sample as zero: 15 / 4. */
	assert_int_equal(steady_mean_fio(&st, STEADY_IOPS), 3);
	assert_close(steady_mean(&st, STEADY_IOPS), 5, 0);
	assert_true(feed(&st, ys, 1));
	assert_true(st.evaluated);
	steady_release(&st);
}

/* Reference evaluation straight from the definitions, on the last n samples of a series. */
static void reference(const uint64_t *y, unsigned n, double *dev, double *slope)
{
	double mean = 0, xm = (n - 1) / 2.0, sxy = 0, sxx = 0;

	for (unsigned i = 0; i < n; i++)
		mean += (double)y[i] / n;
	*dev = 0;
	for (unsigned i = 0; i < n; i++) {
		*dev = fmax(*dev, fabs((double)y[i] - mean));
		sxy += (i - xm) * ((double)y[i] - mean);
		sxx += (i - xm) * (i - xm);
	}
	*slope = sxy / sxx;
}

/* After many samples only the last n count, oldest first, whatever the ring position. */
static void test_wrap(void **state)
{
	enum { N = 7, TOTAL = 200 };
	struct steady_spec s = spec_of("iops_slope:0%"); /* never attains: watch every window */
	uint64_t series[TOTAL], out[N], seed = 12345;
	struct steady st;

	assert_int_equal(steady_init(&st, &s, N), 0);
	for (unsigned i = 0; i < TOTAL; i++) {
		double dev, slope;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		series[i] = 1000 + (seed >> 54) + (i % 17) * 31;
		assert_false(steady_add(&st, series[i], 2 * series[i], 3 * series[i]));
		if (i + 1 < N) {
			assert_false(st.evaluated);
			continue;
		}
		reference(series + i + 1 - N, N, &dev, &slope);
		assert_close(st.deviation, dev, 1e-9 * dev + 1e-12);
		assert_close(st.slope, slope, 1e-9 * fabs(slope) + 1e-12);
		assert_int_equal(steady_samples(&st, STEADY_BW, out), N);
		for (unsigned k = 0; k < N; k++)
			assert_int_equal(out[k], 2 * series[i + 1 - N + k]);
	}
	steady_release(&st);

	/* A ramp that then settles attains exactly when the ramp has left the window. */
	static const uint64_t tail[] = { 10, 20, 30, 40, 50, 50, 50, 50 };
	s = spec_of("iops:0.5%");
	assert_int_equal(steady_init(&st, &s, 4), 0);
	for (unsigned i = 0; i < ARRAY_SIZE(tail); i++)
		assert_int_equal(steady_add(&st, tail[i], 0, 0), i == ARRAY_SIZE(tail) - 1);
	steady_release(&st);
}

/* Each criterion watches its own series; the others are only recorded. */
static void test_metric_choice(void **state)
{
	struct steady st;
	struct steady_spec s;
	uint64_t out[3];

	/* iops constant, bw a ramp, lat constant. */
	s = spec_of("bw_slope:1%");
	assert_int_equal(steady_init(&st, &s, 3), 0);
	steady_add(&st, 500, 1000, 80);
	steady_add(&st, 500, 2000, 80);
	assert_false(steady_add(&st, 500, 3000, 80));
	assert_close(st.slope, 1000, 1e-9);
	assert_int_equal(steady_samples(&st, STEADY_LAT, out), 3);
	assert_int_equal(out[0], 80);
	assert_close(steady_mean(&st, STEADY_BW), 2000, 0);
	assert_int_equal(steady_mean_fio(&st, STEADY_IOPS), 500);
	steady_release(&st);

	s = spec_of("iops_slope:1%");
	assert_int_equal(steady_init(&st, &s, 3), 0);
	steady_add(&st, 500, 1000, 80);
	steady_add(&st, 500, 2000, 90);
	assert_true(steady_add(&st, 500, 3000, 100));
	steady_release(&st);

	s = spec_of("lat_slope:5");
	assert_int_equal(steady_init(&st, &s, 3), 0);
	steady_add(&st, 500, 1000, 80);
	steady_add(&st, 600, 1000, 90);
	assert_false(steady_add(&st, 700, 1000, 100)); /* 10 ns per sample */
	assert_close(st.slope, 10, 1e-12);
	steady_release(&st);
}

/* Once attained the window is frozen: it is the one the report shows. */
static void test_attained_sticky(void **state)
{
	struct steady_spec s = spec_of("iops:10%");
	struct steady st;
	uint64_t out[3];

	assert_int_equal(steady_init(&st, &s, 3), 0);
	steady_add(&st, 100, 1, 1);
	steady_add(&st, 101, 2, 2);
	assert_true(steady_add(&st, 102, 3, 3));
	assert_true(steady_add(&st, 9999, 4, 4));
	assert_int_equal(st.added, 3);
	assert_int_equal(steady_samples(&st, STEADY_IOPS, out), 3);
	assert_int_equal(out[2], 102);
	steady_release(&st);
}

/* An all-zero window has no percentage: never attained, criterion +inf. */
static void test_zero_mean(void **state)
{
	static const uint64_t ys[] = { 0, 0, 0 };
	struct steady st;

	assert_false(run("iops:5%", ys, 3, &st));
	assert_true(isinf(st.criterion));
	steady_release(&st);
	assert_true(run("iops:5", ys, 3, &st)); /* absolute: deviation 0 < 5 */
	steady_release(&st);
}

static void test_init_errors(void **state)
{
	struct steady_spec s = spec_of("iops:1%");
	struct steady st;

	assert_int_equal(steady_init(&st, &s, 0), -EINVAL);
	assert_int_equal(steady_init(&st, &s, 1), -EINVAL);
	assert_int_equal(steady_init(&st, &s, STEADY_MAX_SAMPLES + 1), -EINVAL);
	assert_int_equal(steady_init(&st, &s, 2), 0);
	steady_release(&st);
	steady_release(&st);
}

static void test_parse_ok(void **state)
{
	static const struct {
		const char *text;
		enum steady_metric metric;
		bool slope, pct;
		double limit;
	} cases[] = {
		{ "iops:10%", STEADY_IOPS, false, true, 10 },
		{ "iops_slope:0.1%", STEADY_IOPS, true, true, 0.1 },
		{ "bw:1048576", STEADY_BW, false, false, 1048576 },
		{ "bw_slope:5%", STEADY_BW, true, true, 5 },
		{ "lat:500000", STEADY_LAT, false, false, 500000 },
		{ "lat_slope:2.5%", STEADY_LAT, true, true, 2.5 },
		{ "iops:0", STEADY_IOPS, false, false, 0 },
		{ "iops:1e3", STEADY_IOPS, false, false, 1000 },
		{ "iops:.5%", STEADY_IOPS, false, true, 0.5 },
	};

	for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
		struct steady_spec s = spec_of(cases[i].text);

		assert_int_equal(s.metric, cases[i].metric);
		assert_int_equal(s.slope, cases[i].slope);
		assert_int_equal(s.pct, cases[i].pct);
		assert_close(s.limit, cases[i].limit, 0);
	}
}

static void test_parse_errors(void **state)
{
#define CRITS "expected iops, iops_slope, bw, bw_slope, lat or lat_slope"
#define LIMIT "expected a non-negative number (IOPS, bytes/s or ns, no unit), optionally followed by '%'"
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "", "empty steady state criterion: expected <criterion>:<limit>[%], "
		      "e.g. iops_slope:0.1%" },
		{ "iops", "missing limit in 'iops': expected <criterion>:<limit>[%], "
			  "e.g. iops_slope:0.1%" },
		{ "iosp:5%", "unknown criterion 'iosp': " CRITS },
		{ "iops_slop:5%", "unknown criterion 'iops_slop': " CRITS },
		{ "iopsx:5%", "unknown criterion 'iopsx': " CRITS },
		{ "IOPS:5%", "unknown criterion 'IOPS' (did you mean 'iops'?): " CRITS },
		{ "Bw_Slope:5%", "unknown criterion 'Bw_Slope' (did you mean 'bw_slope'?): " CRITS },
		{ ":5%", "missing criterion in ':5%': " CRITS },
		{ "iops:", "missing limit in 'iops:': " LIMIT },
		{ "iops:%", "missing limit in 'iops:%': " LIMIT },
		{ "iops:abc", "invalid limit 'abc': " LIMIT },
		{ "iops:5%%", "invalid limit '5%%': " LIMIT },
		{ "iops:5 %", "invalid limit '5 %': " LIMIT },
		{ "bw:10m", "invalid limit '10m': " LIMIT },
		{ "lat:5ms", "invalid limit '5ms': " LIMIT },
		{ "iops:5:6", "invalid limit '5:6': " LIMIT },
		{ "iops:nan", "invalid limit 'nan': " LIMIT },
		{ "iops:-1%", "negative limit '-1%': " LIMIT },
	};
	struct steady_spec s = { .metric = STEADY_LAT, .limit = 42 };

	for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
		char err[256] = "";

		assert_int_equal(steady_parse(cases[i].text, &s, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, cases[i].msg);
		assert_int_equal(s.metric, STEADY_LAT); /* untouched on failure */
	}
	assert_int_equal(steady_parse(NULL, &s, NULL, 0), -EINVAL);
	assert_close(s.limit, 42, 0);
#undef CRITS
#undef LIMIT
}

static void test_format(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "iops_slope:0.1%", "iops_slope:0.100000%" },
		{ "iops:10%", "iops:10.000000%" },
		{ "bw:1048576", "bw:1048576.000000" },
		{ "bw_slope:2", "bw_slope:2.000000" },
		{ "lat:123456789", "lat:123456792.000000" }, /* fio's (float) cast */
		{ "lat_slope:0.01%", "lat_slope:0.010000%" },
	};
	char buf[STEADY_FMT_LEN];

	for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
		struct steady_spec s = spec_of(cases[i].text);
		int n = steady_format(&s, buf, sizeof(buf));

		assert_string_equal(buf, cases[i].want);
		assert_int_equal(n, (int)strlen(cases[i].want));
	}

	static const uint64_t ys[] = { 100, 110, 120, 130, 140 };
	struct steady st;

	run("iops_slope:1%", ys, 5, &st);
	steady_format_criterion(&st, buf, sizeof(buf));
	assert_string_equal(buf, "8.333333%");
	steady_release(&st);
	run("iops_slope:1", ys, 5, &st);
	steady_format_criterion(&st, buf, sizeof(buf));
	assert_string_equal(buf, "10.000000");
	steady_release(&st);
	assert_string_equal(steady_metric_name(STEADY_BW), "bw");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_ramp),
		cmocka_unit_test(test_falling),
		cmocka_unit_test(test_spike),
		cmocka_unit_test(test_large_values),
		cmocka_unit_test(test_not_full),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_metric_choice),
		cmocka_unit_test(test_attained_sticky),
		cmocka_unit_test(test_zero_mean),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
