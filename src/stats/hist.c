// SPDX-License-Identifier: MIT
/* Latency histogram: bin geometry, merging, percentiles and fio's fixed latency buckets. */
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include "iowl/hist.h"

#define PCT_SCALE	100000000ULL	/* percent to 6 decimals: 100 % = 1e8 */
#define FIO_EDGE_NR	(HIST_FIO_NS_NR + HIST_FIO_US_NR + HIST_FIO_MS_NR - 1)

/* Exclusive upper edges of fio's latency buckets in ns; the last bucket is unbounded. */
static const uint64_t fio_edges[FIO_EDGE_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
	2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000, 1000000,
	2000000, 4000000, 10000000, 20000000, 50000000, 100000000, 250000000, 500000000,
	750000000, 1000000000, 2000000000,
};

/* log2 of the width of bin i: 0 for the exact bins and the first full group. */
static unsigned bin_shift(unsigned i)
{
	unsigned g = i >> HIST_SUB_BITS;

	return g < 2 ? 0 : g - 1;
}

uint64_t hist_bin_low(unsigned i)
{
	unsigned e = bin_shift(i);

	if (!e)
		return i;
	return (uint64_t)(HIST_SUB_NR + (i & (HIST_SUB_NR - 1))) << e;
}

/* The last value of bin i by its nominal width, ignoring the clamp into the last bin. */
static uint64_t bin_nominal_high(unsigned i)
{
	return hist_bin_low(i) + (1ULL << bin_shift(i)) - 1;
}

uint64_t hist_bin_high(unsigned i)
{
	return i == HIST_NR - 1 ? UINT64_MAX : bin_nominal_high(i);
}

uint64_t hist_bin_mid(unsigned i)
{
	return hist_bin_low(i) + ((1ULL << bin_shift(i)) >> 1);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NR; i++)
		if (src->count[i]) /* as the copies below: unwritten pages stay so */
			dst->count[i] += src->count[i];
}

/*
 * The copies below write a bin only when its value changes: a histogram is calloc'ed, and its
 * pages of bins never hit stay unwritten (no memory) in the copies too.  Reading them costs none.
 */
void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b)
{
	for (unsigned i = 0; i < HIST_NR; i++) {
		uint64_t x = a->count[i], y = b->count[i];
		uint64_t v = x > y ? x - y : 0;

		if (dst->count[i] != v)
			dst->count[i] = v;
	}
}

void hist_copy(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NR; i++)
		if (dst->count[i] != src->count[i])
			dst->count[i] = src->count[i];
}

void hist_clear(struct hist *h)
{
	for (unsigned i = 0; i < HIST_NR; i++)
		if (h->count[i])
			h->count[i] = 0;
}

uint64_t hist_total(const struct hist *h)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < HIST_NR; i++)
		total += h->count[i];
	return total;
}

/*
 * Rank (1-based) of percentile p among total values: ceil(p / 100 * total) in exact integer
 * arithmetic, so that decimal percentiles such as 99.9 are not pushed one rank up by their
 * binary representation (fio's long double comparison is).
 */
static uint64_t pct_rank(double p, uint64_t total)
{
	unsigned __int128 scaled;
	uint64_t pm, rank;

	if (!(p > 0))
		return 1;
	if (p >= 100)
		return total;
	pm = (uint64_t)(p * 1e6 + 0.5);
	scaled = (unsigned __int128)pm * total;
	rank = (uint64_t)((scaled + PCT_SCALE - 1) / PCT_SCALE);
	return rank ? rank : 1;
}

/*
 * Value reported for the sample at rank in bin.  The first and last ranks are the extremes
 * themselves when those lie in the bin found (a loose bound, such as a cumulative max passed
 * with an interval delta, then still stays within the bin); otherwise the bin midpoint,
 * clamped to [min, max].
 */
static uint64_t pct_value(unsigned bin, uint64_t rank, uint64_t total, uint64_t min,
			  uint64_t max)
{
	uint64_t v = hist_bin_mid(bin);

	if (rank == total && hist_index(max) == bin)
		return max;
	if (rank == 1 && hist_index(min) == bin)
		return min;
	if (v < min)
		v = min;
	return v > max ? max : v;
}

void hist_percentiles(const struct hist *h, uint64_t min, uint64_t max, const double *pct,
		      unsigned n, uint64_t *out)
{
	uint64_t total = hist_total(h), sum = 0, last_rank = 0;
	unsigned bin = 0;

	for (unsigned j = 0; j < n; j++) {
		uint64_t rank;

		if (!total) {
			out[j] = 0;
			continue;
		}
		rank = pct_rank(pct[j], total);
		/* A sorted list is one walk; an unsorted entry restarts it. */
		if (rank < last_rank) {
			bin = 0;
			sum = 0;
		}
		/* The bound only matters if h changes under a reader. */
		while (sum + h->count[bin] < rank && bin < HIST_NR - 1)
			sum += h->count[bin++];
		last_rank = rank;
		out[j] = pct_value(bin, rank, total, min, max);
	}
}

/*
 * Adds count c of the bin [lo, hi] to acc[], one slot per fio bucket, splitting it at every
 * edge inside it by the share of integer values on each side.  *edge is the first edge above
 * the previous bin's values; bins arrive in increasing order.
 */
static void spread_bin(double *acc, unsigned *edge, uint64_t lo, uint64_t hi, uint64_t c)
{
	double per_value = (double)c / (double)(hi - lo + 1);
	uint64_t pos = lo;

	while (*edge < FIO_EDGE_NR && fio_edges[*edge] <= lo)
		(*edge)++;
	while (*edge < FIO_EDGE_NR && fio_edges[*edge] <= hi) {
		acc[*edge] += per_value * (double)(fio_edges[*edge] - pos);
		pos = fio_edges[(*edge)++];
	}
	acc[*edge] += per_value * (double)(hi - pos + 1);
}

void hist_fio_buckets(const struct hist *h, double ns[HIST_FIO_NS_NR],
		      double us[HIST_FIO_US_NR], double ms[HIST_FIO_MS_NR])
{
	double acc[FIO_EDGE_NR + 1] = { 0 };
	uint64_t total = hist_total(h);
	double scale = total ? 100.0 / (double)total : 0;
	unsigned edge = 0;

	for (unsigned i = 0; i < HIST_NR; i++) {
		if (h->count[i])
			spread_bin(acc, &edge, hist_bin_low(i), bin_nominal_high(i),
				   h->count[i]);
	}
	for (unsigned k = 0; k < HIST_FIO_NS_NR; k++)
		ns[k] = acc[k] * scale;
	for (unsigned k = 0; k < HIST_FIO_US_NR; k++)
		us[k] = acc[HIST_FIO_NS_NR + k] * scale;
	for (unsigned k = 0; k < HIST_FIO_MS_NR; k++)
		ms[k] = acc[HIST_FIO_NS_NR + HIST_FIO_US_NR + k] * scale;
}

/*
 * A histogram is mapped, not malloc'ed: a fresh mapping is zero without being written, so the
 * pages of bins never hit cost no memory (calloc clears reused heap memory, which wrote all
 * 38 KiB of each of a thousand clones' histograms).
 */
struct hist *hist_alloc(void)
{
	void *p = mmap(NULL, sizeof(struct hist), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void hist_free(struct hist *h)
{
	if (h)
		munmap(h, sizeof(*h));
}
