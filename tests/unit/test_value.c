// SPDX-License-Identifier: MIT
/* Unit tests for the strict value parsers (src/value.c) and "did you mean" (src/suggest.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "iowl/suggest.h"
#include "iowl/value.h"

#define POISON 0xdeadbeefULL

/* Asserts that why contains needle, printing both when it does not. */
static void why_has(const char *input, const char *why, const char *needle)
{
	if (!strstr(why, needle))
		fail_msg("input '%s': why '%s' lacks '%s'", input ? input : "(null)", why, needle);
}

static void size_is(const char *s, unsigned kb, uint64_t want)
{
	char why[VAL_WHY_LEN] = "";
	uint64_t v = POISON;
	int r = val_parse_size(s, kb, &v, why);

	if (r || v != want)
		fail_msg("size '%s' kb_base %u: r=%d v=%llu want %llu (%s)", s, kb, r,
			 (unsigned long long)v, (unsigned long long)want, why);
}

static void size_bad(const char *s, unsigned kb, int err, const char *needle)
{
	char why[VAL_WHY_LEN] = "";
	uint64_t v = POISON;
	int r = val_parse_size(s, kb, &v, why);

	if (r != err)
		fail_msg("size '%s' kb_base %u: r=%d, want %d (v=%llu)", s ? s : "(null)", kb, r,
			 err, (unsigned long long)v);
	assert_int_equal(v, POISON);
	why_has(s, why, needle);
}

static void test_size_plain(void **state)
{
	size_is("0", 1024, 0);
	size_is("4096", 1024, 4096);
	size_is("18446744073709551615", 1024, UINT64_MAX);
	size_is("0x10", 1024, 16);
	size_is("0X1f", 1024, 31);
	size_is("0xab", 1024, 0xab); /* 'b' is a hex digit, not "bytes" */
	size_is("0x10k", 1024, 16384);
	size_is("0xffffffffffffffff", 1024, UINT64_MAX);
	size_is("4b", 1024, 4);
	size_is("4B", 1000, 4);
	size_is("007", 1024, 7);
}

static void test_size_kb_base_1024(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} t[] = {
		{"4k", 4096},
		{"4K", 4096},
		{"4kb", 4096},
		{"4KB", 4096},
		{"4kB", 4096},
		{"1m", 1ULL << 20},
		{"1MB", 1ULL << 20},
		{"1g", 1ULL << 30},
		{"1G", 1ULL << 30},
		{"1t", 1ULL << 40},
		{"1tb", 1ULL << 40},
		{"1p", 1ULL << 50},
		{"1PB", 1ULL << 50},
		/* fio reverses IEC under kb_base 1024: ki is 1000 */
		{"1ki", 1000},
		{"1kib", 1000},
		{"1KiB", 1000},
		{"1KIB", 1000},
		{"1mi", 1000000},
		{"1MiB", 1000000},
		{"1gi", 1000000000ULL},
		{"1ti", 1000000000000ULL},
		{"1pi", 1000000000000000ULL},
		{"16383p", 16383ULL << 50},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		size_is(t[i].s, 1024, t[i].v);
}

static void test_size_kb_base_1000(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} t[] = {
		{"4k", 4000},
		{"4kb", 4000},
		{"4KB", 4000},
		{"1m", 1000000},
		{"1g", 1000000000ULL},
		{"1t", 1000000000000ULL},
		{"1p", 1000000000000000ULL},
		{"4ki", 4096},
		{"4KiB", 4096},
		{"4kib", 4096},
		{"1mi", 1ULL << 20},
		{"1MiB", 1ULL << 20},
		{"1gi", 1ULL << 30},
		{"1ti", 1ULL << 40},
		{"1pi", 1ULL << 50},
		{"1.5k", 1500},
		{"17000p", 17000000000000000000ULL},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		size_is(t[i].s, 1000, t[i].v);
}

static void test_size_fractions(void **state)
{
	size_is("1.5m", 1024, 1572864);
	size_is("1.5k", 1024, 1536);
	size_is("0.5k", 1024, 512);
	size_is(".5k", 1024, 512);
	size_is("1.1k", 1024, 1126); /* 1126.4 rounds down */
	size_is("2.25g", 1024, 2415919104ULL);
	size_is("1.999999999999999999999k", 1024, 2047); /* digits past 18 dropped */
	size_is("0.001k", 1000, 1);
	size_is("1.5ki", 1024, 1500);
}

static void test_size_errors(void **state)
{
	char why[VAL_WHY_LEN];
	uint64_t v;

	assert_int_equal(val_parse_size("4q", 1024, &v, why), -EINVAL);
	assert_string_equal(why, "'4q' is not a size: unknown suffix 'q' (use a number with an "
				 "optional k, m, g, t or p suffix, e.g. 4k)");
	size_bad("5x", 1024, -EINVAL, "unknown suffix 'x'");
	size_bad("4kk", 1024, -EINVAL, "unknown suffix 'kk'");
	size_bad("4kbb", 1024, -EINVAL, "unknown suffix 'kbb'");
	size_bad("4ib", 1024, -EINVAL, "unknown suffix 'ib'");
	size_bad("1z", 1024, -EINVAL, "unknown suffix 'z'");
	size_bad("1.", 1024, -EINVAL, "unknown suffix '.'");
	size_bad("1.5.2k", 1024, -EINVAL, "unknown suffix '.2k'");
	size_bad("", 1024, -EINVAL, "empty value");
	size_bad(" ", 1024, -EINVAL, "contains a blank");
	size_bad(" 4k", 1024, -EINVAL, "contains a blank");
	size_bad("4k ", 1024, -EINVAL, "contains a blank");
	size_bad("4 k", 1024, -EINVAL, "contains a blank");
	size_bad(NULL, 1024, -EINVAL, "a value is required");
	size_bad("-1", 1024, -EINVAL, "'-1' is negative");
	size_bad("+1", 1024, -EINVAL, "'+1' is not a size");
	size_bad("k", 1024, -EINVAL, "'k' is not a size");
	size_bad("b", 1024, -EINVAL, "'b' is not a size");
	size_bad("0x", 1024, -EINVAL, "'0x' is not a size");
	size_bad("0xg", 1024, -EINVAL, "'0xg' is not a size");
	/* exponent notation is refused for sizes */
	size_bad("1e3", 1024, -EINVAL, "exponent notation is not supported");
	size_bad("1E+3", 1024, -EINVAL, "exponent notation is not supported");
	size_bad("1.5", 1024, -EINVAL, "not a whole number of bytes");
	size_bad("1.5b", 1024, -EINVAL, "not a whole number of bytes");
	size_bad("20%", 1024, -EINVAL, "is a percentage");
	size_bad("4k", 512, -EINVAL, "kb_base 512 is not supported");
}

static void test_size_overflow(void **state)
{
	size_bad("18446744073709551616", 1024, -ERANGE, "too large");
	size_bad("99999999999999999999999", 1024, -ERANGE, "too large");
	size_bad("0x10000000000000000", 1024, -ERANGE, "too large");
	size_bad("0xfffffffffffffffk", 1024, -ERANGE, "too large");
	size_bad("16384p", 1024, -ERANGE, "too large");
	size_bad("18447p", 1000, -ERANGE, "too large");
	size_bad("18014398509481984k", 1024, -ERANGE, "too large");
	size_is("18014398509481983k", 1024, 18014398509481983ULL << 10);
	/* exact fraction arithmetic: 2^64 - 2^50 * 1e-14, rounded down */
	size_is("16383.99999999999999p", 1024, 18446744073709551604ULL);
}

static void test_size_long_input_quoted(void **state)
{
	char s[300], why[VAL_WHY_LEN];
	uint64_t v;

	memset(s, '7', sizeof(s) - 2);
	s[sizeof(s) - 2] = 'q';
	s[sizeof(s) - 1] = '\0';
	assert_int_equal(val_parse_size(s, 1024, &v, why), -EINVAL);
	assert_true(strlen(why) < VAL_WHY_LEN);
	why_has("long", why, "...");
	/* why may be NULL */
	assert_int_equal(val_parse_size("4q", 1024, &v, NULL), -EINVAL);
}

static void pct_is(const char *s, bool is_pct, uint64_t bytes, double pct)
{
	struct val_size_pct v = {1, 1, !is_pct};
	char why[VAL_WHY_LEN] = "";

	if (val_parse_size_pct(s, 1024, &v, why))
		fail_msg("size_pct '%s': %s", s, why);
	assert_int_equal(v.is_pct, is_pct);
	assert_int_equal(v.bytes, bytes);
	assert_true(v.pct == pct);
}

static void pct_bad(const char *s, int err, const char *needle)
{
	struct val_size_pct v = {7, 7, true};
	char why[VAL_WHY_LEN] = "";

	assert_int_equal(val_parse_size_pct(s, 1024, &v, why), err);
	assert_int_equal(v.bytes, 7);
	why_has(s, why, needle);
}

static void test_size_pct(void **state)
{
	pct_is("20%", true, 0, 20);
	pct_is("12.5%", true, 0, 12.5);
	pct_is("100%", true, 0, 100);
	pct_is("0.001%", true, 0, 0.001);
	pct_is("4k", false, 4096, 0);
	pct_is("0", false, 0, 0);
	pct_bad("0%", -ERANGE, "'0%' is out of range (use a percentage above 0 and at most 100");
	pct_bad("101%", -ERANGE, "out of range");
	pct_bad("100.5%", -ERANGE, "out of range");
	pct_bad("-5%", -ERANGE, "out of range");
	pct_bad("%", -EINVAL, "'%' is not a percentage");
	pct_bad("x%", -EINVAL, "'x%' is not a percentage");
	pct_bad("20 %", -EINVAL, "is not a percentage");
	pct_bad("20%%", -EINVAL, "is not a percentage");
	pct_bad("4q", -EINVAL, "unknown suffix 'q'");
	pct_bad("", -EINVAL, "empty value");
	pct_bad(NULL, -EINVAL, "a value is required");
}

static void time_is(const char *s, uint64_t unit, uint64_t want)
{
	char why[VAL_WHY_LEN] = "";
	uint64_t v = POISON;
	int r = val_parse_time_ns(s, unit, &v, why);

	if (r || v != want)
		fail_msg("time '%s': r=%d v=%llu want %llu (%s)", s, r, (unsigned long long)v,
			 (unsigned long long)want, why);
}

static void time_bad(const char *s, uint64_t unit, int err, const char *needle)
{
	char why[VAL_WHY_LEN] = "";
	uint64_t v = POISON;

	assert_int_equal(val_parse_time_ns(s, unit, &v, why), err);
	assert_int_equal(v, POISON);
	why_has(s, why, needle);
}

static void test_time(void **state)
{
	const uint64_t sec = 1000000000ULL, us = 1000;

	time_is("5", sec, 5 * sec);
	time_is("5", us, 5000);
	time_is("0", sec, 0);
	time_is("1.5", sec, 1500000000ULL);
	time_is("1.5", us, 1500);
	time_is("5s", us, 5 * sec);
	time_is("5S", us, 5 * sec);
	time_is("2m", sec, 120 * sec);
	time_is("2M", sec, 120 * sec);
	time_is("1h", sec, 3600 * sec);
	time_is("1d", sec, 86400 * sec);
	time_is("10ms", sec, 10000000ULL);
	time_is("10msec", sec, 10000000ULL);
	time_is("10MS", sec, 10000000ULL);
	time_is("10us", sec, 10000);
	time_is("10usec", sec, 10000);
	time_is("10ns", sec, 10);
	time_is("10nsec", sec, 10);
	time_is("1.5s", sec, 1500000000ULL);
	time_is("0.5ms", sec, 500000);
	time_is("1.5ns", sec, 1);
	time_is("213503d", sec, 213503ULL * 86400 * sec);
	time_is("18446744073709551615ns", sec, UINT64_MAX);
}

static void test_time_errors(void **state)
{
	const uint64_t sec = 1000000000ULL;

	time_bad("5x", sec, -EINVAL,
		 "'5x' is not a time: unknown suffix 'x' (use a number with an "
		 "optional d, h, m, s, ms, us or ns suffix, e.g. 30s)");
	time_bad("5sec", sec, -EINVAL, "unknown suffix 'sec'");
	time_bad("5min", sec, -EINVAL, "unknown suffix 'min'");
	time_bad("1e3", sec, -EINVAL, "unknown suffix 'e3'");
	time_bad("0x10", sec, -EINVAL, "unknown suffix 'x10'");
	time_bad("-1", sec, -EINVAL, "'-1' is negative");
	time_bad("", sec, -EINVAL, "empty value");
	time_bad(" 5", sec, -EINVAL, "contains a blank");
	time_bad("s", sec, -EINVAL, "'s' is not a time");
	time_bad(NULL, sec, -EINVAL, "a value is required");
	time_bad("5", 0, -EINVAL, "default time unit is 0");
	time_bad("213504d", sec, -ERANGE, "too long");
	time_bad("18446744073709551616ns", sec, -ERANGE, "too long");
	time_bad("18446744073709551616", 1, -ERANGE, "too long");
}

static void test_u64(void **state)
{
	char why[VAL_WHY_LEN] = "";
	uint64_t v = POISON;

	assert_int_equal(val_parse_u64("0", &v, why), 0);
	assert_int_equal(v, 0);
	assert_int_equal(val_parse_u64("42", &v, why), 0);
	assert_int_equal(v, 42);
	assert_int_equal(val_parse_u64("0x2A", &v, why), 0);
	assert_int_equal(v, 42);
	assert_int_equal(val_parse_u64("18446744073709551615", &v, why), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(val_parse_u64("0xffffffffffffffff", &v, why), 0);
	assert_int_equal(v, UINT64_MAX);

	v = POISON;
	assert_int_equal(val_parse_u64("18446744073709551616", &v, why), -ERANGE);
	assert_string_equal(why, "'18446744073709551616' is too large (the maximum is "
				 "18446744073709551615)");
	assert_int_equal(val_parse_u64("0x1ffffffffffffffff", &v, why), -ERANGE);
	assert_int_equal(val_parse_u64("5x", &v, why), -EINVAL);
	assert_string_equal(why, "'5x' is not a number: unexpected 'x' after it (use a whole "
				 "number >= 0, e.g. 4 or 0x10)");
	assert_int_equal(val_parse_u64("4k", &v, why), -EINVAL);
	why_has("4k", why, "unexpected 'k'");
	assert_int_equal(val_parse_u64("1.5", &v, why), -EINVAL);
	why_has("1.5", why, "unexpected '.5'");
	assert_int_equal(val_parse_u64("-1", &v, why), -EINVAL);
	why_has("-1", why, "'-1' is negative");
	assert_int_equal(val_parse_u64("+1", &v, why), -EINVAL);
	why_has("+1", why, "'+1' is not a number");
	assert_int_equal(val_parse_u64("", &v, why), -EINVAL);
	why_has("", why, "empty value");
	assert_int_equal(val_parse_u64(" 1", &v, why), -EINVAL);
	why_has(" 1", why, "contains a blank");
	assert_int_equal(val_parse_u64(NULL, &v, why), -EINVAL);
	assert_int_equal(val_parse_u64("0x", &v, why), -EINVAL);
	assert_int_equal(v, POISON);
}

static void test_s64(void **state)
{
	char why[VAL_WHY_LEN] = "";
	int64_t v = 77;

	assert_int_equal(val_parse_s64("-5", &v, why), 0);
	assert_int_equal(v, -5);
	assert_int_equal(val_parse_s64("+5", &v, why), 0);
	assert_int_equal(v, 5);
	assert_int_equal(val_parse_s64("0", &v, why), 0);
	assert_int_equal(v, 0);
	assert_int_equal(val_parse_s64("-0x10", &v, why), 0);
	assert_int_equal(v, -16);
	assert_int_equal(val_parse_s64("9223372036854775807", &v, why), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(val_parse_s64("-9223372036854775808", &v, why), 0);
	assert_true(v == INT64_MIN);

	v = 77;
	assert_int_equal(val_parse_s64("9223372036854775808", &v, why), -ERANGE);
	why_has("big", why, "out of range (use -9223372036854775808 to 9223372036854775807)");
	assert_int_equal(val_parse_s64("-9223372036854775809", &v, why), -ERANGE);
	assert_int_equal(val_parse_s64("99999999999999999999", &v, why), -ERANGE);
	assert_int_equal(val_parse_s64("5x", &v, why), -EINVAL);
	why_has("5x", why, "unexpected 'x'");
	assert_int_equal(val_parse_s64("-", &v, why), -EINVAL);
	assert_int_equal(val_parse_s64("--5", &v, why), -EINVAL);
	assert_int_equal(val_parse_s64("", &v, why), -EINVAL);
	assert_int_equal(val_parse_s64(NULL, &v, why), -EINVAL);
	assert_int_equal(v, 77);
}

static void test_double(void **state)
{
	static const char *const bad[] = {"inf", "nan", "INF", "0x10", "1e", "1e+", "1.5.2", ".",
					  "e5",	 "+",	"1,5", "1.5x", "",   " 1",  "1 "};
	char why[VAL_WHY_LEN] = "";
	double v = -7;
	size_t i;

	assert_int_equal(val_parse_double("1.5", &v, why), 0);
	assert_true(v == 1.5);
	assert_int_equal(val_parse_double("-2", &v, why), 0);
	assert_true(v == -2);
	assert_int_equal(val_parse_double("1e3", &v, why), 0);
	assert_true(v == 1000);
	assert_int_equal(val_parse_double(".5", &v, why), 0);
	assert_true(v == 0.5);
	assert_int_equal(val_parse_double("1.", &v, why), 0);
	assert_true(v == 1);
	assert_int_equal(val_parse_double("+3.25e-2", &v, why), 0);
	assert_true(v == 0.0325);
	assert_int_equal(val_parse_double("1e-400", &v, why), 0);
	assert_true(v == 0);

	v = -7;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (val_parse_double(bad[i], &v, why) != -EINVAL)
			fail_msg("double '%s' accepted", bad[i]);
	}
	assert_int_equal(val_parse_double("x", &v, why), -EINVAL);
	assert_string_equal(why, "'x' is not a number (use a decimal number, e.g. 1.5)");
	assert_int_equal(val_parse_double("1e400", &v, why), -ERANGE);
	assert_string_equal(why, "'1e400' is too large");
	assert_int_equal(val_parse_double(NULL, &v, why), -EINVAL);
	assert_true(v == -7);
}

static void test_bool(void **state)
{
	static const char *const yes[] = {"1", "true", "TRUE", "True", "yes", "YES", "on", "On"};
	static const char *const no[] = {"0", "false", "False", "no", "NO", "off", "OFF"};
	static const char *const bad[] = {"2", "y", "n", "truee", " 1", "1 ", "00", "-1", "t"};
	char why[VAL_WHY_LEN] = "";
	bool v;
	size_t i;

	v = false;
	assert_int_equal(val_parse_bool(NULL, &v, why), 0);
	assert_true(v);
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		v = false;
		assert_int_equal(val_parse_bool(yes[i], &v, why), 0);
		assert_true(v);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		v = true;
		assert_int_equal(val_parse_bool(no[i], &v, why), 0);
		assert_false(v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = true;
		if (val_parse_bool(bad[i], &v, why) != -EINVAL || !v)
			fail_msg("bool '%s' accepted", bad[i]);
	}
	assert_int_equal(val_parse_bool("2", &v, why), -EINVAL);
	assert_string_equal(
		why, "'2' is not a boolean (use 1 or 0, true or false, yes or no, on or off)");
	assert_int_equal(val_parse_bool("", &v, why), -EINVAL);
	why_has("", why, "empty value");
}

/* Records what val_parse_per_dir() hands to its callback. */
struct dir_rec {
	char got[3][16];
	unsigned calls;
	int fail_dir; /* direction to fail, -1 for none */
	int fail_ret;
};

static int dir_one(const char *elem, unsigned dir, void *ctx, char *why)
{
	struct dir_rec *rec = ctx;

	assert_true(dir < 3);
	rec->calls++;
	if ((int)dir == rec->fail_dir) {
		snprintf(why, VAL_WHY_LEN, "no good: %s", elem);
		return rec->fail_ret;
	}
	snprintf(rec->got[dir], sizeof(rec->got[dir]), "%s", elem);
	return 0;
}

static void per_dir_is(const char *s, unsigned mask, const char *r, const char *w, const char *t)
{
	struct dir_rec rec = {.fail_dir = -1};
	char why[VAL_WHY_LEN] = "";
	unsigned got = 99;

	if (val_parse_per_dir(s, dir_one, &rec, &got, why))
		fail_msg("per_dir '%s': %s", s, why);
	assert_int_equal(got, mask);
	assert_string_equal(rec.got[0], r);
	assert_string_equal(rec.got[1], w);
	assert_string_equal(rec.got[2], t);
}

static void test_per_dir(void **state)
{
	per_dir_is("a", 7, "a", "a", "a");
	per_dir_is("a,b", 7, "a", "b", "b");
	per_dir_is("a,b,", 3, "a", "b", "");
	per_dir_is(",b", 6, "", "b", "b");
	per_dir_is(",b,", 2, "", "b", "");
	per_dir_is("a,b,c", 7, "a", "b", "c");
	per_dir_is("a,,c", 5, "a", "", "c");
	per_dir_is(",,c", 4, "", "", "c");
	per_dir_is("a,", 1, "a", "", "");
	per_dir_is("a,,", 1, "a", "", "");
	per_dir_is(" a , b ", 7, "a", "b", "b");
	per_dir_is("8k,32k", 7, "8k", "32k", "32k");
}

static void per_dir_bad(const char *s, const char *needle)
{
	struct dir_rec rec = {.fail_dir = -1};
	char why[VAL_WHY_LEN] = "";
	unsigned mask = 99;

	assert_int_equal(val_parse_per_dir(s, dir_one, &rec, &mask, why), -EINVAL);
	assert_int_equal(rec.calls, 0);
	assert_int_equal(mask, 0);
	why_has(s, why, needle);
}

static int size_one(const char *elem, unsigned dir, void *ctx, char *why)
{
	return val_parse_size(elem, 1024, &((uint64_t *)ctx)[dir], why);
}

static void test_per_dir_errors(void **state)
{
	struct dir_rec rec = {.fail_dir = 1, .fail_ret = -ERANGE};
	uint64_t bs[3] = {1, 2, 3};
	char why[VAL_WHY_LEN] = "";
	unsigned mask = 99;

	per_dir_bad("a,b,c,d", "'a,b,c,d' has more than three values");
	per_dir_bad("", "'' sets no direction");
	per_dir_bad(",", "sets no direction");
	per_dir_bad(", ,", "sets no direction");
	per_dir_bad(NULL, "a value is required");

	assert_int_equal(val_parse_per_dir("a,b", dir_one, &rec, &mask, why), -ERANGE);
	assert_string_equal(why, "no good: b");
	assert_int_equal(mask, 1);
	assert_int_equal(rec.calls, 2);

	rec = (struct dir_rec){.fail_dir = 0, .fail_ret = 1};
	assert_int_equal(val_parse_per_dir("a", dir_one, &rec, NULL, why), -EINVAL);

	assert_int_equal(val_parse_per_dir("4k,4q", size_one, bs, &mask, why), -EINVAL);
	assert_int_equal(mask, 1);
	assert_int_equal(bs[0], 4096);
	why_has("4k,4q", why, "'4q' is not a size");
	assert_int_equal(val_parse_per_dir("4k,64k,", size_one, bs, &mask, why), 0);
	assert_int_equal(mask, 3);
	assert_int_equal(bs[1], 65536);
	assert_int_equal(bs[2], 3);
}

static void irange_is(const char *s, unsigned kb, uint64_t lo, uint64_t hi)
{
	struct val_irange v = {1, 1};
	char why[VAL_WHY_LEN] = "";

	if (val_parse_irange(s, kb, &v, why))
		fail_msg("irange '%s': %s", s, why);
	assert_int_equal(v.lo, lo);
	assert_int_equal(v.hi, hi);
}

static void irange_bad(const char *s, int err, const char *needle)
{
	struct val_irange v = {1, 2};
	char why[VAL_WHY_LEN] = "";

	assert_int_equal(val_parse_irange(s, 1024, &v, why), err);
	assert_int_equal(v.lo, 1);
	assert_int_equal(v.hi, 2);
	why_has(s, why, needle);
}

static void test_irange(void **state)
{
	irange_is("1k-4k", 1024, 1024, 4096);
	irange_is("1k:4k", 1024, 1024, 4096);
	irange_is("4k-1k", 1024, 1024, 4096);
	irange_is("4k:1k", 1024, 1024, 4096);
	irange_is(" 1k - 4k ", 1024, 1024, 4096);
	irange_is("0x10-0x20", 1024, 16, 32);
	irange_is("4k-4k", 1024, 4096, 4096);
	irange_is("1k-2k", 1000, 1000, 2000);
	irange_is("0-1m", 1024, 0, 1048576);

	irange_bad("4k", -EINVAL, "'4k' is not a range (use lo-hi or lo:hi, e.g. 1k-4k)");
	irange_bad("-4k", -EINVAL, "'-4k' is missing one end of the range");
	irange_bad("1k-", -EINVAL, "'1k-' is missing one end of the range");
	irange_bad("1k-4q", -EINVAL, "'4q' is not a size: unknown suffix 'q'");
	irange_bad("1k-2k-3k", -EINVAL, "'2k-3k' is not a size: unknown suffix 'k-3k'");
	irange_bad("1k-99999p", -ERANGE, "too large");
	irange_bad("", -EINVAL, "empty value");
	irange_bad(NULL, -EINVAL, "a value is required");
}

static void bssplit_is(const char *s, unsigned n, const uint64_t *bs, const double *pct)
{
	struct val_bssplit sp;
	char why[VAL_WHY_LEN] = "";
	unsigned i;

	memset(&sp, 0xff, sizeof(sp));
	if (val_parse_bssplit_one(s, 1024, &sp, why))
		fail_msg("bssplit '%s': %s", s, why);
	assert_int_equal(sp.n, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(sp.e[i].bs, bs[i]);
		if (sp.e[i].pct < pct[i] - 1e-9 || sp.e[i].pct > pct[i] + 1e-9)
			fail_msg("bssplit '%s' entry %u: pct %g, want %g", s, i, sp.e[i].pct,
				 pct[i]);
	}
}

static void test_bssplit(void **state)
{
	bssplit_is("4k/50:1k/:32k/", 3, (uint64_t[]){4096, 1024, 32768}, (double[]){50, 25, 25});
	bssplit_is("4k/100", 1, (uint64_t[]){4096}, (double[]){100});
	/* A size with no '/' is a blank share (fio): bssplit=...,16k means all writes are 16k. */
	bssplit_is("16k", 1, (uint64_t[]){16384}, (double[]){100});
	bssplit_is("4k/50:8k", 2, (uint64_t[]){4096, 8192}, (double[]){50, 50});
	bssplit_is("4k/", 1, (uint64_t[]){4096}, (double[]){100});
	bssplit_is("64k/90:4k/10", 2, (uint64_t[]){65536, 4096}, (double[]){90, 10});
	bssplit_is("4k/:8k/", 2, (uint64_t[]){4096, 8192}, (double[]){50, 50});
	bssplit_is("4k/:8k/:16k/", 3, (uint64_t[]){4096, 8192, 16384},
		   (double[]){100.0 / 3, 100.0 / 3, 100.0 / 3});
	bssplit_is("4k/33.3:8k/33.3:16k/33.4", 3, (uint64_t[]){4096, 8192, 16384},
		   (double[]){33.3, 33.3, 33.4});
	bssplit_is("4k/100:8k/", 2, (uint64_t[]){4096, 8192}, (double[]){100, 0});
	bssplit_is("4k/99.5:8k/", 2, (uint64_t[]){4096, 8192}, (double[]){99.5, 0.5});
	bssplit_is("4k/0:8k/100", 2, (uint64_t[]){4096, 8192}, (double[]){0, 100});
	bssplit_is(" 4k / 50 : 8k / 50 ", 2, (uint64_t[]){4096, 8192}, (double[]){50, 50});
	bssplit_is("0x1000/50:1m/50", 2, (uint64_t[]){4096, 1048576}, (double[]){50, 50});
}

static void test_bssplit_64(void **state)
{
	char s[1024], why[VAL_WHY_LEN] = "";
	struct val_bssplit sp;
	size_t n = 0;
	unsigned i;

	for (i = 1; i <= VAL_BSSPLIT_MAX; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%uk/", i > 1 ? ":" : "", i);
	assert_int_equal(val_parse_bssplit_one(s, 1024, &sp, why), 0);
	assert_int_equal(sp.n, 64);
	assert_int_equal(sp.e[63].bs, 64 * 1024);
	assert_true(sp.e[0].pct == 100.0 / 64);

	snprintf(s + n, sizeof(s) - n, ":65k/");
	sp.n = 5;
	assert_int_equal(val_parse_bssplit_one(s, 1024, &sp, why), -EINVAL);
	why_has("65", why, "has more than 64 entries");
	assert_int_equal(sp.n, 5);
}

static void bssplit_bad(const char *s, const char *needle)
{
	struct val_bssplit sp = {.n = 9};
	char why[VAL_WHY_LEN] = "";
	int r = val_parse_bssplit_one(s, 1024, &sp, why);

	if (r != -EINVAL)
		fail_msg("bssplit '%s': r=%d", s ? s : "(null)", r);
	assert_int_equal(sp.n, 9);
	why_has(s, why, needle);
}

static void test_bssplit_errors(void **state)
{
	char why[VAL_WHY_LEN];
	struct val_bssplit sp;

	assert_int_equal(val_parse_bssplit_one("4k/50:8k/40", 1024, &sp, why), -EINVAL);
	assert_string_equal(why, "bssplit percentages add up to 90, not 100");
	bssplit_bad("4k/60:8k/60", "bssplit percentages add up to 120, not 100");
	bssplit_bad("4k/10:64k/50", "add up to 60, not 100");
	bssplit_bad("4k/60:8k/60:16k/", "add up to 120, more than 100 before the blank ones");
	bssplit_bad("0/100", "block size 0 in '0/100'");
	bssplit_bad("4k/101", "'101' is not a percentage from 0 to 100");
	bssplit_bad("4k/-1:8k/", "'-1' is not a percentage");
	bssplit_bad("4k/x", "'x' is not a percentage");
	bssplit_bad("4k/50:4k/50", "'4k' appears twice in '4k/50:4k/50'");
	bssplit_bad("4096/50:4k/50", "'4k' appears twice");
	bssplit_bad("4k/50::8k/50", "has an empty entry");
	bssplit_bad("4k/50:8k/50:", "has an empty entry");
	bssplit_bad("4q/50:8k/50", "'4q' is not a size");
	bssplit_bad("/50", "'/50' has an entry with no block size");
	bssplit_bad("4k/50: /50", "has an entry with no block size");
	bssplit_bad("", "empty value");
	bssplit_bad(NULL, "a value is required");
}

static void test_double_list(void **state)
{
	char why[VAL_WHY_LEN] = "";
	double v[4] = {0};
	unsigned n = 99;

	assert_int_equal(val_parse_double_list("99:99.9", 0, 100, v, 4, &n, why), 0);
	assert_int_equal(n, 2);
	assert_true(v[0] == 99 && v[1] == 99.9);
	assert_int_equal(val_parse_double_list(" 50 : 100 ", 0, 100, v, 4, &n, why), 0);
	assert_int_equal(n, 2);
	assert_true(v[0] == 50 && v[1] == 100);
	assert_int_equal(val_parse_double_list("1:2:3:4", 0, 100, v, 4, &n, why), 0);
	assert_int_equal(n, 4);
	assert_true(v[3] == 4);

	n = 99;
	assert_int_equal(val_parse_double_list("1:2:3", 0, 100, v, 2, &n, why), -EINVAL);
	assert_string_equal(why, "'1:2:3' has more than 2 values");
	assert_int_equal(val_parse_double_list("0:50", 0, 100, v, 4, &n, why), -ERANGE);
	assert_string_equal(why,
			    "0 in '0:50' is out of range (use values above 0 and at most 100)");
	assert_int_equal(val_parse_double_list("100.1", 0, 100, v, 4, &n, why), -ERANGE);
	assert_int_equal(val_parse_double_list("a:b", 0, 100, v, 4, &n, why), -EINVAL);
	why_has("a:b", why, "'a' is not a number");
	assert_int_equal(val_parse_double_list("99::1", 0, 100, v, 4, &n, why), -EINVAL);
	why_has("99::1", why, "empty value");
	assert_int_equal(val_parse_double_list("", 0, 100, v, 4, &n, why), -EINVAL);
	assert_int_equal(val_parse_double_list(NULL, 0, 100, v, 4, &n, why), -EINVAL);
	assert_int_equal(val_parse_double_list("1e400", 0, 100, v, 4, &n, why), -ERANGE);
	assert_int_equal(n, 99);
}

static void names_are(const char *s, const char *const *want)
{
	char why[VAL_WHY_LEN] = "";
	char **v = val_split_names(s, why);
	size_t i;

	if (!v)
		fail_msg("names '%s': %s", s, why);
	for (i = 0; want[i]; i++) {
		assert_non_null(v[i]);
		assert_string_equal(v[i], want[i]);
	}
	assert_null(v[i]);
	val_strv_free(v);
}

static void names_bad(const char *s, const char *needle)
{
	char why[VAL_WHY_LEN] = "";

	errno = 0;
	assert_null(val_split_names(s, why));
	assert_int_equal(errno, EINVAL);
	why_has(s, why, needle);
}

static void test_split_names(void **state)
{
	names_are("a", (const char *const[]){"a", NULL});
	names_are("a:b", (const char *const[]){"a", "b", NULL});
	names_are("a:b\\:c", (const char *const[]){"a", "b:c", NULL});
	names_are("/dev/sda:/dev/sdb", (const char *const[]){"/dev/sda", "/dev/sdb", NULL});
	names_are("a\\b", (const char *const[]){"a\\b", NULL});
	names_are("\\:", (const char *const[]){":", NULL});
	names_are("a\\", (const char *const[]){"a\\", NULL});
	names_are("\\:\\::x", (const char *const[]){"::", "x", NULL});
	names_are("-", (const char *const[]){"-", NULL});
	names_are(" a : b", (const char *const[]){" a ", " b", NULL});

	names_bad("", "empty value");
	names_bad(NULL, "a value is required");
	names_bad(":a", "':a' has an empty name");
	names_bad("a:", "'a:' has an empty name");
	names_bad("a::b", "has an empty name");
	val_strv_free(NULL);
}

static void test_suggest(void **state)
{
	static const char *const c[] = {
		"iodepth", "iodepth_batch", "randread", "randwrite", "rw", "bs",
		NULL,	   "runtime",	    "size"};
	const size_t n = sizeof(c) / sizeof(c[0]);
	char big[SUGGEST_MAX_LEN + 2];

	assert_string_equal(suggest_closest("iodepht", c, n), "iodepth");
	assert_string_equal(suggest_closest("randreed", c, n), "randread");
	assert_null(suggest_closest("xyzzyq", c, n));
	assert_string_equal(suggest_closest("IODEPTH", c, n), "iodepth");
	assert_string_equal(suggest_closest("iodetph", c, n), "iodepth");
	assert_string_equal(suggest_closest("sizee", c, n), "size");
	assert_string_equal(suggest_closest("randwirte", c, n), "randwrite");
	assert_string_equal(suggest_closest("bs", c, n), "bs");
	assert_null(suggest_closest("iodepth", c, 0));
	assert_null(suggest_closest(NULL, c, n));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_null(suggest_closest(big, (const char *const[]){big}, 1));
}

static void test_suggest_metric(void **state)
{
	/* a swap costs 1 (plain Levenshtein would tie at 2 and return the first) */
	assert_string_equal(suggest_closest("ab", (const char *const[]){"xy", "ba"}, 2), "ba");
	/* first candidate wins a tie */
	assert_string_equal(suggest_closest("abc", (const char *const[]){"abd", "abe"}, 2), "abd");
	/* the limit is max(2, len / 3): 4 edits allowed for 12 characters, not 5 */
	assert_string_equal(
		suggest_closest("abcdefghijkl", (const char *const[]){"abcdefghwxyz"}, 1),
		"abcdefghwxyz");
	assert_null(suggest_closest("abcdefghijkl", (const char *const[]){"abcdefgvwxyz"}, 1));
	assert_string_equal(suggest_closest("ab", (const char *const[]){"cd"}, 1), "cd");
	assert_null(suggest_closest("ab", (const char *const[]){"cde"}, 1));
	assert_string_equal(suggest_closest("", (const char *const[]){"ab"}, 1), "ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_plain),
		cmocka_unit_test(test_size_kb_base_1024),
		cmocka_unit_test(test_size_kb_base_1000),
		cmocka_unit_test(test_size_fractions),
		cmocka_unit_test(test_size_errors),
		cmocka_unit_test(test_size_overflow),
		cmocka_unit_test(test_size_long_input_quoted),
		cmocka_unit_test(test_size_pct),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_time_errors),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_s64),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_per_dir),
		cmocka_unit_test(test_per_dir_errors),
		cmocka_unit_test(test_irange),
		cmocka_unit_test(test_bssplit),
		cmocka_unit_test(test_bssplit_64),
		cmocka_unit_test(test_bssplit_errors),
		cmocka_unit_test(test_double_list),
		cmocka_unit_test(test_split_names),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_suggest_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
