// SPDX-License-Identifier: MIT
/* Strict parsers for job option values: what fio accepts, minus its silent trailing garbage. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iowl/ddir.h"
#include "iowl/clock.h"
#include "iowl/value.h"

/* Longest stretch of user text quoted in a message; the rest becomes "...". */
#define VAL_QMAX 64
#define VQ(s)                                                                                      \
	(strlen(s) > VAL_QMAX ? VAL_QMAX : (int)strlen(s)), (s), (strlen(s) > VAL_QMAX ? "..." : "")

#define HINT_U64     "use a whole number >= 0, e.g. 4 or 0x10"
#define HINT_S64     "use a whole number, e.g. -4 or 16"
#define HINT_DOUBLE  "use a decimal number, e.g. 1.5"
#define HINT_BOOL    "use 1 or 0, true or false, yes or no, on or off"
#define HINT_SIZE    "use a number with an optional k, m, g, t or p suffix, e.g. 4k"
#define HINT_PCT     "use a percentage above 0 and at most 100, e.g. 20%"
#define HINT_TIME    "use a number with an optional d, h, m, s, ms, us or ns suffix, e.g. 30s"
#define HINT_PER_DIR "use read,write,trim values, e.g. 4k,64k"
#define HINT_RANGE   "use lo-hi or lo:hi, e.g. 1k-4k"
#define HINT_BSSPLIT "use bs/percent entries separated by ':', e.g. 4k/50:64k/50"
#define HINT_NAMES   "use names separated by ':', with '\\:' for a colon inside a name"

/* A scanned unsigned number: integer part, and fraction as frac / frac_scale. */
struct val_num {
	uint64_t ip;
	uint64_t frac;
	uint64_t frac_scale;
	bool has_frac;
	bool overflow;
	const char *end; /* first character after the number */
};

struct val_unit {
	const char *name;
	uint64_t ns;
};

static const struct val_unit val_time_units[] = {
	{ "d", 86400000000000ULL }, { "h", 3600000000000ULL }, { "m", 60000000000ULL },
	{ "s", NSEC_PER_SEC },	    { "ms", 1000000ULL },      { "msec", 1000000ULL },
	{ "us", 1000ULL },	    { "usec", 1000ULL },       { "ns", 1ULL },
	{ "nsec", 1ULL },
};

static int val_why(char *why, int ret, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int val_why(char *why, int ret, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why, VAL_WHY_LEN, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static bool val_digit(char c)
{
	return c >= '0' && c <= '9';
}

int val_hex_digit(char c)
{
	if (val_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool val_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Refuses NULL, empty and blank-containing text.  Returns 0 or -EINVAL. */
static int val_text_ok(const char *s, const char *hint, char *why)
{
	const char *p;

	if (!s)
		return val_why(why, -EINVAL, "a value is required (%s)", hint);
	if (!*s)
		return val_why(why, -EINVAL, "empty value (%s)", hint);
	for (p = s; *p; p++)
		if (val_blank(*p))
			return val_why(why, -EINVAL, "'%.*s%s' contains a blank (%s)", VQ(s), hint);
	return 0;
}

static const char *val_scan_hex(const char *p, struct val_num *n)
{
	int d;

	while ((d = val_hex_digit(*p)) >= 0) {
		if (n->ip >> 60)
			n->overflow = true;
		n->ip = n->ip << 4 | (uint64_t)d;
		p++;
	}
	return p;
}

/* Digits past the 18th only round the fraction down further: they are dropped. */
static const char *val_scan_dec(const char *p, struct val_num *n, bool frac_ok)
{
	uint64_t d;

	for (; val_digit(*p); p++) {
		d = (uint64_t)(*p - '0');
		if (n->ip > (UINT64_MAX - d) / 10)
			n->overflow = true;
		else
			n->ip = n->ip * 10 + d;
	}
	if (!frac_ok || *p != '.' || !val_digit(p[1]))
		return p;
	n->has_frac = true;
	for (p++; val_digit(*p); p++) {
		if (n->frac_scale >= 1000000000000000000ULL)
			continue;
		n->frac = n->frac * 10 + (uint64_t)(*p - '0');
		n->frac_scale *= 10;
	}
	return p;
}

/* Scans an unsigned number at s (0x hex if hex_ok).  Returns 0, or -EINVAL when there is none. */
static int val_scan(const char *s, bool hex_ok, bool frac_ok, struct val_num *n)
{
	memset(n, 0, sizeof(*n));
	n->frac_scale = 1;
	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		n->end = val_scan_hex(s + 2, n);
		return n->end > s + 2 ? 0 : -EINVAL;
	}
	n->end = val_scan_dec(s, n, frac_ok);
	return n->end > s ? 0 : -EINVAL;
}

/* n times mult, the fraction rounded down.  Returns 0 or -ERANGE. */
static int val_scale(const struct val_num *n, uint64_t mult, uint64_t *out)
{
	unsigned __int128 v = (unsigned __int128)n->ip * mult;

	v += (unsigned __int128)n->frac * mult / n->frac_scale;
	if (n->overflow || v > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

/* Parses the whole number at digits (s is the full text for messages).  Returns 0 or -errno. */
static int val_whole(const char *s, const char *digits, const char *hint, uint64_t *out, char *why)
{
	struct val_num n;

	if (val_scan(digits, true, false, &n))
		return val_why(why, -EINVAL, "'%.*s%s' is not a number (%s)", VQ(s), hint);
	if (*n.end)
		return val_why(why, -EINVAL,
			       "'%.*s%s' is not a number: unexpected '%.*s%s' after it (%s)", VQ(s),
			       VQ(n.end), hint);
	if (n.overflow)
		return -ERANGE;
	*out = n.ip;
	return 0;
}

int val_parse_u64(const char *s, uint64_t *out, char *why)
{
	int r;

	r = val_text_ok(s, HINT_U64, why);
	if (r)
		return r;
	if (*s == '-')
		return val_why(why, -EINVAL, "'%.*s%s' is negative (%s)", VQ(s), HINT_U64);
	r = val_whole(s, s, HINT_U64, out, why);
	if (r == -ERANGE)
		return val_why(why, r, "'%.*s%s' is too large (the maximum is %llu)", VQ(s),
			       (unsigned long long)UINT64_MAX);
	return r;
}

int val_parse_s64(const char *s, int64_t *out, char *why)
{
	bool neg;
	uint64_t mag = 0;
	int r;

	r = val_text_ok(s, HINT_S64, why);
	if (r)
		return r;
	neg = *s == '-';
	r = val_whole(s, s + (neg || *s == '+'), HINT_S64, &mag, why);
	if (!r && mag > (uint64_t)INT64_MAX + neg)
		r = -ERANGE;
	if (r == -ERANGE)
		return val_why(why, r, "'%.*s%s' is out of range (use %lld to %lld)", VQ(s),
			       (long long)INT64_MIN, (long long)INT64_MAX);
	if (r)
		return r;
	if (neg)
		*out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	else
		*out = (int64_t)mag;
	return 0;
}

/* A decimal float: sign, digits with an optional fraction, optional exponent, nothing else. */
static bool val_double_syntax(const char *p)
{
	unsigned digits = 0;

	if (*p == '+' || *p == '-')
		p++;
	for (; val_digit(*p); p++)
		digits++;
	if (*p == '.')
		for (p++; val_digit(*p); p++)
			digits++;
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!val_digit(*p))
			return false;
		while (val_digit(*p))
			p++;
	}
	return *p == '\0';
}

int val_parse_double(const char *s, double *out, char *why)
{
	double v;
	int r;

	r = val_text_ok(s, HINT_DOUBLE, why);
	if (r)
		return r;
	if (!val_double_syntax(s))
		return val_why(why, -EINVAL, "'%.*s%s' is not a number (%s)", VQ(s), HINT_DOUBLE);
	v = strtod(s, NULL);
	if (!isfinite(v))
		return val_why(why, -ERANGE, "'%.*s%s' is too large", VQ(s));
	*out = v;
	return 0;
}

int val_parse_bool(const char *s, bool *out, char *why)
{
	static const char *const yes[] = {"1", "true", "yes", "on"};
	static const char *const no[] = {"0", "false", "no", "off"};
	unsigned i;

	if (!s) {
		*out = true;
		return 0;
	}
	for (i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i]) || !strcasecmp(s, no[i])) {
			*out = !strcasecmp(s, yes[i]);
			return 0;
		}
	}
	if (!*s)
		return val_why(why, -EINVAL, "empty value (%s, or leave out '=' for true)",
			       HINT_BOOL);
	return val_why(why, -EINVAL, "'%.*s%s' is not a boolean (%s)", VQ(s), HINT_BOOL);
}

static char val_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool val_exponent(const char *p)
{
	if (*p != 'e' && *p != 'E')
		return false;
	p++;
	if (*p == '+' || *p == '-')
		p++;
	return val_digit(*p);
}

/* Multiplier of a size suffix ("", b, k, kb, ki, kib, ... p).  Returns 0 or -EINVAL. */
static int val_size_mult(const char *s, const char *sfx, unsigned kb_base, uint64_t *mult,
			 char *why)
{
	static const char units[] = "kmgtp";
	const char *u = *sfx ? strchr(units, val_lower(*sfx)) : NULL, *p = sfx + 1;
	uint64_t base;
	unsigned pow;
	bool iec;

	*mult = 1;
	if (!*sfx || (val_lower(*sfx) == 'b' && !sfx[1]))
		return 0;
	iec = val_lower(*p) == 'i';
	p += iec;
	p += val_lower(*p) == 'b';
	if (val_exponent(sfx))
		return val_why(why, -EINVAL,
			       "'%.*s%s' is not a size: exponent notation is not supported (write "
			       "the number out, e.g. 1000 or 1k)",
			       VQ(s));
	if (!u || *p)
		return val_why(why, -EINVAL, "'%.*s%s' is not a size: unknown suffix '%.*s%s' (%s)",
			       VQ(s), VQ(sfx), HINT_SIZE);
	/* fio's kb_base: the IEC forms take the other base, so 1ki = 1000 by default */
	base = iec == (kb_base == 1024) ? 1000 : 1024;
	for (pow = (unsigned)(u - units) + 1; pow; pow--)
		*mult *= base;
	return 0;
}

int val_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *why)
{
	struct val_num n;
	uint64_t mult;
	int r;

	r = val_text_ok(s, HINT_SIZE, why);
	if (r)
		return r;
	if (kb_base != 1000 && kb_base != 1024)
		return val_why(why, -EINVAL, "kb_base %u is not supported (use 1000 or 1024)",
			       kb_base);
	if (*s == '-')
		return val_why(why, -EINVAL, "'%.*s%s' is negative (%s)", VQ(s), HINT_SIZE);
	if (strchr(s, '%'))
		return val_why(why, -EINVAL, "'%.*s%s' is a percentage, not allowed here (%s)",
			       VQ(s), HINT_SIZE);
	if (val_scan(s, true, true, &n))
		return val_why(why, -EINVAL, "'%.*s%s' is not a size (%s)", VQ(s), HINT_SIZE);
	r = val_size_mult(s, n.end, kb_base, &mult, why);
	if (r)
		return r;
	if (n.has_frac && mult == 1)
		return val_why(why, -EINVAL,
			       "'%.*s%s' is not a whole number of bytes (use a whole number, or a "
			       "fraction with a suffix, e.g. 1.5k)",
			       VQ(s));
	if (val_scale(&n, mult, out))
		return val_why(why, -ERANGE, "'%.*s%s' is too large (a size must be below 16 EiB)",
			       VQ(s));
	return 0;
}

int val_parse_size_pct(const char *s, unsigned kb_base, struct val_size_pct *out, char *why)
{
	char num[64];
	size_t len = s ? strlen(s) : 0;
	double pct;

	if (!len || s[len - 1] != '%') {
		uint64_t bytes;
		int r = val_parse_size(s, kb_base, &bytes, why);

		if (!r)
			*out = (struct val_size_pct){.bytes = bytes};
		return r;
	}
	if (len > sizeof(num) || len == 1)
		return val_why(why, -EINVAL, "'%.*s%s' is not a percentage (%s)", VQ(s), HINT_PCT);
	memcpy(num, s, len - 1);
	num[len - 1] = '\0';
	if (val_parse_double(num, &pct, NULL))
		return val_why(why, -EINVAL, "'%.*s%s' is not a percentage (%s)", VQ(s), HINT_PCT);
	if (!(pct > 0 && pct <= 100))
		return val_why(why, -ERANGE, "'%.*s%s' is out of range (%s)", VQ(s), HINT_PCT);
	*out = (struct val_size_pct){.pct = pct, .is_pct = true};
	return 0;
}

/* Multiplier of a time suffix, def for none.  Returns false for an unknown suffix. */
static bool val_time_mult(const char *sfx, uint64_t def, uint64_t *mult)
{
	size_t i;

	*mult = def;
	if (!*sfx)
		return true;
	for (i = 0; i < sizeof(val_time_units) / sizeof(val_time_units[0]); i++) {
		if (!strcasecmp(sfx, val_time_units[i].name)) {
			*mult = val_time_units[i].ns;
			return true;
		}
	}
	return false;
}

int val_parse_time_ns(const char *s, uint64_t def_unit_ns, uint64_t *out_ns, char *why)
{
	struct val_num n;
	uint64_t mult;
	int r;

	r = val_text_ok(s, HINT_TIME, why);
	if (r)
		return r;
	if (!def_unit_ns)
		return val_why(why, -EINVAL, "the default time unit is 0");
	if (*s == '-')
		return val_why(why, -EINVAL, "'%.*s%s' is negative (%s)", VQ(s), HINT_TIME);
	if (val_scan(s, false, true, &n))
		return val_why(why, -EINVAL, "'%.*s%s' is not a time (%s)", VQ(s), HINT_TIME);
	if (!val_time_mult(n.end, def_unit_ns, &mult))
		return val_why(why, -EINVAL, "'%.*s%s' is not a time: unknown suffix '%.*s%s' (%s)",
			       VQ(s), VQ(n.end), HINT_TIME);
	if (val_scale(&n, mult, out_ns))
		return val_why(why, -ERANGE,
			       "'%.*s%s' is too long (a time must be below 584 years)", VQ(s));
	return 0;
}

/* Trims blanks around s in place.  Returns the new start. */
static char *val_trim(char *s)
{
	size_t len;

	while (val_blank(*s))
		s++;
	len = strlen(s);
	while (len && val_blank(s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* Splits s in place on sep into at most max trimmed elements.  Returns the count, or max + 1. */
static unsigned val_split(char *s, char sep, char **elem, unsigned max)
{
	unsigned n = 0;
	char *next;

	for (;;) {
		next = strchr(s, sep);
		if (next)
			*next++ = '\0';
		if (n == max)
			return max + 1;
		elem[n++] = val_trim(s);
		if (!next)
			return n;
		s = next;
	}
}

static int val_nomem(char *why)
{
	return val_why(why, -ENOMEM, "out of memory");
}

/* Calls one() for each direction the elements set.  Returns 0 or its error. */
static int val_per_dir_apply(char **elem, unsigned n, val_per_dir_fn one, void *ctx, unsigned *mask,
			     char *why)
{
	const char *e;
	unsigned d;
	int r;

	for (d = 0; d < DDIR_NR; d++) {
		e = d < n ? elem[d] : elem[n - 1];
		if (!*e)
			continue;
		r = one(e, d, ctx, why);
		if (r)
			return r < 0 ? r : -EINVAL;
		*mask |= 1U << d;
	}
	return 0;
}

int val_parse_per_dir(const char *s, val_per_dir_fn one, void *ctx, unsigned *set_mask, char *why)
{
	unsigned n, mask = 0;
	char *copy, *elem[3];
	int r;

	if (set_mask)
		*set_mask = 0;
	if (!s)
		return val_why(why, -EINVAL, "a value is required (%s)", HINT_PER_DIR);
	copy = strdup(s);
	if (!copy)
		return val_nomem(why);
	n = val_split(copy, ',', elem, 3);
	if (n > 3)
		r = val_why(why, -EINVAL, "'%.*s%s' has more than three values (%s,64k)", VQ(s),
			    HINT_PER_DIR);
	else
		r = val_per_dir_apply(elem, n, one, ctx, &mask, why);
	if (!r && !mask)
		r = val_why(why, -EINVAL, "'%.*s%s' sets no direction (%s)", VQ(s), HINT_PER_DIR);
	free(copy);
	if (set_mask)
		*set_mask = mask;
	return r;
}

/* Parses one trimmed end of a range.  Returns 0 or -errno. */
static int val_range_end(const char *s, const char *part, unsigned kb_base, uint64_t *out,
			 char *why)
{
	if (!*part)
		return val_why(why, -EINVAL, "'%.*s%s' is missing one end of the range (%s)", VQ(s),
			       HINT_RANGE);
	return val_parse_size(part, kb_base, out, why);
}

int val_parse_irange(const char *s, unsigned kb_base, struct val_irange *out, char *why)
{
	struct val_irange v;
	char *copy, *sep;
	int r;

	if (!s || !*s)
		return val_why(why, -EINVAL, "%s (%s)", s ? "empty value" : "a value is required",
			       HINT_RANGE);
	copy = strdup(s);
	if (!copy)
		return val_nomem(why);
	sep = strpbrk(copy, "-:");
	if (!sep) {
		r = val_why(why, -EINVAL, "'%.*s%s' is not a range (%s)", VQ(s), HINT_RANGE);
		goto out_free;
	}
	*sep = '\0';
	r = val_range_end(s, val_trim(copy), kb_base, &v.lo, why);
	if (!r)
		r = val_range_end(s, val_trim(sep + 1), kb_base, &v.hi, why);
	if (!r)
		*out = v.lo <= v.hi ? v : (struct val_irange){v.hi, v.lo};
out_free:
	free(copy);
	return r;
}

/* Parses one "bs/pct" entry into e; *blank is set for "bs/" and "bs".  Returns 0 or -errno. */
static int val_bssplit_entry(const char *s, char *entry, unsigned kb_base, struct val_bssplit *sp,
			     bool *blank, char *why)
{
	struct val_bssplit_entry *e = &sp->e[sp->n];
	char *slash = strchr(entry, '/'), *pct;
	unsigned i;
	int r;

	if (!*entry)
		return val_why(why, -EINVAL, "'%.*s%s' has an empty entry (%s)", VQ(s),
			       HINT_BSSPLIT);
	/* A size with no '/' is a blank share, as fio reads it (bssplit=4k/50:8k is 50/50). */
	if (slash)
		*slash = '\0';
	entry = val_trim(entry);
	if (!*entry)
		return val_why(why, -EINVAL, "'%.*s%s' has an entry with no block size (%s)", VQ(s),
			       HINT_BSSPLIT);
	r = val_parse_size(entry, kb_base, &e->bs, why);
	if (r)
		return r;
	if (!e->bs)
		return val_why(why, -EINVAL, "block size 0 in '%.*s%s' (%s)", VQ(s), HINT_BSSPLIT);
	for (i = 0; i < sp->n; i++)
		if (sp->e[i].bs == e->bs)
			return val_why(
				why, -EINVAL,
				"'%.*s%s' appears twice in '%.*s%s' (give each block size once)",
				VQ(entry), VQ(s));
	pct = slash ? val_trim(slash + 1) : entry + strlen(entry);
	*blank = !*pct;
	e->pct = 0;
	if (*blank)
		return 0;
	if (val_parse_double(pct, &e->pct, NULL) || e->pct < 0 || e->pct > 100)
		return val_why(why, -EINVAL, "'%.*s%s' is not a percentage from 0 to 100 (%s)",
			       VQ(pct), HINT_BSSPLIT);
	return 0;
}

/* Shares what is left among blank entries and checks the total.  Returns 0 or -EINVAL. */
static int val_bssplit_fill(struct val_bssplit *sp, const bool *blank, char *why)
{
	double sum = 0, left;
	unsigned i, nblank = 0;

	for (i = 0; i < sp->n; i++) {
		sum += sp->e[i].pct;
		nblank += blank[i];
	}
	if (!nblank && fabs(sum - 100) > 1e-6)
		return val_why(why, -EINVAL, "bssplit percentages add up to %.10g, not 100", sum);
	if (nblank && sum > 100 + 1e-6)
		return val_why(
			why, -EINVAL,
			"bssplit percentages add up to %.10g, more than 100 before the blank ones",
			sum);
	left = sum < 100 ? (100 - sum) / nblank : 0;
	for (i = 0; nblank && i < sp->n; i++)
		if (blank[i])
			sp->e[i].pct = left;
	return 0;
}

int val_parse_bssplit_one(const char *s, unsigned kb_base, struct val_bssplit *out, char *why)
{
	char *copy, *elem[VAL_BSSPLIT_MAX];
	bool blank[VAL_BSSPLIT_MAX];
	struct val_bssplit sp = {.n = 0};
	unsigned n, i;
	int r = 0;

	if (!s || !*s)
		return val_why(why, -EINVAL, "%s (%s)", s ? "empty value" : "a value is required",
			       HINT_BSSPLIT);
	copy = strdup(s);
	if (!copy)
		return val_nomem(why);
	n = val_split(copy, ':', elem, VAL_BSSPLIT_MAX);
	if (n > VAL_BSSPLIT_MAX)
		r = val_why(why, -EINVAL, "'%.*s%s' has more than %d entries", VQ(s),
			    VAL_BSSPLIT_MAX);
	for (i = 0; !r && i < n; i++, sp.n++)
		r = val_bssplit_entry(s, elem[i], kb_base, &sp, &blank[i], why);
	if (!r)
		r = val_bssplit_fill(&sp, blank, why);
	if (!r)
		*out = sp;
	free(copy);
	return r;
}

int val_parse_double_list(const char *s, double lo, double hi, double *out, unsigned max,
			  unsigned *n, char *why)
{
	char *copy, **elem;
	unsigned cnt, i;
	int r = 0;

	if (!s || !*s)
		return val_why(why, -EINVAL, "%s (use numbers separated by ':', e.g. 99:99.9)",
			       s ? "empty value" : "a value is required");
	copy = strdup(s);
	elem = calloc((size_t)max + 1, sizeof(*elem));
	if (!copy || !elem) {
		r = val_nomem(why);
		goto out_free;
	}
	cnt = val_split(copy, ':', elem, max);
	if (cnt > max)
		r = val_why(why, -EINVAL, "'%.*s%s' has more than %u values", VQ(s), max);
	for (i = 0; !r && i < cnt; i++) {
		r = val_parse_double(elem[i], &out[i], why);
		if (!r && !(out[i] > lo && out[i] <= hi))
			r = val_why(why, -ERANGE,
				    "%g in '%.*s%s' is out of range (use values above %g and at "
				    "most %g)",
				    out[i], VQ(s), lo, hi);
	}
	if (!r)
		*n = cnt;
out_free:
	free(elem);
	free(copy);
	return r;
}

/* Copies the name at *pp up to an unescaped ':' and moves *pp to it.  Returns it or NULL. */
static char *val_next_name(const char **pp)
{
	const char *p = *pp;
	char *name = malloc(strlen(p) + 1), *o = name;

	if (!name)
		return NULL;
	while (*p && *p != ':') {
		if (p[0] == '\\' && p[1] == ':')
			p++;
		*o++ = *p++;
	}
	*o = '\0';
	*pp = p;
	return name;
}

static char **val_names_fail(char **v, int e, char *why, const char *s)
{
	val_strv_free(v);
	if (e == ENOMEM)
		val_nomem(why);
	else if (!s)
		val_why(why, -EINVAL, "a value is required (%s)", HINT_NAMES);
	else if (!*s)
		val_why(why, -EINVAL, "empty value (%s)", HINT_NAMES);
	else
		val_why(why, -EINVAL, "'%.*s%s' has an empty name (%s)", VQ(s), HINT_NAMES);
	errno = e;
	return NULL;
}

char **val_split_names(const char *s, char *why)
{
	const char *p = s;
	size_t max = 2, i = 0;
	char **v;

	if (!s || !*s)
		return val_names_fail(NULL, EINVAL, why, s);
	for (; *p; p++)
		max += *p == ':';
	v = calloc(max, sizeof(*v));
	if (!v)
		return val_names_fail(NULL, ENOMEM, why, s);
	for (p = s;; p++) {
		v[i] = val_next_name(&p);
		if (!v[i])
			return val_names_fail(v, ENOMEM, why, s);
		if (!*v[i++])
			return val_names_fail(v, EINVAL, why, s);
		if (!*p)
			return v;
	}
}

void val_strv_free(char **v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}
