// SPDX-License-Identifier: MIT
/* Unit tests for the alias tables: exact construction, realised frequencies, bad weights. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "iowl/pattern/alias.h"

/* The SNIA Emerald transfer-size split (peer-tools 2.3): 12 entries. */
static const double snia_pct[12] = {2, 2, 27, 31, 5, 5, 1, 1, 2, 20, 2, 2};

static double chi2_crit(double df)
{
	double a = 2.0 / (9.0 * df);

	return df * pow(1.0 - a + 3.090232 * sqrt(a), 3);
}

/* The probability of each index that the table encodes, read back from its columns. */
static void implied(const struct alias *a, double *p)
{
	unsigned i;

	for (i = 0; i < a->n; i++)
		p[i] = 0;
	for (i = 0; i < a->n; i++) {
		double keep = a->e[i].alias == i ? 1.0 : a->e[i].thresh * 0x1.0p-32;

		p[i] += keep / a->n;
		p[a->e[i].alias] += (1.0 - keep) / a->n;
	}
}

static void test_exact(void **state)
{
	struct alias a;
	double p[12];
	unsigned i;

	assert_int_equal(alias_init(&a, snia_pct, 12), 0);
	implied(&a, p);
	for (i = 0; i < 12; i++)
		assert_true(fabs(p[i] - snia_pct[i] / 100) < 1e-9);
}

static void test_frequencies(void **state)
{
	const int picks = 1000000;
	unsigned cnt[12] = {0};
	double chi2 = 0;
	struct alias a;
	struct rng r;
	int i;

	assert_int_equal(alias_init(&a, snia_pct, 12), 0);
	rng_init(&r, 12, 0);
	for (i = 0; i < picks; i++) {
		unsigned k = alias_pick(&a, &r);

		assert_true(k < 12);
		cnt[k]++;
	}
	for (i = 0; i < 12; i++) {
		double e = snia_pct[i] / 100 * picks;

		assert_true(fabs(cnt[i] * 100.0 / picks - snia_pct[i]) < 0.3);
		chi2 += (cnt[i] - e) * (cnt[i] - e) / e;
	}
	assert_true(chi2 < chi2_crit(11));
}

/* 256 entries with uneven weights, some zero: zeros never come out, the rest fit. */
static void test_full_table(void **state)
{
	const int picks = 2000000;
	static unsigned cnt[ALIAS_MAX];
	double w[ALIAS_MAX], p[ALIAS_MAX], chi2 = 0, total = 0;
	struct alias a;
	struct rng r;
	int i, df = -1;

	for (i = 0; i < ALIAS_MAX; i++) {
		w[i] = i % 7 == 3 ? 0 : 1 + (i * 37 % 101);
		total += w[i];
	}
	assert_int_equal(alias_init(&a, w, ALIAS_MAX), 0);
	implied(&a, p);
	rng_init(&r, 256, 0);
	for (i = 0; i < picks; i++)
		cnt[alias_pick(&a, &r)]++;
	for (i = 0; i < ALIAS_MAX; i++) {
		double e = w[i] / total * picks;

		assert_true(fabs(p[i] - w[i] / total) < 1e-9);
		if (w[i] == 0) {
			assert_int_equal(cnt[i], 0);
			continue;
		}
		chi2 += (cnt[i] - e) * (cnt[i] - e) / e;
		df++;
	}
	assert_true(chi2 < chi2_crit(df));
}

static void test_single_and_zero(void **state)
{
	const double one[1] = {5};
	const double lone[4] = {0, 0, 3, 0};
	struct alias a;
	struct rng r;
	int i;

	rng_init(&r, 1, 0);
	assert_int_equal(alias_init(&a, one, 1), 0);
	for (i = 0; i < 1000; i++)
		assert_int_equal(alias_pick(&a, &r), 0);
	assert_int_equal(alias_init(&a, lone, 4), 0);
	for (i = 0; i < 1000; i++)
		assert_int_equal(alias_pick(&a, &r), 2);
}

static void test_rejects(void **state)
{
	const double neg[3] = {1, -1, 2};
	const double zero[3] = {0, 0, 0};
	const double nan[2] = {1, NAN};
	const double inf[2] = {1, INFINITY};
	double many[ALIAS_MAX + 1];
	struct alias a;
	int i;

	for (i = 0; i <= ALIAS_MAX; i++)
		many[i] = 1;
	assert_int_equal(alias_init(&a, neg, 3), -EINVAL);
	assert_int_equal(alias_init(&a, zero, 3), -EINVAL);
	assert_int_equal(alias_init(&a, nan, 2), -EINVAL);
	assert_int_equal(alias_init(&a, inf, 2), -EINVAL);
	assert_int_equal(alias_init(&a, many, 0), -EINVAL);
	assert_int_equal(alias_init(&a, many, ALIAS_MAX + 1), -EINVAL);
	assert_int_equal(alias_init(&a, many, ALIAS_MAX), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),	   cmocka_unit_test(test_frequencies),
		cmocka_unit_test(test_full_table), cmocka_unit_test(test_single_and_zero),
		cmocka_unit_test(test_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
