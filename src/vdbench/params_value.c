// SPDX-License-Identifier: MIT
/* vdbench's values: numbers with vdbench's units, lists and (a-b,step) ranges, names with (sd1-sd32) ranges, range= pairs and openflags= (o_direct, directio, fsync), each error at its FILE:LINE. */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vdbench/vdbench_int.h"

/* "FILE:LINE: key=value: <why>" */
int vdb_bad(struct vdb *v, const struct vdb_tok *t, const char *fmt, ...)
{
	char msg[IOWL_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_at(v->err, t->pos.file, t->pos.line, "%s=%s: %s", t->key, t->raw, msg);
}

int vdb_number(const char *s, bool time, double *out)
{
	char *end;
	double x, mult = 1;
	size_t n;

	if (!*s || isspace((unsigned char)*s) || strpbrk(s, "xXpPnN") || *s == '+')
		return -EINVAL;
	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno || !isfinite(x))
		return -EINVAL;
	n = strlen(end);
	if (n == 2 && tolower((unsigned char)end[1]) == 'b' && !time)
		n = 1;
	if (n > 1)
		return -EINVAL;
	if (n == 1) {
		switch (tolower((unsigned char)*end)) {
		case 'k': mult = time ? 0 : 1024.0; break;
		case 'm': mult = time ? 60.0 : 1024.0 * 1024; break;
		case 'g': mult = time ? 0 : 1024.0 * 1024 * 1024; break;
		case 't': mult = time ? 0 : 1024.0 * 1024 * 1024 * 1024; break;
		case 'h': mult = time ? 3600.0 : 0; break;
		default: mult = 0;
		}
		if (!mult)
			return -EINVAL;
	}
	*out = x * mult;
	return 0;
}

/* What a number parameter accepts. */
static const char *vk_hint(enum vdb_vk k)
{
	return k == VK_TIME ? "a number of seconds, or with m (minutes) or h (hours): 30, 5m, 6h" :
	       k == VK_SIZE ? "a size: 4096, 4k, 1m, 2g, 1t" :
			      "a number";
}

/* The items of t as numbers, ranges (a-b,step) and (a-b,d) expanded as vdbench does. */
int vdb_nums(struct vdb *v, const struct vdb_tok *t, enum vdb_vk kind, double **out, unsigned *n)
{
	double *arr = vdb_alloc(v, VDB_MAX_LIST * sizeof(*arr));
	unsigned k = 0;

	if (!arr)
		return vdb_nomem(v, &t->pos);
	for (unsigned i = 0; i < t->nitems; i++) {
		const char *it = t->items[i];
		double a, b, step = 0;
		bool dbl = false;

		if (t->dash[i] < 0) {
			if (vdb_number(it, kind == VK_TIME, &a))
				return vdb_bad(v, t, "'%s' is not %s", it, vk_hint(kind));
			if (k == VDB_MAX_LIST)
				return vdb_bad(v, t, "more than %d values", VDB_MAX_LIST);
			arr[k++] = a;
			continue;
		}
		{
			char *lo = vdb_strndup(v, it, (size_t)t->dash[i]);

			if (!lo)
				return vdb_nomem(v, &t->pos);
			if (vdb_number(lo, kind == VK_TIME, &a) ||
			    vdb_number(it + t->dash[i] + 1, kind == VK_TIME, &b))
				return vdb_bad(v, t,
					       "'%s' is not a range of %s values: write (low-high,step) or (low-high,d) to double",
					       it, kind == VK_SIZE ? "size" : "numeric");
		}
		if (i + 1 == t->nitems)
			return vdb_bad(v, t,
				       "the range '%s' needs a step after it: (%s,step), or (%s,d) to double",
				       it, it, it);
		i++;
		if (!strcmp(t->items[i], "d"))
			dbl = true;
		else if (t->dash[i] >= 0 || vdb_number(t->items[i], kind == VK_TIME, &step) ||
			 step <= 0)
			return vdb_bad(v, t,
				       "'%s' is not a step for the range '%s' (a number above 0, or d to double)",
				       t->items[i], it);
		if (dbl && (a <= 0 || b <= 0))
			return vdb_bad(v, t, "doubling (d) needs a range above 0");
		if (k == VDB_MAX_LIST)
			return vdb_bad(v, t, "more than %d values", VDB_MAX_LIST);
		arr[k++] = a;
		for (double x = a;;) {
			x = dbl ? (b >= a ? x * 2 : x / 2) : x + step;
			if ((dbl && b < a) ? x < b : x > b)
				break;
			if (k == VDB_MAX_LIST)
				return vdb_bad(v, t, "the ranges make more than %d values",
					       VDB_MAX_LIST);
			arr[k++] = x;
		}
	}
	*out = arr;
	*n = k;
	return 0;
}

int vdb_num1(struct vdb *v, const struct vdb_tok *t, enum vdb_vk kind, double lo, double hi,
	     double *out)
{
	double *a;
	unsigned n;
	int ret;

	if (t->list && t->nitems != 1)
		return vdb_bad(v, t, "takes one value, not a list");
	ret = vdb_nums(v, t, kind, &a, &n);
	if (ret)
		return ret;
	if (n != 1)
		return vdb_bad(v, t, "takes one value, not a range");
	if (!(a[0] >= lo && a[0] <= hi))
		return vdb_bad(v, t, "give a value from %g to %g", lo, hi);
	*out = a[0];
	return 0;
}

int vdb_pct1(struct vdb *v, const struct vdb_tok *t, double *out)
{
	return vdb_num1(v, t, VK_COUNT, 0, 100, out);
}

/* A whole number of seconds, as vdbench counts elapsed, interval, warmup and pause. */
int vdb_secs1(struct vdb *v, const struct vdb_tok *t, double lo, double *out)
{
	int ret = vdb_num1(v, t, VK_TIME, lo, 1e9, out);

	if (!ret && *out != floor(*out))
		return vdb_bad(v, t, "vdbench counts whole seconds");
	return ret;
}

/* A name's numeric tail: "sd101" -> prefix "sd", 101.  False without digits after a prefix. */
static bool name_split(const char *s, size_t *plen, unsigned long *num)
{
	size_t n = strlen(s), i = n;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i == n || i == 0 || n - i > 9)
		return false;
	*plen = i;
	*num = strtoul(s + i, NULL, 10);
	return true;
}

/* The items of t as names, (sd1-sd32) ranges expanded as vdbench does. */
int vdb_names(struct vdb *v, const struct vdb_tok *t, char ***out, unsigned *n)
{
	char **arr = vdb_alloc(v, VDB_MAX_LIST * sizeof(*arr));
	unsigned k = 0;

	if (!arr)
		return vdb_nomem(v, &t->pos);
	for (unsigned i = 0; i < t->nitems; i++) {
		const char *it = t->items[i], *hi;
		char *lo;
		size_t pl, ph;
		unsigned long a, b;

		if (t->dash[i] < 0) {
			if (k == VDB_MAX_LIST)
				return vdb_bad(v, t, "more than %d names", VDB_MAX_LIST);
			arr[k++] = (char *)it;
			continue;
		}
		lo = vdb_strndup(v, it, (size_t)t->dash[i]);
		hi = it + t->dash[i] + 1;
		if (!lo)
			return vdb_nomem(v, &t->pos);
		if (!name_split(lo, &pl, &a) || !name_split(hi, &ph, &b))
			return vdb_bad(v, t,
				       "the range '%s' is two names ending in numbers, as (sd1-sd32) (quote a name with a '-' in it: \"my-sd\")",
				       it);
		if (pl != ph || strncmp(lo, hi, pl))
			return vdb_bad(v, t,
				       "the range '%s' has two different prefixes ('%.*s', '%.*s')",
				       it, (int)pl, lo, (int)ph, hi);
		if (a >= b)
			return vdb_bad(v, t, "the range '%s' must go up", it);
		for (unsigned long x = a; x <= b; x++) {
			if (k == VDB_MAX_LIST)
				return vdb_bad(v, t, "the range makes more than %d names",
					       VDB_MAX_LIST);
			/* vdbench writes the numbers without leading zeros */
			arr[k] = vdb_printf(v, "%.*s%lu", (int)pl, lo, x);
			if (!arr[k++])
				return vdb_nomem(v, &t->pos);
		}
	}
	*out = arr;
	*n = k;
	return 0;
}

int vdb_name1(struct vdb *v, const struct vdb_tok *t, char **out)
{
	if (t->list || t->nitems != 1)
		return vdb_bad(v, t, "takes one name, not a list");
	*out = t->items[0];
	return 0;
}

int vdb_range2(struct vdb *v, const struct vdb_tok *t, struct vdb_range *r)
{
	double *a;
	unsigned n;
	int ret = vdb_nums(v, t, VK_SIZE, &a, &n);

	if (ret)
		return ret;
	if (n != 2)
		return vdb_bad(v, t, "give a beginning and an end, e.g. %s=(10,20)", t->key);
	if (a[0] < 0 || a[0] >= a[1])
		return vdb_bad(v, t, "the second value must be above the first");
	if (a[0] < 100 && a[1] > 100 && a[1] <= 200 && a[1] - a[0] >= 100)
		return vdb_bad(v, t, "a range across the end of the lun must be under 100 %% wide");
	if ((a[0] > 100) != (a[1] > 200))
		return vdb_bad(v, t,
			       "give both ends in percent (up to 100, or 200 across the end) or both in bytes");
	*r = (struct vdb_range){ true, a[0], a[1], t->pos };
	return 0;
}

int vdb_openflags(struct vdb *v, const struct vdb_tok *t, unsigned *out)
{
	*out = 0;
	for (unsigned i = 0; i < t->nitems; i++) {
		const char *f = t->items[i];

		if (!strcasecmp(f, "o_direct") || !strcasecmp(f, "directio"))
			*out |= VDB_OF_DIRECT;
		else if (!strcasecmp(f, "fsync"))
			*out |= VDB_OF_FSYNC;
		else if (!strcasecmp(f, "o_sync") || !strcasecmp(f, "o_dsync") ||
			 !strcasecmp(f, "o_rsync"))
			return vdb_bad(v, t,
				       "iowl cannot open with %s yet (o_direct, directio and fsync are supported)",
				       f);
		else
			return vdb_bad(v, t,
				       "'%s' is not an open flag iowl knows (o_direct, directio, fsync)",
				       f);
	}
	return 0;
}
