// SPDX-License-Identifier: MIT
/* Number formatting and derived figures shared by the text and JSON reports, by fio's rules. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/clock.h"
#include "report/fmt.h"

#define PREFIX_NR	7

/* fio's default percentile_list. */
static const double default_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

unsigned fmt_digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Prints the integer part and the free decimal places of num + rem / thousand. */
static void fmt_num_frac(char *buf, size_t len, uint64_t num, uint64_t rem, unsigned thousand,
			 int places, const char *tail)
{
	char frac[32];

	if (places < 1) {
		num += rem >= thousand / 2;
		snprintf(buf, len, "%llu%s", (unsigned long long)num, tail);
		return;
	}
	/* Rounded as printf rounds the quotient; "1.0..." means it carries into num. */
	snprintf(frac, sizeof(frac), "%.*f", places, (double)rem / thousand);
	if (frac[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s", (unsigned long long)num, frac + 2, tail);
}

char *fmt_num(char *buf, size_t len, uint64_t num, unsigned maxlen, bool pow2, enum fmt_unit unit)
{
	static const char *const si[PREFIX_NR] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[PREFIX_NR] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const units[] = { "", "B", "B/s", "bit/s" };
	unsigned thousand = pow2 ? 1024 : 1000;
	uint64_t rem = 0;
	bool divided = false;
	unsigned p = 0;
	char tail[8];

	while (p < PREFIX_NR - 1 && fmt_digits(num) > maxlen) {
		rem = num % thousand;
		num /= thousand;
		divided = true;
		p++;
	}
	snprintf(tail, sizeof(tail), "%s%s", pow2 ? iec[p] : si[p], units[unit]);
	if (!divided)
		snprintf(buf, len, "%llu%s", (unsigned long long)num, tail);
	else
		fmt_num_frac(buf, len, num, rem, thousand,
			     (int)maxlen - (int)fmt_digits(num) - 1, tail);
	return buf;
}

static void scale_set(struct fmt_scale *sc, unsigned steps)
{
	static const char *const names[] = { "nsec", "usec", "msec" };

	sc->steps = steps;
	sc->unit = names[steps];
	sc->div = steps == 2 ? 1000000 : steps == 1 ? 1000 : 1;
}

void fmt_lat_scale(uint64_t min, uint64_t max, double dev, struct fmt_scale *sc)
{
	if (min > 2000000 && max > 99999999ULL && dev > 1000000.0)
		scale_set(sc, 2);
	else if (min > 2000 && max > 99999 && dev > 1000.0)
		scale_set(sc, 1);
	else
		scale_set(sc, 0);
}

void fmt_pct_scale(uint64_t minv, uint64_t maxv, struct fmt_scale *sc)
{
	if (minv > 2000000 && maxv > 99999999ULL)
		scale_set(sc, 2);
	else if (minv > 2000 && maxv > 99999)
		scale_set(sc, 1);
	else
		scale_set(sc, 0);
}

uint64_t fmt_ceil_scale(uint64_t v, unsigned steps)
{
	for (unsigned i = 0; i < steps; i++)
		v = v / 1000 + (v % 1000 != 0);
	return v;
}

static int pct_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

unsigned fmt_pct_list(const struct job *job, double *out)
{
	unsigned n = job ? job->o.npercentiles : 0;

	if (n > JOB_PCT_MAX)
		n = JOB_PCT_MAX;
	if (n) {
		memcpy(out, job->o.percentile_list, n * sizeof(*out));
	} else {
		n = sizeof(default_pcts) / sizeof(default_pcts[0]);
		memcpy(out, default_pcts, sizeof(default_pcts));
	}
	qsort(out, n, sizeof(*out), pct_cmp);
	return n;
}

unsigned fmt_pct_precision(const double *pct, unsigned n)
{
	unsigned prec = 0;

	for (unsigned i = 0; i < n; i++) {
		double scaled = pct[i];
		unsigned d = 0;

		while (d < 6 && fabs(scaled - nearbyint(scaled)) > 1e-6) {
			scaled *= 10;
			d++;
		}
		if (d > prec)
			prec = d;
	}
	return prec;
}

uint64_t fmt_runtime_ms(uint64_t ns)
{
	return (ns / 1000 + 999) / 1000;
}

uint64_t fmt_per_sec(uint64_t count, uint64_t ns)
{
	if (!ns)
		return 0;
	return (uint64_t)((unsigned __int128)count * NSEC_PER_SEC / ns);
}

void fmt_dir_figures(const struct job_result *u, unsigned d, struct fmt_dir *out)
{
	const struct dir_stats *ds = &u->st.dir[d];
	uint64_t ns = stats_dir_runtime(&u->st, d);

	memset(out, 0, sizeof(*out));
	if (!(ds->ios || ds->bytes) || !fmt_runtime_ms(ns))
		return;
	out->active = true;
	out->runtime_ms = fmt_runtime_ms(ns);
	out->bw = fmt_per_sec(ds->bytes, ns);
	out->iops = (double)ds->ios * (double)NSEC_PER_SEC / (double)ns;
}

double fmt_bw_agg(const struct lat_stat *bw_kib, uint64_t agg_bw)
{
	double p;

	if (!bw_kib->n)
		return 0;
	if (agg_bw <= 1024)
		return 100.0;
	p = lat_mean(bw_kib) * 100.0 / ((double)agg_bw / 1024.0);
	return p > 100.0 ? 100.0 : p;
}

void fmt_dist(const uint64_t *map, double *out)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < STATS_BUCKETS; i++)
		sum += map[i];
	for (unsigned i = 0; i < STATS_BUCKETS; i++) {
		out[i] = sum ? (double)map[i] * 100.0 / (double)sum : 0.0;
		if (map[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

static void floor_pcts(double *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] > 0 && v[i] < 0.01)
			v[i] = 0.01;
}

int fmt_lat_buckets(const struct worker_stats *st, double *ns, double *us, double *ms)
{
	bool clat = false;
	const struct hist *one = NULL;
	struct hist *h = NULL;
	unsigned n = 0;

	for (unsigned d = 0; d < DDIR_NR; d++)
		clat |= st->dir[d].clat_hist != NULL;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct hist *src = clat ? st->dir[d].clat_hist : st->dir[d].lat_hist;

		n += src != NULL;
		one = src ? src : one;
	}
	/* One direction's histogram is used as it is; only several are added up (38 KiB each). */
	if (n > 1 && !(h = hist_alloc()))
		return -ENOMEM;
	for (unsigned d = 0; h && d < DDIR_NR; d++) {
		const struct hist *src = clat ? st->dir[d].clat_hist : st->dir[d].lat_hist;

		if (src)
			hist_merge(h, src);
	}
	if (n) {
		hist_fio_buckets(h ? h : one, ns, us, ms);
	} else {
		memset(ns, 0, HIST_FIO_NS_NR * sizeof(*ns));
		memset(us, 0, HIST_FIO_US_NR * sizeof(*us));
		memset(ms, 0, HIST_FIO_MS_NR * sizeof(*ms));
	}
	hist_free(h);
	floor_pcts(ns, HIST_FIO_NS_NR);
	floor_pcts(us, HIST_FIO_US_NR);
	floor_pcts(ms, HIST_FIO_MS_NR);
	return 0;
}

double fmt_cpu_pct(uint64_t cpu_ns, const struct job_result *u)
{
	double run = (double)stats_clones_runtime(&u->st);

	return run > 0 ? (double)cpu_ns * 100.0 / run : 0.0;
}

uint64_t fmt_job_runtime_ms(const struct job_result *u)
{
	return stats_clones_runtime(&u->st) / 1000000;
}

unsigned fmt_kb_base(unsigned kb_base)
{
	return kb_base == 1000 ? 1000 : 1024;
}

const struct group_result *fmt_group(const struct run_result *r, unsigned id)
{
	for (unsigned i = 0; i < r->ngroups; i++)
		if (r->groups[i].id == id)
			return &r->groups[i];
	return NULL;
}

unsigned fmt_iodepth(const struct job_result *u)
{
	return u->job && u->job->o.iodepth ? u->job->o.iodepth : 1;
}
