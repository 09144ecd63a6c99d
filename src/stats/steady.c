// SPDX-License-Identifier: MIT
/* Steady-state detection: ss= parsing, a ring of interval samples, fio's deviation and slope. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/debug.h"
#include "iowl/steady.h"
#include "iowl/value.h"

#define STEADY_SYNTAX	"expected <criterion>:<limit>[%%], e.g. iops_slope:0.1%%"
#define STEADY_CRITS	"expected iops, iops_slope, bw, bw_slope, lat or lat_slope"
#define STEADY_LIMIT \
	"expected a non-negative number (IOPS, bytes/s or ns, no unit), optionally followed by '%%'"

static const char *const metric_names[STEADY_METRIC_NR] = {
	[STEADY_IOPS] = "iops",
	[STEADY_BW] = "bw",
	[STEADY_LAT] = "lat",
};

const char *steady_metric_name(enum steady_metric m)
{
	return m < STEADY_METRIC_NR ? metric_names[m] : "?";
}

static int steady_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int steady_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Matches the len bytes at name against the six criteria; exact and case-sensitive, as fio. */
static int parse_crit(const char *name, size_t len, struct steady_spec *s)
{
	static const char slope[] = "_slope";

	for (unsigned m = 0; m < STEADY_METRIC_NR; m++) {
		size_t ml = strlen(metric_names[m]);

		if (len < ml || memcmp(name, metric_names[m], ml))
			continue;
		if (len == ml) {
			s->metric = m;
			s->slope = false;
			return 0;
		}
		if (len == ml + sizeof(slope) - 1 && !memcmp(name + ml, slope, len - ml)) {
			s->metric = m;
			s->slope = true;
			return 0;
		}
	}
	return -EINVAL;
}

/* Explains why the criterion in spec (len bytes) is not one, suggesting its lower case. */
static int bad_crit(const char *spec, size_t len, char *err, size_t errlen)
{
	struct steady_spec s;
	char lower[16];

	if (!len)
		return steady_fail(err, errlen, "missing criterion in '%s': " STEADY_CRITS, spec);
	if (len < sizeof(lower)) {
		for (size_t i = 0; i < len; i++)
			lower[i] = (char)tolower((unsigned char)spec[i]);
		lower[len] = '\0';
		if (!parse_crit(lower, len, &s))
			return steady_fail(err, errlen,
					   "unknown criterion '%.*s' (did you mean '%s'?): " STEADY_CRITS,
					   (int)len, spec, lower);
	}
	return steady_fail(err, errlen, "unknown criterion '%.*s': " STEADY_CRITS, (int)len, spec);
}

/* Parses the limit after the colon: a number, then an optional '%' and nothing else. */
static int parse_limit(const char *spec, const char *text, struct steady_spec *s, char *err,
		       size_t errlen)
{
	char num[64], why[VAL_WHY_LEN];
	size_t len = strlen(text);

	s->pct = len && text[len - 1] == '%';
	if (s->pct)
		len--;
	if (!len)
		return steady_fail(err, errlen, "missing limit in '%s': " STEADY_LIMIT, spec);
	if (len >= sizeof(num) || memchr(text, '%', len))
		return steady_fail(err, errlen, "invalid limit '%s': " STEADY_LIMIT, text);
	memcpy(num, text, len);
	num[len] = '\0';
	if (val_parse_double(num, &s->limit, why))
		return steady_fail(err, errlen, "invalid limit '%s': " STEADY_LIMIT, text);
	if (s->limit < 0)
		return steady_fail(err, errlen, "negative limit '%s': " STEADY_LIMIT, text);
	s->limit += 0.0; /* -0 becomes 0 */
	return 0;
}

int steady_parse(const char *spec, struct steady_spec *out, char *err, size_t errlen)
{
	struct steady_spec s = { 0 };
	const char *colon;
	int ret;

	if (!spec || !*spec)
		return steady_fail(err, errlen, "empty steady state criterion: " STEADY_SYNTAX);
	colon = strchr(spec, ':');
	if (!colon)
		return steady_fail(err, errlen, "missing limit in '%s': " STEADY_SYNTAX, spec);
	if (parse_crit(spec, (size_t)(colon - spec), &s))
		return bad_crit(spec, (size_t)(colon - spec), err, errlen);
	ret = parse_limit(spec, colon + 1, &s, err, errlen);
	if (ret)
		return ret;
	*out = s;
	return 0;
}

int steady_format(const struct steady_spec *spec, char *buf, size_t len)
{
	return snprintf(buf, len, "%s%s:%f%s", steady_metric_name(spec->metric),
			spec->slope ? "_slope" : "", (double)(float)spec->limit,
			spec->pct ? "%" : "");
}

int steady_format_criterion(const struct steady *st, char *buf, size_t len)
{
	return snprintf(buf, len, "%f%s", (double)(float)st->criterion, st->spec.pct ? "%" : "");
}

int steady_init(struct steady *st, const struct steady_spec *spec, unsigned n)
{
	memset(st, 0, sizeof(*st));
	if (n < 2 || n > STEADY_MAX_SAMPLES)
		return -EINVAL;
	for (unsigned m = 0; m < STEADY_METRIC_NR; m++) {
		st->ring[m] = calloc(n, sizeof(*st->ring[m]));
		if (!st->ring[m]) {
			steady_release(st);
			return -ENOMEM;
		}
	}
	st->spec = *spec;
	st->n = n;
	return 0;
}

void steady_release(struct steady *st)
{
	for (unsigned m = 0; m < STEADY_METRIC_NR; m++) {
		free(st->ring[m]);
		st->ring[m] = NULL;
	}
}

/* Ring slot of the oldest sample in the window. */
static unsigned oldest_slot(const struct steady *st)
{
	return st->added < st->n ? 0 : st->next;
}

/*
 * Evaluates the full window of the watched metric.  With S = sum y, the deviation is
 * max |n y_k - S| / n and the slope (n sum x y - sum x S) / (n sum x^2 - (sum x)^2): both
 * numerators are exact integers (n <= 2^20 and y < 2^64 keep them below 2^125), so the
 * only rounding is the final conversion and division.
 */
static void steady_evaluate(struct steady *st)
{
	const uint64_t *y = st->ring[st->spec.metric];
	unsigned n = st->n, k = oldest_slot(st);
	unsigned __int128 sum = 0, maxdiff = 0;
	__int128 sumxy = 0, sumx = (__int128)n * (n - 1) / 2, num, den;

	for (unsigned x = 0; x < n; x++, k = k + 1 == n ? 0 : k + 1) {
		sum += y[k];
		sumxy += (__int128)x * y[k];
	}
	k = oldest_slot(st);
	for (unsigned x = 0; x < n; x++, k = k + 1 == n ? 0 : k + 1) {
		unsigned __int128 ny = (unsigned __int128)n * y[k];
		unsigned __int128 diff = ny > sum ? ny - sum : sum - ny;

		maxdiff = diff > maxdiff ? diff : maxdiff;
	}
	num = (__int128)n * sumxy - sumx * (__int128)sum;
	den = (__int128)n * n * ((__int128)n * n - 1) / 12; /* n sum x^2 - (sum x)^2 */

	st->deviation = (double)maxdiff / n;
	st->slope = (double)num / (double)den;
	if (!st->spec.pct)
		st->criterion = st->spec.slope ? st->slope : st->deviation;
	else if (!sum)
		st->criterion = INFINITY;
	else if (st->spec.slope)
		st->criterion = 100.0 * st->slope * n / (double)sum;
	else
		st->criterion = 100.0 * (double)maxdiff / (double)sum;
	st->evaluated = true;
	st->attained = fabs(st->criterion) < st->spec.limit;
}

bool steady_add(struct steady *st, uint64_t iops, uint64_t bw_bytes_per_s, uint64_t lat_mean_ns)
{
	if (st->attained)
		return true;
	st->ring[STEADY_IOPS][st->next] = iops;
	st->ring[STEADY_BW][st->next] = bw_bytes_per_s;
	st->ring[STEADY_LAT][st->next] = lat_mean_ns;
	st->next = st->next + 1 == st->n ? 0 : st->next + 1;
	st->added++;
	if (st->added >= st->n)
		steady_evaluate(st);
	dprint(DBG_STEADYSTATE, "sample %llu: iops %llu, bw %llu B/s, lat mean %llu ns; %s",
	       (unsigned long long)st->added, (unsigned long long)iops,
	       (unsigned long long)bw_bytes_per_s, (unsigned long long)lat_mean_ns,
	       st->added < st->n ? "the window is not full yet" :
	       st->attained	 ? "attained" :
				   "not attained");
	if (st->added >= st->n)
		dprint(DBG_STEADYSTATE, "criterion %g over the last %u samples", st->criterion,
		       st->n);
	return st->attained;
}

unsigned steady_samples(const struct steady *st, enum steady_metric m, uint64_t *out)
{
	unsigned nr = st->added < st->n ? (unsigned)st->added : st->n;
	unsigned k = oldest_slot(st);

	for (unsigned i = 0; i < nr; i++, k = k + 1 == st->n ? 0 : k + 1)
		out[i] = st->ring[m][k];
	return nr;
}

static unsigned __int128 steady_sum(const struct steady *st, enum steady_metric m)
{
	unsigned __int128 sum = 0;

	/* Slots not yet written are still zero from calloc. */
	for (unsigned k = 0; k < st->n; k++)
		sum += st->ring[m][k];
	return sum;
}

double steady_mean(const struct steady *st, enum steady_metric m)
{
	unsigned nr = st->added < st->n ? (unsigned)st->added : st->n;

	return nr ? (double)steady_sum(st, m) / nr : 0;
}

uint64_t steady_mean_fio(const struct steady *st, enum steady_metric m)
{
	return (uint64_t)(steady_sum(st, m) / st->n);
}
