// SPDX-License-Identifier: MIT
/* Parsing of fio's random_distribution syntax for one direction. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/pattern/dist.h"

#define TOKEN_MAX 64 /* longest number or size we accept */
#define QUOTE_MAX 40 /* longest token quoted back in a message */

struct dist_name {
	const char *name;
	enum dist_type type;
	unsigned max_params;
	double param; /* default when the parameter is left out */
};

static const struct dist_name dist_syntax[] = {
	{"random", DIST_UNIFORM, 0, 0},
	{"zipf", DIST_ZIPF, 2, DIST_ZIPF_THETA},
	{"pareto", DIST_PARETO, 2, DIST_PARETO_H},
	{"normal", DIST_NORMAL, 2, DIST_NORMAL_DEV},
	{"gauss", DIST_NORMAL, 2, DIST_NORMAL_DEV},
	{"normal_sd", DIST_NORMAL_SD, 2, DIST_NORMAL_DEV},
	/* zone counts are limited by parse_zone(), with its own message */
	{"zoned", DIST_ZONED, UINT_MAX, 0},
	{"zoned_abs", DIST_ZONED_ABS, UINT_MAX, 0},
	{"hotband", DIST_HOTBAND, 1, 0},
};

/* Parses a whole token as a finite decimal number.  Returns 0 or -EINVAL. */
static int parse_num(const char *p, size_t len, double *out)
{
	char tmp[TOKEN_MAX];
	char *end;

	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, p, len);
	tmp[len] = '\0';
	/* strtod alone would also take "inf", "nan", hex and leading blanks */
	if (strspn(tmp, "0123456789.+-eE") != len)
		return -EINVAL;
	errno = 0;
	*out = strtod(tmp, &end);
	if (end != tmp + len || errno == ERANGE)
		return -EINVAL;
	return 0;
}

/* Multiplier of a size suffix (k, m, g, t, p, optionally followed by "b" or "ib"), base 1024. */
static int parse_unit(const char *p, size_t len, double *mult)
{
	static const char units[] = "kmgtp";
	const char *u;

	*mult = 1;
	if (len == 0 || (len == 1 && (*p == 'b' || *p == 'B')))
		return 0;
	u = memchr(units, p[0] | 0x20, sizeof(units) - 1);
	if (!u)
		return -EINVAL;
	*mult = (double)(1ULL << (10 * (u - units + 1)));
	if (len == 1 || (len == 2 && (p[1] | 0x20) == 'b'))
		return 0;
	if (len == 3 && (p[1] | 0x20) == 'i' && (p[2] | 0x20) == 'b')
		return 0;
	return -EINVAL;
}

/* Parses a byte count such as 4096, 64k, 1.5g or 20GiB.  Returns 0 or -EINVAL. */
static int parse_size(const char *p, size_t len, double *bytes)
{
	size_t num = strspn(p, "0123456789.");
	double v, mult;

	if (num > len)
		num = len;
	if (parse_num(p, num, &v) || parse_unit(p + num, len - num, &mult))
		return -EINVAL;
	*bytes = floor(v * mult);
	return 0;
}

/* One access/size zone. */
static int parse_zone(const char *p, size_t len, struct dist_spec *out, char *why)
{
	const char *name = dist_type_name(out->type);
	struct dist_zone *z = &out->zones[out->nzones];
	const char *slash = memchr(p, '/', len);
	size_t alen, slen;
	int bad;

	if (out->nzones == DIST_MAX_ZONES)
		return dist_why(why, "%s has more than %d zones", name, DIST_MAX_ZONES);
	if (out->rest_zone)
		return dist_why(why, "%s zone %u: only the last zone may leave its size out", name,
				 out->nzones);
	if (!slash && out->type != DIST_ZONED)
		return dist_why(why, "%s zone %u: '%.*s' is not access/size", name,
				 out->nzones + 1, (int)(len < QUOTE_MAX ? len : QUOTE_MAX), p);
	alen = slash ? (size_t)(slash - p) : len;
	slen = slash ? len - alen - 1 : 0;
	if (parse_num(p, alen, &z->access))
		return dist_why(why, "%s zone %u: access '%.*s' is not a number", name,
				 out->nzones + 1, (int)(alen < QUOTE_MAX ? alen : QUOTE_MAX), p);
	/* fio: a last zoned zone without a size ("20/" or "20") takes the rest of the region */
	if (out->type == DIST_ZONED && !slen) {
		out->rest_zone = true;
		out->nzones++;
		return 0;
	}
	if (out->type == DIST_ZONED)
		bad = parse_num(slash + 1, slen, &z->size);
	else
		bad = parse_size(slash + 1, slen, &z->size);
	if (bad)
		return dist_why(why, "%s zone %u: size '%.*s' is not a %s", name, out->nzones + 1,
				 (int)(slen < QUOTE_MAX ? slen : QUOTE_MAX), slash + 1,
				 out->type == DIST_ZONED ? "percentage" : "size");
	out->nzones++;
	return 0;
}

/* Parameter number idx (0-based) of zipf, pareto, normal, normal_sd or hotband. */
static int parse_param(const char *p, size_t len, unsigned idx, struct dist_spec *out, char *why)
{
	double v;

	if (parse_num(p, len, &v))
		return dist_why(why, "%s: '%.*s' is not a number", dist_type_name(out->type),
				 (int)(len < QUOTE_MAX ? len : QUOTE_MAX), p);
	if (idx == 0 && out->type != DIST_HOTBAND) {
		out->param = v;
	} else {
		out->center = v;
		out->has_center = true;
	}
	return 0;
}

static const struct dist_name *parse_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(dist_syntax) / sizeof(dist_syntax[0]); i++)
		if (strlen(dist_syntax[i].name) == len && !memcmp(dist_syntax[i].name, s, len))
			return &dist_syntax[i];
	return NULL;
}

/* The ':'-separated values after the name; p points just past a ':'. */
static int parse_values(const char *p, const struct dist_name *dn, struct dist_spec *out, char *why)
{
	unsigned idx;
	int ret;

	for (idx = 0;; idx++) {
		size_t len = strcspn(p, ":");

		if (idx == dn->max_params && idx == 0)
			return dist_why(why, "%s takes no parameters", dn->name);
		if (idx == dn->max_params)
			return dist_why(why, "%s takes at most %u parameter%s", dn->name,
					 dn->max_params, dn->max_params == 1 ? "" : "s");
		if (len == 0)
			return dist_why(why, "%s: empty value after ':'", dn->name);
		if (dn->type == DIST_ZONED || dn->type == DIST_ZONED_ABS)
			ret = parse_zone(p, len, out, why);
		else
			ret = parse_param(p, len, idx, out, why);
		if (ret)
			return ret;
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

int dist_spec_parse(const char *s, struct dist_spec *out, char *why)
{
	size_t len = strcspn(s, ":");
	const struct dist_name *dn = parse_name(s, len);
	int ret;

	if (!dn)
		return dist_why(why,
				 "unknown distribution '%.*s' (expected random, zipf, "
				 "pareto, normal, gauss, normal_sd, zoned, zoned_abs or hotband)",
				 (int)(len < QUOTE_MAX ? len : QUOTE_MAX), s);
	memset(out, 0, sizeof(*out));
	out->type = dn->type;
	out->param = dn->param;
	if (s[len] == ':') {
		ret = parse_values(s + len + 1, dn, out, why);
		if (ret)
			return ret;
	}
	if (out->rest_zone) {
		double rest = 100;

		for (unsigned i = 0; i + 1 < out->nzones; i++)
			rest -= out->zones[i].size;
		if (!(rest > 1e-9))
			return dist_why(why, "zoned zone %u has no size and the others take the whole region",
					 out->nzones);
		out->zones[out->nzones - 1].size = rest;
	}
	return dist_spec_check(out, why);
}
