// SPDX-License-Identifier: MIT
/*
 * Every option the code names by enum opt_id (OPT_IDS in options.h) is in the option table, under
 * that name; ioengine's values are the built-in engines (engine_list()), then the refused ones.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "iowl/engine.h"
#include "iowl/options.h"

static void test_ids_in_table(void **state)
{
	static const char *const names[] = {
#define NAME(n) #n,
		OPT_IDS(NAME)
#undef NAME
	};

	assert_int_equal(sizeof(names) / sizeof(names[0]), OPT_ID_NR);
	for (unsigned id = 0; id < OPT_ID_NR; id++) {
		const struct opt_def *def = opt_find(names[id]);

		if (!def)
			fail_msg("OPT_IDS names '%s', which the option table lacks", names[id]);
		/* by its name, not an alias: messages print opt_by_id()->name */
		assert_string_equal(def->name, names[id]);
		assert_ptr_equal(opt_by_id((enum opt_id)id), def);
	}
}

static void test_engine_values(void **state)
{
	const struct opt_value *v = opt_by_id(OPT_ID_ioengine)->values;
	const struct engine_ops *const *e;
	unsigned n, i;

	e = engine_list(&n);
	assert_true(n > 0);
	for (i = 0; i < n; i++) { /* every engine, in the list's order, with its own help */
		assert_non_null(v[i].name);
		assert_string_equal(v[i].name, e[i]->name);
		assert_ptr_equal(v[i].help, e[i]->help);
		assert_int_not_equal(v[i].value, OPT_VALUE_REFUSED);
	}
	for (; v[i].name; i++) { /* then fio's engines iowl refuses, none of them built */
		assert_int_equal(v[i].value, OPT_VALUE_REFUSED);
		assert_null(engine_find(v[i].name));
	}
	assert_true(i > n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_in_table),
		cmocka_unit_test(test_engine_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
