// SPDX-License-Identifier: MIT
/* Construction of alias tables by Vose's method in exact integer arithmetic. */
#include <errno.h>
#include <math.h>

#include "iowl/pattern/alias.h"

#define ALIAS_COL (1ULL << 32) /* capacity of one column */

/* Scales weights so they sum to exactly n columns.  Returns 0 or -EINVAL. */
static int alias_scale(const double *w, unsigned n, uint64_t *s)
{
	double total = 0.0;
	uint64_t sum = 0;
	unsigned i, big = 0;

	for (i = 0; i < n; i++) {
		if (!isfinite(w[i]) || w[i] < 0.0)
			return -EINVAL;
		total += w[i];
	}
	if (!(total > 0.0) || !isfinite(total))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		s[i] = (uint64_t)(w[i] / total * (double)n * (double)ALIAS_COL);
		sum += s[i];
		if (w[i] > w[big])
			big = i;
	}
	/* rounding left (or, at worst, overshot) a few units: settle them on the largest weight */
	s[big] += (uint64_t)n * ALIAS_COL - sum;
	return 0;
}

int alias_init(struct alias *a, const double *weights, unsigned n)
{
	uint64_t s[ALIAS_MAX];
	uint16_t small[ALIAS_MAX], large[ALIAS_MAX];
	unsigned ns = 0, nl = 0, i;

	if (n == 0 || n > ALIAS_MAX || alias_scale(weights, n, s))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		a->e[i].thresh = 0;
		a->e[i].alias = i;
		if (s[i] < ALIAS_COL)
			small[ns++] = i;
		else
			large[nl++] = i;
	}
	/*
	 * The remaining weights always total exactly (columns left) * ALIAS_COL, so when one list
	 * runs dry every column left in the other is exactly full and keeps itself as alias.
	 */
	while (ns && nl) {
		unsigned l = small[--ns], g = large[--nl];

		a->e[l].thresh = (uint32_t)s[l];
		a->e[l].alias = g;
		s[g] -= ALIAS_COL - s[l];
		if (s[g] < ALIAS_COL)
			small[ns++] = g;
		else
			large[nl++] = g;
	}
	a->n = n;
	return 0;
}
