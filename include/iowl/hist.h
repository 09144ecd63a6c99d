/* SPDX-License-Identifier: MIT */
/* Log-linear latency histogram in nanoseconds: O(1) record, 0.4 % error, fio-style percentiles. */
#ifndef IOWL_HIST_H
#define IOWL_HIST_H

#include <stdint.h>

/*
 * Bin layout (HDR-like, fio's scheme with 7 sub-bucket bits instead of 6):
 *  - values 0..255 get one exact bin each (index = value);
 *  - a value v >= 256 with most significant bit msb (8..HIST_MAX_MSB) falls in group
 *    e + 1 (e = msb - 7) of 128 equal bins of width 2^e:
 *    index = (e + 1) * 128 + ((v >> e) & 127);
 *  - values >= 2^(HIST_MAX_MSB + 1) (about 4.9 hours) are clamped into the last bin; the
 *    exact maximum is kept by struct lat_stat, and percentiles are clamped to it.
 * The representative value of a bin is its midpoint, so the relative error is at most
 * half a bin width over the bin's lowest value: 2^(e-1) / 2^(e+7) = 1/256 (0.39 %).
 */
#define HIST_SUB_BITS	7
#define HIST_SUB_NR	(1U << HIST_SUB_BITS)		/* 128 bins per group */
#define HIST_MAX_MSB	43				/* last tracked value 2^44 - 1 ns */
#define HIST_GROUPS	(HIST_MAX_MSB - HIST_SUB_BITS + 2)	/* 38 */
#define HIST_NR		(HIST_GROUPS * HIST_SUB_NR)	/* 4864 bins, 38 KiB */

/* fio's fixed latency buckets (the "lat (nsec/usec/msec)" lines): 10 + 10 + 12. */
#define HIST_FIO_NS_NR	10
#define HIST_FIO_US_NR	10
#define HIST_FIO_MS_NR	12

/* One histogram: plain counters, zero-initialise to empty (memset or = { 0 }). */
struct hist {
	uint64_t count[HIST_NR];
};

/*
 * Returns the bin of value v (nanoseconds).  Branch-free: v | 255 makes the shift e zero
 * below 256, where (e << 7) + (v >> e) is v itself; above, v >> e lies in 128..255, which
 * folds the "+ 1 group" of the formula into the sub-bucket.  The clamp compiles to a cmov.
 */
static inline unsigned hist_index(uint64_t v)
{
	unsigned e = 56U - (unsigned)__builtin_clzll(v | 255U);
	unsigned i = (e << HIST_SUB_BITS) + (unsigned)(v >> e);

	return i < HIST_NR ? i : HIST_NR - 1;
}

/* Records one value in h.  Per-IO path: no calls, no division, no floating point. */
static inline void hist_add(struct hist *h, uint64_t v)
{
	h->count[hist_index(v)]++;
}

/* Returns the smallest value that lands in bin i (i < HIST_NR). */
uint64_t hist_bin_low(unsigned i);

/*
 * Returns the largest value that lands in bin i, inclusive.  The last bin also takes every
 * clamped value, so hist_bin_high(HIST_NR - 1) is UINT64_MAX.
 */
uint64_t hist_bin_high(unsigned i);

/*
 * Returns the representative value of bin i: low + width / 2, as fio's plat_idx_to_val (the
 * value itself for exact bins).  For the last bin this is the midpoint of its nominal width,
 * not of the clamped range.  This is the key of the JSON+ "bins" object.
 */
uint64_t hist_bin_mid(unsigned i);

/* Adds every count of src to dst (group_reporting, per-thread to per-job). */
void hist_merge(struct hist *dst, const struct hist *src);

/* A zeroed histogram whose unhit bins take no memory, or NULL; hist_free() releases it. */
struct hist *hist_alloc(void);
void hist_free(struct hist *h);

/* dst = src, writing only the bins that differ (unwritten pages of dst stay unwritten). */
void hist_copy(struct hist *dst, const struct hist *src);

/* Zeroes h, writing only the bins that are not zero. */
void hist_clear(struct hist *h);

/*
 * Sets dst = a - b bin by bin, for interval deltas (a is the later snapshot).  Any of the
 * three may alias.  A bin where b exceeds a (a torn snapshot) gives 0, not a wrapped count.
 */
void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b);

/* Returns the number of values recorded in h. */
uint64_t hist_total(const struct hist *h);

/*
 * Computes n percentiles of h as fio does: walk the bins until the running count reaches the
 * rank ceil(p / 100 * total), report that bin's representative value.  Unlike fio, the value
 * is then clamped to [min, max], the exact extremes kept beside the histogram, so a percentile
 * never exceeds the maximum (fio issue #1984); and the first and last ranks report min and
 * max themselves when they lie in the bin found, so p100 equals the max (fio prints the bin
 * midpoint).  min and max should bound the same values (for an interval delta, the
 * cumulative extremes are loose but safe).  p is taken to 6 decimal places (the precision
 * fio prints) and the rank is computed in integers, so 99.9 % of 1000 values is rank 999
 * exactly; p <= 0 is treated as the smallest value, p > 100 as 100.  pct[] need not be
 * sorted.  out[] receives n values; an empty histogram gives zeros.
 */
void hist_percentiles(const struct hist *h, uint64_t min, uint64_t max, const double *pct,
		      unsigned n, uint64_t *out);

/*
 * Fills fio's fixed latency buckets, in percent of hist_total(h) (all zero when empty):
 *   ns[10]: < 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 ns
 *   us[10]: < 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 us
 *   ms[12]: < 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 ms, then >= 2000 ms
 * Each bucket holds the values below its edge and at or above the previous edge (0 for the
 * first ns bucket), which is what fio's io_u_mark_lat_*() switches do: "4" us is
 * [2000, 4000) ns and ">=2000" includes 2000 ms.  A bin whose value range straddles an edge
 * is split in proportion to the integer values it covers on each side, i.e. its values are
 * assumed uniform within the bin; bins below 256 ns are exact, so only edges from 750 ns up
 * are ever split.  fio floors a non-zero bucket at 0.01 % when printing; that is left to the
 * report.
 */
void hist_fio_buckets(const struct hist *h, double ns[HIST_FIO_NS_NR],
		      double us[HIST_FIO_US_NR], double ms[HIST_FIO_MS_NR]);

#endif
