// SPDX-License-Identifier: MIT
/* The value parser of fio's data patterns (verify_pattern, buffer_pattern). */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iowl/value.h"

static bool is_hex_prefix(const char *p)
{
	return p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
}

/* Room for k more bytes, else a message. */
static bool pat_room(unsigned n, size_t k, unsigned max, char *why)
{
	if (n + k <= max)
		return true;
	snprintf(why, VAL_WHY_LEN, "the pattern is longer than %u bytes", max);
	return false;
}

/* A "quoted string": its bytes as they are (no escapes, as in fio). */
static const char *pat_string(const char *p, unsigned char *out, unsigned max, unsigned *n,
			      char *why)
{
	const char *end = strchr(p + 1, '"');

	if (!end || end == p + 1) {
		snprintf(why, VAL_WHY_LEN, "%s string in the pattern (e.g. \"abc\")",
			 end ? "an empty" : "an unterminated");
		return NULL;
	}
	if (!pat_room(*n, (size_t)(end - p - 1), max, why))
		return NULL;
	memcpy(out + *n, p + 1, (size_t)(end - p - 1));
	*n += (unsigned)(end - p - 1);
	return end + 1;
}

/*
 * 0x and hex digits, two per byte, an odd count with a leading zero; a "0x" right after the
 * digits starts the next number (0xff0x14 is ff 14, as in fio).
 */
static const char *pat_hex(const char *p, unsigned char *out, unsigned max, unsigned *n, char *why)
{
	const char *d = p + 2, *end = d;
	size_t nd;

	while (val_hex_digit(*end) >= 0)
		end++;
	if ((*end == 'x' || *end == 'X') && end - d > 1 && end[-1] == '0')
		end--;
	nd = (size_t)(end - d);
	if (!nd) {
		snprintf(why, VAL_WHY_LEN, "'%.2s' has no hex digits after it (e.g. 0xdeadbeef)",
			 p);
		return NULL;
	}
	if (!pat_room(*n, (nd + 1) / 2, max, why))
		return NULL;
	if (nd % 2)
		out[(*n)++] = (unsigned char)val_hex_digit(*d++);
	for (; d < end; d += 2)
		out[(*n)++] = (unsigned char)(val_hex_digit(d[0]) << 4 | val_hex_digit(d[1]));
	return end;
}

/* A decimal in the int range: its significant bytes, little-endian (-1024 is 00 fc ff ff). */
static const char *pat_decimal(const char *p, unsigned char *out, unsigned max, unsigned *n,
			       char *why)
{
	bool neg = *p == '-';
	const char *s = p + neg;
	int64_t v = 0;
	uint32_t u;

	if (*s < '0' || *s > '9') {
		snprintf(why, VAL_WHY_LEN, "'-' without a number in the pattern");
		return NULL;
	}
	/* Digits up to a "0x" that starts the next element (fio reads -100xab as -10, 0xab). */
	for (; *s >= '0' && *s <= '9' && !(s > p + neg && is_hex_prefix(s)); s++)
		v = v > INT32_MAX ? v : v * 10 + (*s - '0');
	if (v > (int64_t)INT32_MAX + neg) {
		snprintf(why, VAL_WHY_LEN,
			 "a decimal in the pattern is outside the int range (use 0x hex bytes)");
		return NULL;
	}
	u = (uint32_t)(neg ? -v : v);
	do {
		if (!pat_room(*n, 1, max, why))
			return NULL;
		out[(*n)++] = (unsigned char)(u & 0xff);
		u >>= 8;
	} while (u);
	return s;
}

/*
 * One element of a pattern at p (s is the whole value, for messages).  Returns where the next
 * one starts, or NULL with why set.
 */
static const char *pat_element(const char *p, const char *s, unsigned char *out, unsigned max,
			       unsigned *n, char *why)
{
	if (*p == '"')
		return pat_string(p, out, max, n, why);
	if (is_hex_prefix(p))
		return pat_hex(p, out, max, n, why);
	if (*p == '-' || (*p >= '0' && *p <= '9'))
		return pat_decimal(p, out, max, n, why);
	if (*p == '%')
		snprintf(why, VAL_WHY_LEN,
			 "'%%o' (the block offset) in a pattern is not supported");
	else if (*p == '\'')
		snprintf(why, VAL_WHY_LEN, "patterns read from a file ('name') are not supported");
	else
		snprintf(why, VAL_WHY_LEN,
			 "'%s' is not a pattern (use 0x hex bytes, a decimal or a \"string\", one after another, e.g. 0xdeadbeef)",
			 s);
	return NULL;
}

int val_parse_pattern(const char *s, unsigned char *out, unsigned max, unsigned *len, char *why)
{
	const char *p = s ? s : "";
	unsigned n = 0;

	if (!*p) {
		snprintf(why, VAL_WHY_LEN,
			 "an empty pattern (use 0x hex bytes, a decimal or a \"string\", e.g. 0xdeadbeef)");
		return -EINVAL;
	}
	while (p && *p)
		p = pat_element(p, s ? s : "", out, max, &n, why);
	if (!p)
		return -EINVAL;
	*len = n;
	return 0;
}
