// SPDX-License-Identifier: MIT
/* Every option the code names by enum opt_id (OPT_IDS in options.h) is in the option table, under that name. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_in_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
