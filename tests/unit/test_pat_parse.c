// SPDX-License-Identifier: MIT
/* Unit tests for dist_spec_parse(): every accepted form and every error message. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "iowl/pattern/dist.h"

struct good {
	const char *in;
	enum dist_type type;
	double param;
	bool has_center;
	double center;
};

static const struct good goods[] = {
	{"random", DIST_UNIFORM, 0, false, 0},
	{"zipf", DIST_ZIPF, 1.1, false, 0},
	{"zipf:1.2", DIST_ZIPF, 1.2, false, 0},
	{"zipf:1", DIST_ZIPF, 1.0, false, 0}, /* fio rejects theta = 1 */
	{"zipf:0.99:0.5", DIST_ZIPF, 0.99, true, 0.5},
	{"zipf:2e-1:1", DIST_ZIPF, 0.2, true, 1.0},
	{"pareto", DIST_PARETO, 0.2, false, 0},
	{"pareto:0.8", DIST_PARETO, 0.8, false, 0},
	{"pareto:.9:0", DIST_PARETO, 0.9, true, 0.0},
	{"normal", DIST_NORMAL, 0, false, 0},
	{"normal:10", DIST_NORMAL, 10, false, 0},
	{"normal:0:0.25", DIST_NORMAL, 0, true, 0.25},
	{"gauss:99.5", DIST_NORMAL, 99.5, false, 0},
	{"normal_sd:10:0.5", DIST_NORMAL_SD, 10, true, 0.5},
	{"hotband", DIST_HOTBAND, 0, false, 0},
	{"hotband:0.01", DIST_HOTBAND, 0, true, 0.01},
};

static void test_good(void **state)
{
	char why[DIST_WHY_LEN];
	struct dist_spec s;
	size_t i;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		const struct good *g = &goods[i];

		if (dist_spec_parse(g->in, &s, why))
			fail_msg("'%s': %s", g->in, why);
		assert_int_equal(s.type, g->type);
		assert_true(s.param == g->param);
		assert_int_equal(s.has_center, g->has_center);
		assert_true(s.center == g->center);
		assert_false(s.contiguous);
		assert_int_equal(s.nzones, 0);
	}
}

static void test_zoned(void **state)
{
	char why[DIST_WHY_LEN];
	struct dist_spec s;

	assert_int_equal(dist_spec_parse("zoned:60/10:30/20:10/70", &s, why), 0);
	assert_int_equal(s.type, DIST_ZONED);
	assert_int_equal(s.nzones, 3);
	assert_true(s.zones[0].access == 60 && s.zones[0].size == 10);
	assert_true(s.zones[2].access == 10 && s.zones[2].size == 70);
	/* decimals, sizes below 100 in total, a zone without access */
	assert_int_equal(dist_spec_parse("zoned:33.3/10:33.3/0.5:0/50:33.4/1.25", &s, why), 0);
	assert_int_equal(s.nzones, 4);
	assert_true(s.zones[1].size == 0.5 && s.zones[2].access == 0);
	assert_int_equal(dist_spec_parse("zoned:100/100", &s, why), 0);
	/* fio's shorthand (its rand-zones example): a last zone without a size takes the rest */
	assert_int_equal(dist_spec_parse("zoned:50/5:30/15:20/", &s, why), 0);
	assert_int_equal(s.nzones, 3);
	assert_true(s.zones[2].access == 20 && s.zones[2].size == 80);
	assert_int_equal(dist_spec_parse("zoned:50/50:50", &s, why), 0);
	assert_true(s.zones[1].access == 50 && s.zones[1].size == 50);
}

static void test_zoned_abs(void **state)
{
	char why[DIST_WHY_LEN];
	struct dist_spec s;

	assert_int_equal(dist_spec_parse("zoned_abs:60/20g:30/100G:10/500gib", &s, why), 0);
	assert_int_equal(s.type, DIST_ZONED_ABS);
	assert_int_equal(s.nzones, 3);
	assert_true(s.zones[0].size == 20.0 * (1ULL << 30));
	assert_true(s.zones[1].size == 100.0 * (1ULL << 30));
	assert_true(s.zones[2].size == 500.0 * (1ULL << 30));
	assert_int_equal(dist_spec_parse("zoned_abs:25/4096:25/4k:25/1.5m:25/2tb", &s, why), 0);
	assert_true(s.zones[0].size == 4096 && s.zones[1].size == 4096);
	assert_true(s.zones[2].size == 1.5 * 1048576 && s.zones[3].size == 2.0 * (1ULL << 40));
	assert_int_equal(dist_spec_parse("zoned_abs:50/512b:50/1p", &s, why), 0);
	assert_true(s.zones[0].size == 512 && s.zones[1].size == (double)(1ULL << 50));
}

static void test_max_zones(void **state)
{
	char in[DIST_MAX_ZONES * 16 + 64], why[DIST_WHY_LEN];
	struct dist_spec s;
	size_t len = 0;
	int i;

	len += snprintf(in, sizeof(in), "zoned");
	for (i = 0; i < DIST_MAX_ZONES; i++)
		len += snprintf(in + len, sizeof(in) - len, ":%s/0.1", i < 100 ? "1" : "0");
	assert_int_equal(dist_spec_parse(in, &s, why), 0);
	assert_int_equal(s.nzones, DIST_MAX_ZONES);
	snprintf(in + len, sizeof(in) - len, ":0/0.1");
	assert_int_equal(dist_spec_parse(in, &s, why), -EINVAL);
	assert_string_equal(why, "zoned has more than 256 zones");
}

struct bad {
	const char *in;
	const char *why;
};

static const struct bad bads[] = {
	{"", "unknown distribution '' (expected random, zipf, pareto, normal, gauss, normal_sd, "
	     "zoned, zoned_abs or hotband)"},
	{"zipfian:1", "unknown distribution 'zipfian' (expected random, zipf, pareto, normal, "
		      "gauss, normal_sd, zoned, zoned_abs or hotband)"},
	{"Zipf", "unknown distribution 'Zipf' (expected random, zipf, pareto, normal, gauss, "
		 "normal_sd, zoned, zoned_abs or hotband)"},
	{"normal_sd:100", "normal_sd dev must be >= 0 and < 100, got 100"},
	{"random:1", "random takes no parameters"},
	{"random:", "random takes no parameters"},
	{"zipf:", "zipf: empty value after ':'"},
	{"zipf::0.5", "zipf: empty value after ':'"},
	{"zipf:1.2:", "zipf: empty value after ':'"},
	{"zipf:1.2:0.5:1", "zipf takes at most 2 parameters"},
	{"zipf:0", "zipf theta must be > 0, got 0"},
	{"zipf:-1", "zipf theta must be > 0, got -1"},
	{"zipf:1.2x", "zipf: '1.2x' is not a number"},
	{"zipf: 1.2", "zipf: ' 1.2' is not a number"},
	{"zipf:inf", "zipf: 'inf' is not a number"},
	{"zipf:nan", "zipf: 'nan' is not a number"},
	{"zipf:0x10", "zipf: '0x10' is not a number"},
	{"zipf:1e999", "zipf: '1e999' is not a number"},
	{"zipf:1.2:1.5", "center must be between 0 and 1, got 1.5"},
	{"zipf:1.2:-0.1", "center must be between 0 and 1, got -0.1"},
	{"pareto:0", "pareto h must be > 0 and < 1, got 0"},
	{"pareto:1", "pareto h must be > 0 and < 1, got 1"},
	{"pareto:0.5:2", "center must be between 0 and 1, got 2"},
	{"normal:100", "normal dev must be >= 0 and < 100, got 100"},
	{"normal:-1", "normal dev must be >= 0 and < 100, got -1"},
	{"gauss:abc", "normal: 'abc' is not a number"},
	{"hotband:0.5:1", "hotband takes at most 1 parameter"},
	{"hotband:2", "center must be between 0 and 1, got 2"},
	{"zoned", "zoned needs at least one access/size zone"},
	{"zoned:", "zoned: empty value after ':'"},
	{"zoned:50/50:", "zoned: empty value after ':'"},
	{"zoned:50/:50/50", "zoned zone 1: only the last zone may leave its size out"},
	{"zoned:50/100:50", "zoned zone 2 has no size and the others take the whole region"},
	{"zoned:50/50:50/50/", "zoned zone 2: size '50/' is not a percentage"},
	{"zoned:50/50:x/50", "zoned zone 2: access 'x' is not a number"},
	{"zoned:50/50:/50", "zoned zone 2: access '' is not a number"},
	{"zoned:50/50:50/5%", "zoned zone 2: size '5%' is not a percentage"},
	{"zoned:60/50:50/50", "zoned access percentages total 110, must be 100"},
	{"zoned:40/50:50/50", "zoned access percentages total 90, must be 100"},
	{"zoned:50/60:50/50", "zoned sizes total 110%, must be at most 100"},
	{"zoned:50/0:50/50", "zoned zone 1: size must be > 0 and at most 100, got 0"},
	{"zoned:100/101", "zoned zone 1: size must be > 0 and at most 100, got 101"},
	{"zoned:-10/50:110/50", "zoned zone 1: access must be between 0 and 100, got -10"},
	{"zoned_abs", "zoned_abs needs at least one access/size zone"},
	{"zoned_abs:50/1x:50/1g", "zoned_abs zone 1: size '1x' is not a size"},
	{"zoned_abs:50/1gb2:50/1g", "zoned_abs zone 1: size '1gb2' is not a size"},
	{"zoned_abs:50/g:50/1g", "zoned_abs zone 1: size 'g' is not a size"},
	{"zoned_abs:50/0:50/1g", "zoned_abs zone 1: size must be at least 1 byte, got 0"},
	{"zoned_abs:50/1g:40/1g", "zoned_abs access percentages total 90, must be 100"},
};

static void test_bad(void **state)
{
	char why[DIST_WHY_LEN];
	struct dist_spec s;
	size_t i;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		memset(why, 0, sizeof(why));
		if (dist_spec_parse(bads[i].in, &s, why) != -EINVAL)
			fail_msg("'%s' was accepted", bads[i].in);
		if (strcmp(why, bads[i].why))
			fail_msg("'%s': got \"%s\", want \"%s\"", bads[i].in, why, bads[i].why);
	}
	/* a NULL why is allowed */
	assert_int_equal(dist_spec_parse("zipf:0", &s, NULL), -EINVAL);
}

/* Long garbage is quoted but cut short. */
static void test_long_token(void **state)
{
	char in[400], why[DIST_WHY_LEN];
	struct dist_spec s;

	memset(in, 'x', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	memcpy(in, "zipf:", 5);
	assert_int_equal(dist_spec_parse(in, &s, why), -EINVAL);
	assert_true(strlen(why) < 80);
	assert_non_null(strstr(why, "is not a number"));
}

static void test_type_names(void **state)
{
	assert_string_equal(dist_type_name(DIST_UNIFORM), "random");
	assert_string_equal(dist_type_name(DIST_ZONED_ABS), "zoned_abs");
	assert_string_equal(dist_type_name(DIST_HOTBAND), "hotband");
	assert_string_equal(dist_type_name((enum dist_type)42), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),	   cmocka_unit_test(test_zoned),
		cmocka_unit_test(test_zoned_abs),  cmocka_unit_test(test_max_zones),
		cmocka_unit_test(test_bad),	   cmocka_unit_test(test_long_token),
		cmocka_unit_test(test_type_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
