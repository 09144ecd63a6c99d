// SPDX-License-Identifier: MIT
/* LRU hit-ratio curves from stack distances, exact or SHARDS-sampled (include/iowl/lru.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/cachefill.h"
#include "iowl/lru.h"

#define SHARDS_MOD (1ULL << 24)

int lru_init(struct lru *l, uint64_t blocks, bool exact)
{
	memset(l, 0, sizeof(*l));
	l->blocks = blocks;
	exact = exact || blocks <= LRU_EXACT_BLOCKS;
	l->rate = exact ? 1.0 : LRU_SHARDS_RATE;
	l->threshold = exact ? SHARDS_MOD : (uint64_t)(LRU_SHARDS_RATE * SHARDS_MOD);
	l->mask = 1023;
	l->key = calloc(l->mask + 1, sizeof(*l->key));
	l->last = calloc(l->mask + 1, sizeof(*l->last));
	l->cap = 1024;
	l->tree = calloc(l->cap + 1, sizeof(*l->tree));
	if (exact)
		l->dist = calloc(blocks + 1, sizeof(*l->dist));
	else
		l->h = calloc(1, sizeof(*l->h));
	if (!l->key || !l->last || !l->tree || (!l->dist && !l->h)) {
		lru_release(l);
		return -ENOMEM;
	}
	return 0;
}

static void tree_add(uint32_t *tree, uint64_t cap, uint64_t i, int v)
{
	for (i++; i <= cap; i += i & (~i + 1))
		tree[i] += (uint32_t)v;
}

static uint64_t tree_sum(const uint32_t *tree, uint64_t i)	/* positions 0..i-1 */
{
	uint64_t s = 0;

	for (; i; i -= i & (~i + 1))
		s += tree[i];
	return s;
}

/* Doubles the tree, rebuilding it from the keys' last access times. */
static int tree_grow(struct lru *l)
{
	uint64_t cap = 2 * l->cap;
	uint32_t *t = calloc(cap + 1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (uint64_t i = 0; i <= l->mask; i++)
		if (l->key[i])
			tree_add(t, cap, l->last[i], 1);
	free(l->tree);
	l->tree = t;
	l->cap = cap;
	return 0;
}

static int map_grow(struct lru *l)
{
	uint64_t mask = 2 * l->mask + 1;
	uint64_t *k = calloc(mask + 1, sizeof(*k)), *v = calloc(mask + 1, sizeof(*v));

	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i <= l->mask; i++) {
		uint64_t j;

		if (!l->key[i])
			continue;
		for (j = cfill_mix(l->key[i]) & mask; k[j]; j = (j + 1) & mask)
			;
		k[j] = l->key[i];
		v[j] = l->last[i];
	}
	free(l->key);
	free(l->last);
	l->key = k;
	l->last = v;
	l->mask = mask;
	return 0;
}

int lru_access(struct lru *l, uint64_t key)
{
	uint64_t k = key + 1, h = cfill_mix(k), i;

	if (h % SHARDS_MOD >= l->threshold)
		return 0;
	if (l->t == l->cap && tree_grow(l))
		return -ENOMEM;
	if (2 * (l->nkeys + 1) > l->mask + 1 && map_grow(l))
		return -ENOMEM;
	for (i = h & l->mask; l->key[i] && l->key[i] != k; i = (i + 1) & l->mask)
		;
	l->accesses++;
	if (!l->key[i]) {
		l->key[i] = k;
		l->nkeys++;
		l->cold++;
	} else {
		uint64_t d = tree_sum(l->tree, l->t) - tree_sum(l->tree, l->last[i] + 1);

		tree_add(l->tree, l->cap, l->last[i], -1);
		if (l->dist)
			l->dist[d < l->blocks ? d : l->blocks]++;
		else
			hist_add(l->h, (uint64_t)((double)d / l->rate));
	}
	l->last[i] = l->t;
	tree_add(l->tree, l->cap, l->t, 1);
	l->t++;
	return 0;
}

double lru_hit_ratio(const struct lru *l, uint64_t c)
{
	uint64_t hits = 0;

	if (!l->accesses)
		return 0;
	if (l->dist) {
		for (uint64_t d = 0; d < c && d <= l->blocks; d++)
			hits += l->dist[d];
	} else {
		/* a bin counts when its middle lies below c (bins are 0.4 % wide) */
		for (unsigned b = 0; b < HIST_NR && hist_bin_mid(b) < c; b++)
			hits += l->h->count[b];
	}
	return (double)hits / (double)l->accesses;
}

void lru_release(struct lru *l)
{
	free(l->key);
	free(l->last);
	free(l->tree);
	free(l->dist);
	free(l->h);
	memset(l, 0, sizeof(*l));
}
