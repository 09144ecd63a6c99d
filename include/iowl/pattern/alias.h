/* SPDX-License-Identifier: MIT */
/* Walker/Vose alias tables: O(1) weighted choice of up to 256 entries, integer thresholds. */
#ifndef IOWL_PATTERN_ALIAS_H
#define IOWL_PATTERN_ALIAS_H

#include <stdint.h>

#include "iowl/pattern/rng.h"

#define ALIAS_MAX 256

/* One column: keep the column when the 32-bit fraction is below thresh, else take alias. */
struct alias_entry {
	uint32_t thresh;
	uint32_t alias;
};

/*
 * A table built once from weights and then read only; it may be shared between threads.
 * Each weight is quantised to a multiple of 2^-32 of one column (an error below 1e-9 of
 * the total); a zero weight is never picked.
 */
struct alias {
	uint32_t n;
	struct alias_entry e[ALIAS_MAX];
};

/*
 * Builds the table for weights[0..n-1] (any scale: percentages, byte counts, ...).
 * Returns 0, or -EINVAL when n is 0 or above ALIAS_MAX, a weight is negative, NaN or
 * infinite, or all weights are zero.
 */
int alias_init(struct alias *a, const double *weights, unsigned n);

/*
 * Splits the random number x into a column in [0, n), its high part times n, and the 32-bit
 * fraction that decides between the column and its alias (for tables that keep their own
 * copy of the entries, such as gen.c's block sizes).
 */
static inline uint32_t alias_column(uint64_t x, uint32_t n, uint32_t *frac)
{
	unsigned __int128 m = (unsigned __int128)x * n;

	*frac = (uint32_t)((uint64_t)m >> 32);
	return (uint32_t)(m >> 64);
}

/*
 * Returns an index in [0, n) with probability weights[i] / sum(weights): one 64-bit random
 * number, whose high part picks the column and whose fractional part decides between the
 * column and its alias.  No floating point and no division.
 */
static inline unsigned alias_pick(const struct alias *a, struct rng *r)
{
	uint32_t frac, col = alias_column(rng_next(r), a->n, &frac);
	const struct alias_entry *e = &a->e[col];
	/* a mask, not a branch: which way it goes is as random as the weights make it */
	uint32_t keep = -(uint32_t)(frac < e->thresh);

	return (col & keep) | (e->alias & ~keep);
}

#endif
