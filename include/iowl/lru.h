/* SPDX-License-Identifier: MIT */
/*
 * The hit-ratio curve of an LRU cache of any size for a stream of block accesses (--analyze),
 * from stack distances (Mattson): an access hits an LRU cache of C blocks when fewer than C
 * other distinct blocks were touched since the block's previous access.  Distances are counted
 * exactly (a Fenwick tree over access times: O(log n) per access) when the region has at most
 * LRU_EXACT_BLOCKS blocks; above, SHARDS (Waldspurger et al., FAST '15) keeps only the blocks
 * whose hash falls under a threshold, a fixed rate R (LRU_SHARDS_RATE), and scales their
 * distances by 1 / R.
 */
#ifndef IOWL_LRU_H
#define IOWL_LRU_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/hist.h"

#define LRU_EXACT_BLOCKS (1ULL << 20)
#define LRU_SHARDS_RATE 0.01

struct lru {
	double rate;			/* sampling rate: 1 exact, else SHARDS' R */
	uint64_t threshold;		/* a key is sampled when its hash mod 2^24 is below it */
	uint64_t *key, *last;		/* open addressing: block + 1 (0: empty) -> last access time */
	uint64_t mask, nkeys;
	uint32_t *tree;			/* Fenwick tree over access times: 1 at each key's last access */
	uint64_t cap, t;		/* its size, accesses sampled so far */
	uint64_t *dist;			/* exact: accesses by distance (0..blocks) */
	uint64_t blocks;
	struct hist *h;			/* SHARDS: scaled distances */
	uint64_t accesses, cold;	/* sampled accesses, first accesses among them */
};

/* Sets up l for a region of blocks blocks; exact forces exact counting.  Returns 0 or -ENOMEM. */
int lru_init(struct lru *l, uint64_t blocks, bool exact);

/* One access to block key.  Returns 0 or -ENOMEM. */
int lru_access(struct lru *l, uint64_t key);

/* The share of the sampled accesses that hit an LRU cache of c blocks. */
double lru_hit_ratio(const struct lru *l, uint64_t c);

void lru_release(struct lru *l);

#endif
