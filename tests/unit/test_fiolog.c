// SPDX-License-Identifier: MIT
/* Unit tests for fio-format logs: lines against fio's printf formats, histogram bins, names. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iowl/fiolog.h"
#include "iowl/pattern/rng.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* fio 3.33's formats in flush_samples(), iolog.c, with and without log_offset / log_prio. */
#define FIO_FMT		"%lu, %" PRId64 ", %u, %llu, %u\n"
#define FIO_FMT_OFF	"%lu, %" PRId64 ", %u, %llu, %llu, %u\n"
#define FIO_FMT_PRIO	"%lu, %" PRId64 ", %u, %llu, 0x%04x\n"
#define FIO_FMT_OFF_PRIO "%lu, %" PRId64 ", %u, %llu, %llu, 0x%04x\n"

/* Values around every power of ten and of two, the 64-bit edges, then random ones. */
static uint64_t sample_value(unsigned i, uint64_t *seed)
{
	static const uint64_t edges[] = {
		0, 1, 9, 10, 11, 99, 100, 999, 1000, 4096, 65535, 65536, 4294967295ULL,
		4294967296ULL, 9999999999999999999ULL, 10000000000000000000ULL,
		INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX,
	};
	uint64_t p10 = 1;

	if (i < ARRAY_SIZE(edges))
		return edges[i];
	i -= ARRAY_SIZE(edges);
	if (i < 3 * 20) {
		for (unsigned k = 0; k < i / 3 && k < 19; k++)
			p10 *= 10;
		return p10 + i % 3 - 1;
	}
	i -= 3 * 20;
	if (i < 3 * 64)
		return (1ULL << (i / 3)) + i % 3 - 1;
	return rng_splitmix64(seed) >> (rng_splitmix64(seed) % 64);
}

/* Checks one entry in all four layouts against snprintf with fio's own format strings. */
static void check_entry(const struct fiolog_entry *e)
{
	char got[FIOLOG_LINE_MAX], want[256];
	size_t n;

	snprintf(want, sizeof(want), FIO_FMT, (unsigned long)e->time_ms, (int64_t)e->value,
		 e->ddir, (unsigned long long)e->bs, e->prio);
	n = fiolog_format(got, e, false);
	assert_string_equal(got, want);
	assert_int_equal(n, strlen(want));

	snprintf(want, sizeof(want), FIO_FMT_OFF, (unsigned long)e->time_ms, (int64_t)e->value,
		 e->ddir, (unsigned long long)e->bs, (unsigned long long)e->offset, e->prio);
	n = fiolog_format(got, e, true);
	assert_string_equal(got, want);
	assert_int_equal(n, strlen(want));

	snprintf(want, sizeof(want), FIO_FMT_PRIO, (unsigned long)e->time_ms, (int64_t)e->value,
		 e->ddir, (unsigned long long)e->bs, e->prio);
	n = fiolog_format_prio(got, e, false);
	assert_string_equal(got, want);
	assert_int_equal(n, strlen(want));

	snprintf(want, sizeof(want), FIO_FMT_OFF_PRIO, (unsigned long)e->time_ms,
		 (int64_t)e->value, e->ddir, (unsigned long long)e->bs,
		 (unsigned long long)e->offset, e->prio);
	n = fiolog_format_prio(got, e, true);
	assert_string_equal(got, want);
	assert_int_equal(n, strlen(want));
	assert_true(n < FIOLOG_LINE_MAX);
}

static void test_line_known(void **state)
{
	struct fiolog_entry e = { .time_ms = 1012, .value = 53248, .ddir = 1, .bs = 4096,
				  .offset = 1073741824, .prio = 0 };
	char buf[FIOLOG_LINE_MAX];

	fiolog_format(buf, &e, false);
	assert_string_equal(buf, "1012, 53248, 1, 4096, 0\n");
	fiolog_format(buf, &e, true);
	assert_string_equal(buf, "1012, 53248, 1, 4096, 1073741824, 0\n");
	e.prio = 0x6004; /* class RT (3 << 13) level 4 */
	fiolog_format_prio(buf, &e, false);
	assert_string_equal(buf, "1012, 53248, 1, 4096, 0x6004\n");
	e.prio = 5;
	fiolog_format_prio(buf, &e, true);
	assert_string_equal(buf, "1012, 53248, 1, 4096, 1073741824, 0x0005\n");
	/* fio prints the value with PRId64: the top half of the range comes out negative. */
	e.value = UINT64_MAX;
	e.prio = 1;
	fiolog_format(buf, &e, false);
	assert_string_equal(buf, "1012, -1, 1, 4096, 1\n");
}

static void test_line_vs_printf(void **state)
{
	uint64_t seed = 42;
	unsigned nr = 20 + 60 + 192 + 20000;

	for (unsigned i = 0; i < nr; i++) {
		struct fiolog_entry e = {
			.time_ms = sample_value(i, &seed),
			.value = sample_value((i + 7) % nr, &seed),
			.ddir = (uint32_t)sample_value((i + 3) % nr, &seed),
			.bs = sample_value((i + 11) % nr, &seed),
			.offset = sample_value((i + 13) % nr, &seed),
			.prio = (uint32_t)sample_value((i + 5) % nr, &seed),
		};

		check_entry(&e);
	}
	/* Every field at its maximum at once: the longest line fits. */
	struct fiolog_entry max = { UINT64_MAX, INT64_MAX + 1ULL, UINT32_MAX, UINT64_MAX,
				    UINT64_MAX, UINT32_MAX };

	check_entry(&max);
}

/*
 * fio's plat_val_to_idx() written from its documented maths (fio-anchor 1.12), separately from
 * the module: values below 128 are their own bin; above, with n the index of the most
 * significant bit, drop e = n - 6 low bits, keep the 6 bits under the MSB as the bin within
 * group e + 1; everything past index 1855 is clamped to it.
 */
static unsigned ref_fio_idx(uint64_t v)
{
	unsigned n = 0, e;
	uint64_t idx;

	if (v < 128)
		return (unsigned)v;
	while (n < 63 && v >> (n + 1))
		n++;
	e = n - 6;
	idx = (uint64_t)(e + 1) * 64 + ((v >> e) % 64);
	return idx < 1855 ? (unsigned)idx : 1855;
}

/* A histogram holding only v converts to one count in fio's bin for v. */
static void check_single(struct hist *h, uint64_t *out, uint64_t v)
{
	unsigned want = ref_fio_idx(v);

	memset(h, 0, sizeof(*h));
	hist_add(h, v);
	fiolog_hist_bins(h, out);
	for (unsigned k = 0; k < FIOLOG_HIST_NR; k++) {
		if (out[k] != (k == want))
			fail_msg("value %llu: bin %u holds %llu, want the count in bin %u",
				 (unsigned long long)v, k, (unsigned long long)out[k], want);
	}
}

static void test_hist_single_values(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	uint64_t out[FIOLOG_HIST_NR], seed = 7;

	assert_non_null(h);
	for (uint64_t v = 0; v < 1100; v++)
		check_single(h, out, v);
	for (unsigned b = 7; b < 64; b++) {
		check_single(h, out, (1ULL << b) - 1);
		check_single(h, out, 1ULL << b);
		check_single(h, out, (1ULL << b) + 1);
		check_single(h, out, (3ULL << (b - 1)) - 1);
	}
	check_single(h, out, UINT64_MAX);
	for (unsigned i = 0; i < 3000; i++)
		check_single(h, out, rng_splitmix64(&seed) >> (rng_splitmix64(&seed) % 64));
	free(h);
}

/* Every iowl bin lies inside one fio bin, and its count lands there. */
static void test_hist_every_bin(void **state)
{
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t out[FIOLOG_HIST_NR];

	assert_non_null(h);
	for (unsigned i = 0; i < HIST_NR; i++) {
		uint64_t lo = hist_bin_low(i), hi = hist_bin_high(i);
		unsigned want = ref_fio_idx(lo);

		assert_int_equal(ref_fio_idx(hi), want);
		h->count[i] = 3;
		fiolog_hist_bins(h, out);
		assert_int_equal(out[want], 3);
		h->count[i] = 0;
	}
	free(h);
}

/* Counts are conserved, and a delta converts like the difference of its conversions. */
static void test_hist_sum_and_delta(void **state)
{
	struct hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	uint64_t fa[FIOLOG_HIST_NR], fb[FIOLOG_HIST_NR], fd[FIOLOG_HIST_NR], sum = 0;
	uint64_t seed = 99;

	assert_true(a && b);
	for (unsigned i = 0; i < 200000; i++) {
		uint64_t v = rng_splitmix64(&seed) >> (20 + rng_splitmix64(&seed) % 44);

		hist_add(a, v);
		if (i < 120000)
			hist_add(b, v);
	}
	fiolog_hist_bins(a, fa);
	for (unsigned k = 0; k < FIOLOG_HIST_NR; k++)
		sum += fa[k];
	assert_int_equal(sum, hist_total(a));
	assert_int_equal(sum, 200000);
	assert_true(fa[FIOLOG_HIST_NR - 1] > 0); /* some values beyond 17 s were clamped */

	fiolog_hist_bins(b, fb);
	hist_sub(a, a, b);
	fiolog_hist_bins(a, fd);
	for (unsigned k = 0; k < FIOLOG_HIST_NR; k++)
		assert_int_equal(fd[k], fa[k] - fb[k]);
	free(a);
	free(b);
}

/* fio's flush_hist_samples() loop, with snprintf, for the reference line. */
static void ref_hist_line(char *buf, size_t len, unsigned long t, unsigned ddir,
			  unsigned long long bs, const uint64_t *bins, unsigned c)
{
	int stride = 1 << c;
	size_t off;
	int j;

	off = (size_t)snprintf(buf, len, "%lu, %u, %llu, ", t, ddir, bs);
	for (j = 0; j < (int)FIOLOG_HIST_NR - stride; j += stride) {
		unsigned long long s = 0;

		for (int k = 0; k < stride; k++)
			s += bins[j + k];
		off += (size_t)snprintf(buf + off, len - off, "%llu, ", s);
	}
	unsigned long long s = 0;

	for (int k = 0; k < stride; k++)
		s += bins[FIOLOG_HIST_NR - stride + k];
	snprintf(buf + off, len - off, "%llu\n", s);
}

static void test_hist_line(void **state)
{
	static char got[FIOLOG_HIST_LINE_MAX], want[FIOLOG_HIST_LINE_MAX];
	uint64_t bins[FIOLOG_HIST_NR], seed = 5;

	for (unsigned round = 0; round < 4; round++) {
		for (unsigned k = 0; k < FIOLOG_HIST_NR; k++) {
			uint64_t r = rng_splitmix64(&seed);

			bins[k] = round == 3 ? UINT64_MAX >> 6 : round == 0 ? 0 : r >> (r % 64);
		}
		for (unsigned c = 0; c <= FIOLOG_HIST_COARSE_MAX; c++) {
			size_t n = fiolog_hist_format(got, 1000 * round + c, round % 3, 4096ULL << c,
						      bins, c);

			ref_hist_line(want, sizeof(want), 1000 * round + c, round % 3, 4096ULL << c,
				      bins, c);
			assert_string_equal(got, want);
			assert_int_equal(n, strlen(want));
		}
	}
	/* Coarseness 6: 29 sums of 64 bins each; past 6 it stays 6. */
	for (unsigned k = 0; k < FIOLOG_HIST_NR; k++)
		bins[k] = k / 64 + 1;
	fiolog_hist_format(got, 500, 0, 8192, bins, 6);
	assert_string_equal(got, "500, 0, 8192, 64, 128, 192, 256, 320, 384, 448, 512, 576, "
				 "640, 704, 768, 832, 896, 960, 1024, 1088, 1152, 1216, 1280, "
				 "1344, 1408, 1472, 1536, 1600, 1664, 1728, 1792, 1856\n");
	fiolog_hist_format(want, 500, 0, 8192, bins, 9);
	assert_string_equal(got, want);

	/* Coarseness 0: all 1856 bins. */
	memset(bins, 0, sizeof(bins));
	bins[0] = 4;
	bins[FIOLOG_HIST_NR - 1] = 2;
	fiolog_hist_format(got, 1, 1, 512, bins, 0);
	assert_int_equal(strncmp(got, "1, 1, 512, 4, 0, 0, ", 20), 0);
	assert_int_equal(strlen(got), strlen("1, 1, 512, ") + 3 * (FIOLOG_HIST_NR - 1) + 2);
	assert_string_equal(got + strlen(got) - 7, ", 0, 2\n");
}

static void test_names(void **state)
{
	static const struct {
		const char *name, *job;
		enum fiolog_kind kind;
		unsigned nr;
		bool per_job;
		const char *want;
	} cases[] = {
		{ "test", "job", FIOLOG_BW, 1, true, "test_bw.1.log" },
		{ "test", "job", FIOLOG_IOPS, 2, true, "test_iops.2.log" },
		{ "test", "job", FIOLOG_LAT, 3, true, "test_lat.3.log" },
		{ "test", "job", FIOLOG_SLAT, 3, true, "test_slat.3.log" },
		{ "test", "job", FIOLOG_CLAT, 3, true, "test_clat.3.log" },
		{ "test", "job", FIOLOG_CLAT_HIST, 12, true, "test_clat_hist.12.log" },
		{ "test", "job", FIOLOG_BW, 1, false, "test_bw.log" },
		{ "test", "job", FIOLOG_CLAT_HIST, 4, false, "test_clat_hist.log" },
		{ "", "job", FIOLOG_IOPS, 1, true, "job_iops.1.log" },
		{ NULL, "job", FIOLOG_CLAT, 7, false, "job_clat.log" },
		{ "/tmp/run/a", "job", FIOLOG_BW, 1, true, "/tmp/run/a_bw.1.log" },
	};
	char buf[64];

	for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(fiolog_name(buf, sizeof(buf), cases[i].name, cases[i].job,
					     cases[i].kind, cases[i].nr, cases[i].per_job),
				 0);
		assert_string_equal(buf, cases[i].want);
	}
	/* "x_bw.1.log" is 10 bytes: it needs 11. */
	assert_int_equal(fiolog_name(buf, 11, "x", "j", FIOLOG_BW, 1, true), 0);
	assert_int_equal(fiolog_name(buf, 10, "x", "j", FIOLOG_BW, 1, true), -ENAMETOOLONG);
	assert_string_equal(buf, "x_bw.1.lo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_known),
		cmocka_unit_test(test_line_vs_printf),
		cmocka_unit_test(test_hist_single_values),
		cmocka_unit_test(test_hist_every_bin),
		cmocka_unit_test(test_hist_sum_and_delta),
		cmocka_unit_test(test_hist_line),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
