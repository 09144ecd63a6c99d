// SPDX-License-Identifier: MIT
/* Unit tests for latency_target's depth search (fio's): a simulated device whose latency grows with the depth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "iowl/job.h"
#include "iowl/lattarget.h"

/*
 * Runs the search against a device where every IO at depth qd takes qd * per_io_ns, one IO
 * completing every per_io_ns.  Returns the depth it ended at, 0 when the target was out of reach;
 * *depths gets the depths tried, in order, as digits (depths under 10).
 */
static unsigned settle(unsigned iodepth, uint64_t per_io_ns, uint64_t target_ns, char *depths)
{
	struct job_opts o = { .latency_target = target_ns,
			      .latency_window = 1000000,
			      .latency_percentile = 100.0 };
	struct lat_target lt;
	uint64_t now = 0, ios = 0;
	unsigned last = 0, n = 0;

	lt_init(&lt, &o, iodepth, now, ios);
	for (int i = 0; i < 1000000; i++) {
		enum lt_action a;

		if (lt.qd != last && n < 30)
			depths[n++] = (char)('0' + (lt.qd < 10 ? lt.qd : 9));
		last = lt.qd;
		now += per_io_ns;
		ios++;
		a = lt_io(&lt, lt.qd * per_io_ns, now, ios);
		if (a == LT_FATAL)
			return 0;
		if (a == LT_NONE)
			a = lt_check(&lt, now, ios);
		if (a == LT_DONE) {
			depths[n] = '\0';
			return lt.qd;
		}
	}
	depths[n] = '\0';
	return 999;
}

static void test_bisects_to_the_deepest_depth_that_keeps_the_target(void **state)
{
	char d[32];

	/* 100 us per depth, 450 us target: 4 keeps it, 5 does not; up 1, 2, 4, 8, down 6, 5, 4 */
	assert_int_equal(settle(16, 100000, 450000, d), 4);
	assert_string_equal(d, "124865"
			       "4");
}

static void test_stops_at_iodepth(void **state)
{
	char d[32];

	assert_int_equal(settle(3, 1000, 1000000, d), 3);
	assert_string_equal(d, "123");
}

static void test_out_of_reach_at_depth_one(void **state)
{
	char d[32];

	assert_int_equal(settle(16, 2000000, 1000000, d), 0);
}

static void test_percentile_lets_a_share_through(void **state)
{
	struct job_opts o = { .latency_target = 1000,
			      .latency_window = 1000,
			      .latency_percentile = 90.0 };
	struct lat_target lt;

	lt_init(&lt, &o, 8, 0, 0);
	/* 10 IOs, one over the target: 90 % kept it, the depth doubles */
	for (unsigned i = 1; i <= 10; i++)
		assert_int_equal(lt_io(&lt, i == 5 ? 5000 : 500, i * 100, i), LT_NONE);
	assert_int_equal(lt_check(&lt, 1000, 10), LT_NONE);
	assert_int_equal(lt.qd, 2);
	/* 10 IOs, two over: 80 %, the depth goes back down */
	for (unsigned i = 11; i <= 20; i++)
		lt_io(&lt, i % 5 ? 500 : 5000, i * 100, i);
	assert_int_equal(lt_check(&lt, 2000, 20), LT_QUIESCE);
	assert_int_equal(lt.qd, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bisects_to_the_deepest_depth_that_keeps_the_target),
		cmocka_unit_test(test_stops_at_iodepth),
		cmocka_unit_test(test_out_of_reach_at_depth_one),
		cmocka_unit_test(test_percentile_lets_a_share_through),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
