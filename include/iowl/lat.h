/* SPDX-License-Identifier: MIT */
/* Exact latency summary (count, min, max, sum, sum of squares) and fio's depth/batch buckets. */
#ifndef IOWL_LAT_H
#define IOWL_LAT_H

#include <stdint.h>

/*
 * Exact running summary of values in nanoseconds.  min is UINT64_MAX and max 0 while n is 0.
 * sum is 64-bit: it grows by about iodepth seconds per second of run time (Little's law), so
 * it wraps after 584 / iodepth years (iodepth summed over the jobs merged into it).  sumsq
 * cannot wrap first: the sum of squares never exceeds the square of the sum.
 */
struct lat_stat {
	uint64_t n, min, max, sum;
	unsigned __int128 sumsq;
};

/* Resets s to the empty summary. */
static inline void lat_init(struct lat_stat *s)
{
	s->n = 0;
	s->min = UINT64_MAX;
	s->max = 0;
	s->sum = 0;
	s->sumsq = 0;
}

/* Records one value.  Per-IO path: integer only, the min/max compile to cmovs. */
static inline void lat_add(struct lat_stat *s, uint64_t v)
{
	s->n++;
	s->sum += v;
	s->sumsq += (unsigned __int128)v * v;
	s->min = v < s->min ? v : s->min;
	s->max = v > s->max ? v : s->max;
}

/* Adds src into dst: counts and sums add, min and max combine. */
void lat_merge(struct lat_stat *dst, const struct lat_stat *src);

/*
 * Sets dst = a - b for interval deltas (a is the later snapshot, dst may alias a or b).
 * Only n, sum and sumsq are subtracted: the min and max of an interval cannot be derived
 * from two cumulative summaries, so a's are kept (an empty delta resets them to the empty
 * values).  Track interval extremes separately when they matter.
 */
void lat_sub(struct lat_stat *dst, const struct lat_stat *a, const struct lat_stat *b);

/* Returns the mean, 0 when n is 0. */
double lat_mean(const struct lat_stat *s);

/*
 * Returns the sample standard deviation (divisor n - 1, as fio), 0 when n < 2.  The sum of
 * squared deviations is computed exactly in 128-bit integers before the one division, so a
 * tiny spread around a large mean keeps its precision.
 */
double lat_stddev(const struct lat_stat *s);

/* Returns the minimum, 0 when n is 0 (as fio prints it). */
uint64_t lat_min(const struct lat_stat *s);

/*
 * Index (0..6) of fio's "IO depths" bucket for the number of IOs in flight, labelled
 * 1, 2, 4, 8, 16, 32, >=64.  As in fio's io_u_mark_depth() (and its HOWTO: "16= covers depths
 * from 16 to 31") a label is the lower bound: 1 -> "1", 2..3 -> "2", 4..7 -> "4", 8..15 -> "8",
 * 16..31 -> "16", 32..63 -> "32", 64 and up -> ">=64".  Depth 0 maps to bucket 0.
 */
static inline unsigned depth_bucket(unsigned d)
{
	unsigned b = 31U - (unsigned)__builtin_clz(d | 1U);

	return b < 6 ? b : 6;
}

/*
 * Index (0..6) of fio's "submit" / "complete" bucket for the number of IOs in one submit or
 * reap call, labelled 0, 4, 8, 16, 32, 64, >=64.  Here a label is the upper bound, as in fio's
 * __io_u_mark_map(): 0 -> "0", 1..4 -> "4", 5..8 -> "8", 9..16 -> "16", 17..32 -> "32",
 * 33..64 -> "64", 65 and up -> ">=64".
 */
static inline unsigned batch_bucket(unsigned n)
{
	/* ceil(log2(n)) for n >= 2 (1 for n = 1), then one bucket per power of two above 4. */
	unsigned c = 32U - (unsigned)__builtin_clz((n - 1U) | 1U);
	unsigned b = c > 2 ? c - 1 : 1;

	b = b < 6 ? b : 6;
	return n ? b : 0;
}

#endif
