/* SPDX-License-Identifier: MIT */
/* Strict parsers for job option values: numbers, sizes, times, per-direction lists, names. */
#ifndef IOWL_VALUE_H
#define IOWL_VALUE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Every parser takes the value exactly as written (NULL for a bare key, where that means
 * something), rejects trailing garbage, blanks and out-of-range numbers, and on failure writes
 * into why (a caller buffer of VAL_WHY_LEN bytes, or NULL) a short lowercase explanation of what
 * was wrong and what would be right, without position or option name.  The list parsers trim
 * blanks around each element.  On failure the outputs are left untouched unless said otherwise.
 */
#define VAL_WHY_LEN 256

/* Parses a decimal or 0x hex number, no sign, no suffix.  Returns 0, -EINVAL or -ERANGE. */
int val_parse_u64(const char *s, uint64_t *out, char *why);

/* Parses a decimal or 0x hex number with an optional '-' or '+'.  Returns 0, -EINVAL or -ERANGE. */
int val_parse_s64(const char *s, int64_t *out, char *why);

/*
 * Parses a finite decimal number with optional sign, fraction and exponent (1.5, -2, 1e3);
 * inf, nan and hex floats are refused.  Returns 0, -EINVAL or -ERANGE.
 */
int val_parse_double(const char *s, double *out, char *why);

/*
 * Parses a bool: NULL (a bare key) is true; 0/1, true/false, yes/no, on/off, case-insensitive.
 * Returns 0 or -EINVAL.
 */
int val_parse_bool(const char *s, bool *out, char *why);

/*
 * Parses a size: a number (decimal, 0x hex, or a decimal fraction like 1.5m) with an optional
 * suffix k/m/g/t/p, case-insensitive, with an optional trailing b/B; "4b" means 4 bytes.  With
 * kb_base 1024 (the default) k/m/g/t/p are powers of 1024 and the IEC forms ki/mi/gi/ti/pi (kib,
 * MiB, ...) powers of 1000 (fio reverses them for old scripts); with kb_base 1000 the SI forms are
 * powers of 1000 and the IEC forms powers of 1024.  A fraction with a suffix is rounded down to
 * whole bytes (1.1k = 1126); a fraction with no multiplier (1.5, 1.5b) and exponent notation
 * (1e3) are refused, as are '%' and fio's 'z' (zones).  kb_base must be 1000 or 1024.
 * Returns 0, -EINVAL, or -ERANGE when the result does not fit in 64 bits.
 */
int val_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *why);

/* A size, or a percentage of the file or device. */
struct val_size_pct {
	uint64_t bytes;
	double pct;
	bool is_pct;
};

/*
 * Parses a size as val_parse_size() or a percentage "20%" / "12.5%" (0 < pct <= 100), which sets
 * is_pct and pct (bytes 0); a size sets bytes (is_pct false, pct 0).  Returns 0, -EINVAL or
 * -ERANGE.
 */
int val_parse_size_pct(const char *s, unsigned kb_base, struct val_size_pct *out, char *why);

/*
 * Parses a time into nanoseconds.  Suffixes d, h, m (minutes), s, ms/msec, us/usec, ns/nsec,
 * case-insensitive; a bare number is in def_unit_ns (1000000000 for runtime-like options, 1000
 * for thinktime-like ones).  Decimal only; fractions allowed (1.5s), rounded down to whole
 * nanoseconds.  Returns 0, -EINVAL or -ERANGE.
 */
int val_parse_time_ns(const char *s, uint64_t def_unit_ns, uint64_t *out_ns, char *why);

/* Called by val_parse_per_dir() for one element.  Returns 0 or -errno with why set. */
typedef int (*val_per_dir_fn)(const char *elem, unsigned dir, void *ctx, char *why);

/*
 * fio per-direction lists (read,write,trim).  Splits s on ',' and calls one() for each direction
 * to set, in order, with dir 0..2 and the element with its blanks trimmed.  "a" sets all three;
 * "a,b" sets R=a, W=b, T=b (the last value also fills the later directions); "a,b," sets R and W
 * and leaves T; ",b" leaves R and sets W and T; "a,b,c" sets each; more than three elements is an
 * error, and so is a list that sets no direction ("", ",").  *set_mask (may be NULL) gets bit d
 * for each direction set, also for those set before a failing one.  Returns 0, -ENOMEM, or the
 * error of one() (its why is kept).
 */
int val_parse_per_dir(const char *s, val_per_dir_fn one, void *ctx, unsigned *set_mask, char *why);

/* An inclusive range of sizes. */
struct val_irange {
	uint64_t lo, hi;
};

/*
 * Parses "lo-hi" or "lo:hi" (sizes as val_parse_size(), blanks around each trimmed), swapped if
 * reversed; a single value is refused.  Returns 0, -EINVAL or -ERANGE.
 */
int val_parse_irange(const char *s, unsigned kb_base, struct val_irange *out, char *why);

#define VAL_BSSPLIT_MAX 64

struct val_bssplit_entry {
	uint64_t bs;
	double pct;
};

struct val_bssplit {
	struct val_bssplit_entry e[VAL_BSSPLIT_MAX];
	unsigned n;
};

/*
 * Parses one direction's block size split "bs/pct:bs/pct:bs/", keeping the user's order.  A blank
 * pct shares what is left evenly among the blank entries (4k/50:1k/:32k/ = 50/25/25).  Unlike
 * fio, the total must come to 100 (within 1e-6) once blanks are filled.  A bs of 0, a missing
 * '/', an empty entry, pct < 0 or > 100, more than 64 entries and duplicate sizes are errors.
 * Returns 0, -EINVAL or -ERANGE; out is written only on success.
 */
int val_parse_bssplit_one(const char *s, unsigned kb_base, struct val_bssplit *out, char *why);

/*
 * Parses a colon-separated list of doubles (percentile_list=99:99.9): at least one and at most
 * max entries, each in (lo, hi].  *n gets the count, on success only (out may be partly written
 * on failure).  Returns 0, -EINVAL or -ERANGE.
 */
int val_parse_double_list(const char *s, double lo, double hi, double *out, unsigned max,
			  unsigned *n, char *why);

/*
 * Splits a fio name list on ':' with "\:" as an escaped colon (a:b\:c gives "a", "b:c"); other
 * backslashes are kept.  Names are not trimmed.  Returns a NULL-terminated malloc'd array of
 * malloc'd strings, owned by the caller (free with val_strv_free()), or NULL with errno ENOMEM,
 * or with errno EINVAL and why set for an empty list or an empty name.
 */
char **val_split_names(const char *s, char *why);

/* Frees an array returned by val_split_names() (NULL is fine). */
void val_strv_free(char **v);

/* The value of hex digit c (0-9, a-f, A-F), or -1. */
int val_hex_digit(char c);

/*
 * Parses a data pattern in fio's syntax (verify_pattern, buffer_pattern): 0x hex bytes, a
 * decimal in the int range (little-endian, its significant bytes), or a "quoted string", one
 * after another.  Writes at most max bytes to out and their count to *len.  Returns 0 or -EINVAL
 * with why set.  (src/value_pattern.c)
 */
int val_parse_pattern(const char *s, unsigned char *out, unsigned max, unsigned *len, char *why);

#endif
