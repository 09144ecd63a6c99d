// SPDX-License-Identifier: MIT
/*
 * Unit tests for --profile=act's latency counts (fio 3.33's act): IOs by the highest limit they
 * exceed (microseconds over 1000, 8000, 64000), an hour closed by the first IO an hour after it
 * began (counted in it) and failed when a share reaches ACT's, the run's table and its verdict.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "iowl/act.h"

#define MS 1000000ULL
#define HOUR (3600ULL * 1000 * MS)

static void buckets(void **state)
{
	struct act_count c;

	(void)state;
	assert_int_equal(act_count_init(&c, 2, HOUR), 0);
	act_count_start(&c, 0);
	/* fio counts whole microseconds: 1000.999 us is not over 1 ms, 1001 us is */
	assert_int_equal(act_add(&c, 1000999, 1), -1);
	assert_int_equal(act_add(&c, 1001000, 2), -1);
	assert_int_equal(act_add(&c, 8000999, 3), -1);
	assert_int_equal(act_add(&c, 8001000, 4), -1);
	assert_int_equal(act_add(&c, 64001000, 5), -1);
	assert_int_equal(act_add(&c, 5000 * MS, 6), -1);
	assert_int_equal(c.slice[0].ios, 6);
	assert_int_equal(c.slice[0].over[0],
			 2); /* 1001 us and 8000 us: each under its highest only */
	assert_int_equal(c.slice[0].over[1], 1);
	assert_int_equal(c.slice[0].over[2], 2);
	assert_int_equal(c.cur, 0);
	act_count_free(&c);
	assert_null(c.slice);
}

static void hours(void **state)
{
	struct act_count c;
	uint64_t t = 10;

	(void)state;
	assert_int_equal(act_count_init(&c, 2, HOUR), 0);
	act_count_start(&c, t);
	/* hour 1: 1000 IOs, 49 over 1 ms (4.9 % < 5 %): passes as the IO an hour on closes it */
	for (unsigned i = 0; i < 999; i++)
		assert_int_equal(act_add(&c, i < 49 ? 2 * MS : 100000, t + i), -1);
	assert_int_equal(act_add(&c, 100000, t + HOUR - 1), -1);
	assert_int_equal(c.cur, 0);
	assert_int_equal(act_add(&c, 100000, t + HOUR), -1);
	assert_int_equal(c.cur, 1);
	assert_int_equal(c.slice[0].ios, 1001);
	/* hour 2, from the IO that closed hour 1: 1 of 1000 over 64 ms is 0.1 %: fails */
	t += HOUR;
	for (unsigned i = 0; i < 999; i++)
		assert_int_equal(act_add(&c, i ? 100000 : 70 * MS, t + 1 + i), -1);
	assert_int_equal(act_add(&c, 100000, t + HOUR), 2);
	assert_int_equal(c.cur, 2);
	/* past the last hour nothing is counted (fio: jitter at the end) */
	assert_int_equal(act_add(&c, 70 * MS, t + 3 * HOUR), -1);
	assert_int_equal(c.slice[1].ios, 1000);
	assert_int_equal(c.slice[1].over[2], 1);
	act_table_reset(3);
	act_table_add(&c);
	act_table_add(&c);
	assert_non_null(act_table());
	assert_false(act_passed(act_table()));
	act_count_free(&c);
}

static void shares(void **state)
{
	struct act_slice s = { .ios = 1000, .over = { 49, 9, 0 } };

	(void)state;
	assert_int_equal(act_slice_fails(&s), -1);
	s.over[0] = 50; /* 5 %: at ACT's share fails, as fio's perm >= max_perm */
	assert_int_equal(act_slice_fails(&s), 0);
	s.over[0] = 0;
	s.over[1] = 10;
	assert_int_equal(act_slice_fails(&s), 1);
	s = (struct act_slice){ 0 };
	assert_int_equal(act_slice_fails(&s), -1); /* no IOs: 0 % */
}

static void table(void **state)
{
	struct act_count c;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	json_t *j;

	(void)state;
	act_table_reset(0);
	assert_null(act_table());
	assert_int_equal(act_count_init(&c, 2, HOUR), 0);
	act_count_start(&c, 0);
	for (unsigned i = 0; i < 400; i++)
		act_add(&c, i < 7 ? 2 * MS : i < 9 ? 9 * MS : 1000, 1);
	act_table_reset(2);
	act_table_add(&c);
	act_table_add(&c); /* two workers' hours add up: 800 IOs, 14 + 4 over */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(act_print(f, act_table()), 0);
	fclose(f);
	assert_string_equal(text, "        trans                   device\n"
				  "        %>(ms)                  %>(ms)\n"
				  " slice\t  1\t  8\t 64\t  1\t  8\t 64\n"
				  " -----  -----   -----  ------   -----   -----  ------\n"
				  "    1\t1.75\t0.50\t0.00\t1.75\t0.50\t0.00\n"
				  "    2\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\n"
				  "\nact: test complete, device(s): PASSED\n");
	free(text);
	j = act_json(act_table());
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "verdict")), "PASSED");
	assert_int_equal(json_array_size(json_object_get(j, "slices")), 2);
	assert_int_equal(json_integer_value(
				 json_object_get(json_array_get(json_object_get(j, "slices"), 0),
						 "over_8ms")),
			 4);
	json_decref(j);
	act_count_free(&c);
	act_table_reset(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets),
		cmocka_unit_test(hours),
		cmocka_unit_test(shares),
		cmocka_unit_test(table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
