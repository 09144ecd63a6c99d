// SPDX-License-Identifier: MIT
/* --assert: parse "[unit:]dir.metric[.kind.stat] op value" and check it against the reported units. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/ddir.h"
#include "iowl/assert.h"
#include "iowl/hist.h"
#include "iowl/value.h"

static const char *const op_names[] = { ">=", "<=", ">", "<", "==", "!=" };
static const char *const lat_names[] = { "slat", "clat", "lat" };

#define SYNTAX "use [job:]read|write|trim|total.iops|bw|io_bytes|ios|clat.p99|lat.mean|... or errors, an operator (>= <= > < == !=) and a value, e.g. read.clat.p99<=2ms"

/* Splits at the operator; *op and the value's start are returned. */
static int split_op(const char *s, size_t *lhs_len, enum assert_op *op, const char **rhs)
{
	const char *p = strpbrk(s, "<>=!");

	if (!p || p == s)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		size_t n = strlen(op_names[i]);

		if (!strncmp(p, op_names[i], n)) {
			*op = (enum assert_op)i;
			*lhs_len = (size_t)(p - s);
			*rhs = p + n;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_lat(const char *kind, const char *stat, struct assertion *a)
{
	char *end;

	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(kind, lat_names[i]))
			a->lat_kind = i;
	if (strcmp(kind, lat_names[a->lat_kind]))
		return -EINVAL;
	a->metric = ASSERT_LAT;
	if (!strcmp(stat, "min") || !strcmp(stat, "max") || !strcmp(stat, "mean")) {
		a->lat_stat = stat[1] == 'i' ? ASSERT_MIN : stat[1] == 'a' ? ASSERT_MAX : ASSERT_MEAN;
		return 0;
	}
	if (stat[0] != 'p')
		return -EINVAL;
	a->lat_stat = ASSERT_PCT;
	a->pct = strtod(stat + 1, &end);
	return *end || !(a->pct > 0 && a->pct <= 100) ? -EINVAL : 0;
}

/* "read.iops", "total.bw", "write.clat.p99.9", "errors". */
static int parse_metric(char *lhs, struct assertion *a)
{
	char *dot = strchr(lhs, '.'), *rest;

	if (!strcmp(lhs, "errors")) {
		a->metric = ASSERT_ERRORS;
		a->dir = -1;
		return 0;
	}
	if (!dot)
		return -EINVAL;
	*dot = '\0';
	rest = dot + 1;
	a->dir = -2;
	for (int d = 0; d < DDIR_NR; d++)
		if (!strcmp(lhs, ddir_name(d)))
			a->dir = d;
	if (!strcmp(lhs, "total"))
		a->dir = -1;
	if (a->dir == -2)
		return -EINVAL;
	if (!strcmp(rest, "iops"))
		a->metric = ASSERT_IOPS;
	else if (!strcmp(rest, "bw"))
		a->metric = ASSERT_BW;
	else if (!strcmp(rest, "io_bytes"))
		a->metric = ASSERT_IO_BYTES;
	else if (!strcmp(rest, "ios"))
		a->metric = ASSERT_IOS;
	else if ((dot = strchr(rest, '.')) && a->dir >= 0) {
		*dot = '\0';
		return parse_lat(rest, dot + 1, a);
	} else
		return -EINVAL;
	return 0;
}

/*
 * The value in the metric's base unit.  Sizes read as the reports print them: KiB, MiB, GiB
 * are powers of 1024 and k, m, g (or kB, MB) powers of 1000 (kb_base=1000's rule, not fio's
 * reversed default), so "200MiB/s" is what the report calls 200 MiB/s.
 */
static int parse_value(const char *v, struct assertion *a, char *why)
{
	uint64_t n;
	char buf[64];
	size_t len = strlen(v);

	if (a->metric == ASSERT_LAT) {
		if (val_parse_time_ns(v, 1, &n, why))
			return -EINVAL;
		a->value = (double)n;
		return 0;
	}
	if (a->metric == ASSERT_BW) {
		if (len > 2 && !strcmp(v + len - 2, "/s"))
			len -= 2;
		snprintf(buf, sizeof(buf), "%.*s", (int)len, v);
		if (val_parse_size(buf, 1000, &n, why))
			return -EINVAL;
		a->value = (double)n;
		return 0;
	}
	if (a->metric == ASSERT_IO_BYTES) {
		if (val_parse_size(v, 1000, &n, why))
			return -EINVAL;
		a->value = (double)n;
		return 0;
	}
	/* counts: a plain number, or k/m/g as powers of 1000 (50k IOPS) */
	if (val_parse_size(v, 1000, &n, why))
		return -EINVAL;
	a->value = (double)n;
	return 0;
}

int assert_parse(const char *text, struct assertion *a, struct iowl_err *err)
{
	char lhs[128], why[VAL_WHY_LEN] = "";
	const char *s = text, *colon, *rhs;
	size_t lhs_len;

	memset(a, 0, sizeof(*a));
	snprintf(a->text, sizeof(a->text), "%s", text);
	colon = strchr(s, ':');
	if (colon && colon < strpbrk(s, "<>=!") ) {
		snprintf(a->unit, sizeof(a->unit), "%.*s", (int)(colon - s), s);
		s = colon + 1;
	}
	if (split_op(s, &lhs_len, &a->op, &rhs) || lhs_len >= sizeof(lhs) || !*rhs)
		return err_set(err, "--assert '%s': no comparison (%s)", text, SYNTAX);
	memcpy(lhs, s, lhs_len);
	lhs[lhs_len] = '\0';
	if (parse_metric(lhs, a))
		return err_set(err, "--assert '%s': unknown figure '%.*s' (%s)", text,
			       (int)lhs_len, s, SYNTAX);
	if (parse_value(rhs, a, why))
		return err_set(err, "--assert '%s': %s", text, why);
	return 0;
}

static double lat_figure(const struct assertion *a, const struct dir_stats *ds)
{
	const struct lat_stat *ls = a->lat_kind == 0 ? &ds->slat : a->lat_kind == 1 ? &ds->clat :
									&ds->lat;
	const struct hist *h = a->lat_kind == 0 ? ds->slat_hist : a->lat_kind == 1 ? ds->clat_hist :
									      ds->lat_hist;
	uint64_t p;

	switch (a->lat_stat) {
	case ASSERT_MIN:
		return (double)lat_min(ls);
	case ASSERT_MAX:
		return (double)ls->max;
	case ASSERT_MEAN:
		return lat_mean(ls);
	case ASSERT_PCT:
		if (!h)
			return NAN;
		hist_percentiles(h, lat_min(ls), ls->max, &a->pct, 1, &p);
		return (double)p;
	}
	return NAN;
}

/* The figure of one unit; NAN when it cannot be measured (no histogram kept). */
static double figure(const struct assertion *a, const struct job_result *u)
{
	double secs = (double)u->st.runtime_ns / 1e9, sum = 0;

	if (a->metric == ASSERT_ERRORS)
		return (double)u->st.errors;
	if (a->metric == ASSERT_LAT)
		return lat_figure(a, &u->st.dir[a->dir]);
	for (int d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *ds = &u->st.dir[d];

		if (a->dir >= 0 && a->dir != d)
			continue;
		if (a->metric == ASSERT_IOPS)
			sum += secs > 0 ? (double)ds->ios / secs : 0;
		else if (a->metric == ASSERT_BW)
			sum += secs > 0 ? (double)ds->bytes / secs : 0;
		else if (a->metric == ASSERT_IO_BYTES)
			sum += (double)ds->bytes;
		else
			sum += (double)ds->ios;
	}
	return sum;
}

static bool holds(enum assert_op op, double x, double v)
{
	switch (op) {
	case ASSERT_GE: return x >= v;
	case ASSERT_LE: return x <= v;
	case ASSERT_GT: return x > v;
	case ASSERT_LT: return x < v;
	case ASSERT_EQ: return x == v;
	case ASSERT_NE: return x != v;
	}
	return false;
}

static const char *unit_name(const struct job_result *u)
{
	return u->job ? u->job->o.name : "?";
}

unsigned assert_check(const struct assertion *a, unsigned n, const struct run_result *r, FILE *f)
{
	unsigned failed = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned matched = 0;

		for (unsigned k = 0; k < r->nunits; k++) {
			const struct job_result *u = &r->units[k];
			double x;

			if (a[i].unit[0] && strcmp(a[i].unit, unit_name(u)))
				continue;
			matched++;
			x = figure(&a[i], u);
			if (isnan(x)) {
				fprintf(f, "iowl: assertion '%s' failed for job '%s': not measured (a percentile needs %s_percentiles=1)\n",
					a[i].text, unit_name(u), lat_names[a[i].lat_kind]);
				failed++;
			} else if (!holds(a[i].op, x, a[i].value)) {
				fprintf(f, "iowl: assertion '%s' failed for job '%s' (clone %u): measured %.6g, expected %s %.6g\n",
					a[i].text, unit_name(u), u->clone, x, op_names[a[i].op],
					a[i].value);
				failed++;
			}
		}
		if (!matched) {
			fprintf(f, "iowl: assertion '%s' names no reported job '%s'\n", a[i].text,
				a[i].unit);
			failed++;
		}
	}
	return failed;
}
