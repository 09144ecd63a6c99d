// SPDX-License-Identifier: MIT
/* "Did you mean": case-insensitive Damerau-Levenshtein (optimal string alignment) distance. */
#include <string.h>

#include "iowl/suggest.h"

static char suggest_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static size_t suggest_min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* Distance between a (la chars) and b (lb chars), both at most SUGGEST_MAX_LEN. */
static size_t suggest_distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t rows[3][SUGGEST_MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;
	size_t i, j, cost;

	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			cost = suggest_lower(a[i - 1]) != suggest_lower(b[j - 1]);
			cur[j] = suggest_min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && suggest_lower(a[i - 1]) == suggest_lower(b[j - 2]) &&
			    suggest_lower(a[i - 2]) == suggest_lower(b[j - 1]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

const char *suggest_closest(const char *word, const char *const *cands, size_t n)
{
	size_t lw = word ? strlen(word) : 0, lc, d, best_d, limit, i;
	const char *best = NULL;

	if (!word || lw > SUGGEST_MAX_LEN)
		return NULL;
	limit = lw / 3 > 2 ? lw / 3 : 2;
	best_d = limit + 1;
	for (i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		lc = strlen(cands[i]);
		if (lc > SUGGEST_MAX_LEN || (lc > lw ? lc - lw : lw - lc) >= best_d)
			continue;
		d = suggest_distance(word, lw, cands[i], lc);
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best;
}
