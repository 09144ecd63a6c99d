// SPDX-License-Identifier: MIT
/* The calibrated clock agrees with CLOCK_MONOTONIC and goes on from it, and the fallback is used when asked for. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <time.h>

#include "iowl/clock.h"

static void test_agrees(void **state)
{
	struct timespec wait = { 0, 200000000 };
	uint64_t a0, b0, a1, b1;
	double ratio;

	if (!clock_init())
		skip();
	/* until the calibration ends, CLOCK_MONOTONIC itself; the calibrated clock goes on from it */
	a0 = clock_gettime_ns();
	b0 = clock_ns();
	assert_true(b0 >= a0 && b0 - a0 < 10000000);
	assert_true(clock_ready());
	a1 = clock_ns();
	assert_true(a1 >= b0);
	a0 = clock_ns();
	b0 = clock_gettime_ns();
	nanosleep(&wait, NULL);
	a1 = clock_ns();
	b1 = clock_gettime_ns();
	ratio = (double)(a1 - a0) / (double)(b1 - b0);
	if (ratio < 0.995 || ratio > 1.005)
		fail_msg("TSC clock ran %.4f times CLOCK_MONOTONIC over 200 ms", ratio);
	/* both read the same time base, within a millisecond */
	assert_true(a1 > b1 - 1000000 && a1 < b1 + 1000000);
	/* monotonic over many reads */
	for (int i = 0; i < 100000; i++) {
		uint64_t t = clock_ns();

		assert_true(t >= a1);
		a1 = t;
	}
}

static void test_fallback(void **state)
{
	uint64_t a, b;

	setenv("IOWL_CLOCK", "gettime", 1);
	assert_false(clock_init());
	assert_false(clock_ready());
	a = clock_gettime_ns();
	b = clock_ns();
	assert_true(b >= a && b - a < 10000000);
	unsetenv("IOWL_CLOCK");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agrees),
		cmocka_unit_test(test_fallback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
