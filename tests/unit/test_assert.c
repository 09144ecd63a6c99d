// SPDX-License-Identifier: MIT
/* --assert: expressions parsed to the right figure, operator and base-unit value, and checked against results. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iowl/assert.h"

static void parses(const char *text, int dir, enum assert_metric m, enum assert_op op, double v)
{
	struct iowl_err err = { "" };
	struct assertion a;

	if (assert_parse(text, &a, &err))
		fail_msg("'%s': %s", text, err.text);
	assert_int_equal(a.dir, dir);
	assert_int_equal(a.metric, m);
	assert_int_equal(a.op, op);
	if (fabs(a.value - v) > 1e-9 * fabs(v))
		fail_msg("'%s': value %.17g, expected %.17g", text, a.value, v);
}

static void test_parse(void **state)
{
	struct iowl_err err = { "" };
	struct assertion a;

	parses("read.iops>=50000", 0, ASSERT_IOPS, ASSERT_GE, 50000);
	parses("read.iops>=50k", 0, ASSERT_IOPS, ASSERT_GE, 50000);
	parses("write.bw>=200MiB/s", 1, ASSERT_BW, ASSERT_GE, 200.0 * 1048576);
	parses("total.io_bytes==1GiB", -1, ASSERT_IO_BYTES, ASSERT_EQ, 1073741824.0);
	parses("total.io_bytes==1g", -1, ASSERT_IO_BYTES, ASSERT_EQ, 1e9);
	parses("errors==0", -1, ASSERT_ERRORS, ASSERT_EQ, 0);
	parses("read.clat.p99<=2ms", 0, ASSERT_LAT, ASSERT_LE, 2e6);
	parses("trim.lat.mean<150us", 2, ASSERT_LAT, ASSERT_LT, 150e3);
	parses("write.ios!=3", 1, ASSERT_IOS, ASSERT_NE, 3);
	assert_int_equal(assert_parse("hot1:read.clat.p99.9<=10ms", &a, &err), 0);
	assert_string_equal(a.unit, "hot1");
	assert_int_equal(a.lat_stat, ASSERT_PCT);
	assert_true(fabs(a.pct - 99.9) < 1e-12);
	assert_int_equal(a.lat_kind, 1);
	/* bare numbers are nanoseconds for latencies */
	parses("read.clat.max<5000", 0, ASSERT_LAT, ASSERT_LT, 5000);
	assert_int_equal(assert_parse("read.iops", &a, &err), -EINVAL);
	assert_non_null(strstr(err.text, "no comparison"));
	assert_int_equal(assert_parse("reed.iops>1", &a, &err), -EINVAL);
	assert_non_null(strstr(err.text, "unknown figure 'reed.iops'"));
	assert_int_equal(assert_parse("read.clat.p101<1ms", &a, &err), -EINVAL);
	assert_int_equal(assert_parse("total.clat.p99<1ms", &a, &err), -EINVAL);
	assert_int_equal(assert_parse("read.iops>=5q", &a, &err), -EINVAL);
	assert_non_null(strstr(err.text, "'5q'"));
}

static void test_check(void **state)
{
	struct job job = { 0 };
	struct job_result u = { 0 };
	struct run_result r = { .units = &u, .nunits = 1 };
	struct assertion a[6];
	struct iowl_err err = { "" };
	char out[2048] = "";
	FILE *f = fmemopen(out, sizeof(out), "w");
	static char name[] = "j";

	job.o.name = name;
	u.job = &job;
	assert_int_equal(stats_init(&u.st, 7, false, true, false), 0);
	u.st.runtime_ns = 2000000000ULL;	/* 2 s */
	u.st.dir[0].ios = 200000;		/* 100000 IOPS */
	u.st.dir[0].bytes = 200000ULL * 4096;
	for (uint64_t v = 1; v <= 1000; v++) {	/* clat 1..1000 us: p99 = 990 us */
		lat_add(&u.st.dir[0].clat, v * 1000);
		hist_add(u.st.dir[0].clat_hist, v * 1000);
	}
	assert_int_equal(assert_parse("read.iops>=100k", &a[0], &err), 0);
	assert_int_equal(assert_parse("read.iops>100k", &a[1], &err), 0);	/* fails */
	assert_int_equal(assert_parse("read.clat.p99<=1ms", &a[2], &err), 0);
	assert_int_equal(assert_parse("read.clat.p99<=900us", &a[3], &err), 0);	/* fails */
	assert_int_equal(assert_parse("j:read.bw>=390MiB/s", &a[4], &err), 0);
	assert_int_equal(assert_parse("other:errors==0", &a[5], &err), 0);	/* no such job */
	assert_int_equal(assert_check(a, 6, &r, f), 3);
	fclose(f);
	assert_non_null(strstr(out, "'read.iops>100k' failed for job 'j' (clone 0): measured 100000, expected > 100000"));
	assert_non_null(strstr(out, "'read.clat.p99<=900us' failed"));
	assert_non_null(strstr(out, "names no reported job 'other'"));
	assert_null(strstr(out, "'read.iops>=100k'"));
	assert_null(strstr(out, "bw"));
	stats_release(&u.st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
