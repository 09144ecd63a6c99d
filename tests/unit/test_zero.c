// SPDX-License-Identifier: MIT
/*
 * Unit tests for the zero-read share (stats_count_zero(), stats_zero_share()): its estimate
 * against a known share that changes during the run, and how few reads it looks at once past its
 * first 65536 (looking at a buffer at all is a cache miss on the per-IO path).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "iowl/stats.h"

#define LEN 512

/* A read all zeros, one zero at its first, middle and last words only, or none zero. */
enum kind { ZERO, LOOKS_ZERO, DATA };

struct reads {
	unsigned char zero[LEN], looks[LEN], data[LEN];
	struct dir_stats ds;
	uint64_t looked; /* reads past which zero_checked moved */
};

static void setup_reads(struct reads *r)
{
	memset(r, 0, sizeof(*r));
	r->looks[LEN / 4] = 1;
	memset(r->data, 0xa5, LEN);
}

static void feed(struct reads *r, enum kind k, uint64_t offset)
{
	const unsigned char *buf = k == ZERO ? r->zero : k == LOOKS_ZERO ? r->looks : r->data;
	uint64_t before = r->ds.zero_checked;

	stats_count_zero(&r->ds, buf, LEN, offset);
	r->looked += r->ds.zero_checked != before;
}

static void check_share(const struct reads *r, double want_pct, double tol)
{
	double got = 100.0 * stats_zero_share(&r->ds);

	if (!(fabs(got - want_pct) <= tol))
		fail_msg("share %.3f %%, want %.3f %% (tolerance %.2f pp)", got, want_pct, tol);
}

/*
 * A share that changes during the run: zeros in the first 30 % of a million reads, then reads
 * that only look zero at their first, middle and last words, then data.  The estimate holds
 * within 1 pp, and the reads counted (weights) add up to every read but the last gap's.
 */
static void test_changing_share(void **state)
{
	static struct reads r;
	const uint64_t n = 1000000;

	(void)state;
	setup_reads(&r);
	for (uint64_t i = 0; i < n; i++)
		feed(&r, i < 300000 ? ZERO : i < 700000 ? LOOKS_ZERO : DATA, i * LEN);
	check_share(&r, 30.0, 1.0);
	assert_true(r.ds.zero_checked <= n);
	assert_true(r.ds.zero_checked + 127 > n);
}

/* Zeros in every 64th read (a stride the sampling's gaps must not line up with): 1.5625 %. */
static void test_stride(void **state)
{
	static struct reads r;
	const uint64_t n = 2000000;

	(void)state;
	setup_reads(&r);
	for (uint64_t i = 0; i < n; i++)
		feed(&r, i % 64 == 5 ? ZERO : DATA, (i * 7919) % n * LEN);
	check_share(&r, 100.0 / 64, 0.4);
}

/*
 * Past the first 65536 reads only one in about 64 is looked at: 1.5 M more reads are looked at
 * between 20000 and 27000 times (23437 on average), where every read was looked at before.
 */
static void test_looks_at_few(void **state)
{
	static struct reads r;

	(void)state;
	setup_reads(&r);
	for (uint64_t i = 0; i < 65536; i++)
		feed(&r, DATA, i * LEN);
	assert_int_equal(r.looked, 65536);
	r.looked = 0;
	for (uint64_t i = 0; i < 1500000; i++)
		feed(&r, i & 1 ? DATA : ZERO, i * LEN);
	if (r.looked < 20000 || r.looked > 27000)
		fail_msg("looked at %llu of 1500000 reads past the first 65536, want about 23437",
			 (unsigned long long)r.looked);
	/* 65536 reads of data, then half zeros: 1500000 / 2 of 1565536 */
	check_share(&r, 100.0 * 750000 / 1565536, 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_changing_share),
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_looks_at_few),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
