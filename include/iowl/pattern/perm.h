/* SPDX-License-Identifier: MIT */
/* Keyed O(1)-memory bijections of [0, n) (Feistel, cycle walking) and full-coverage walks (LCG). */
#ifndef IOWL_PATTERN_PERM_H
#define IOWL_PATTERN_PERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERM_ROUNDS 4
#define PERM_MAX_N  (1ULL << 63)

/*
 * A pseudo-random permutation of [0, n): a 4-round Feistel network over a domain D >= n,
 * with cycle walking (outputs >= n are fed back in), which keeps it a bijection of [0, n).
 * D is one of two shapes, chosen at init for speed:
 *  - a power of two 2^b (b >= 2) when it wastes at most 1/8 of itself: halves of ceil(b/2) and
 *    floor(b/2) bits combined with XOR, about 1.1 network passes per value;
 *  - otherwise a x b with a = ceil(sqrt(n)), b = ceil(n / a) ("mixed radix"): halves x / b and
 *    x % b combined with modular addition, D - n < a, so walking is rare (< 1/sqrt(n)) and a
 *    region just above a power of two does not pay up to 2 passes and a mispredicted branch.
 * No division on either path: x / b uses a precomputed reciprocal and one correction.
 */
struct perm {
	uint64_t n;
	uint64_t key[PERM_ROUNDS];
	bool mixed;	  /* a x b domain instead of 2^b */
	uint8_t lo_bits;  /* power of two: width of the low half */
	uint8_t lo_shift; /* 64 - lo_bits: keeps the top bits of a round's hash */
	uint8_t hi_shift; /* 64 - width of the high half */
	uint64_t lo_mask;
	uint64_t a, b;	/* mixed radix: x = hi * b + lo, hi < a, lo < b */
	uint64_t b_inv; /* floor((2^64 - 1) / b) */
};

/*
 * Builds the permutation of [0, n) that seed selects; different seeds give unrelated
 * permutations.  Returns 0, or -EINVAL when n is 0 or above PERM_MAX_N.
 */
int perm_init(struct perm *p, uint64_t n, uint64_t seed);

/* The round hash: splitmix64's finaliser on v + key. */
static inline uint64_t perm_hash(uint64_t v, uint64_t key)
{
	uint64_t t = (v + key) * 0xbf58476d1ce4e5b9ULL;

	t ^= t >> 31;
	return t * 0x94d049bb133111ebULL;
}

/* A hash of v below m, by multiply-high (Lemire's reduction, no division). */
static inline uint64_t perm_hash_below(uint64_t v, uint64_t key, uint64_t m)
{
	return (uint64_t)(((unsigned __int128)perm_hash(v, key) * m) >> 64);
}

/* (x + y) mod m for x, y < m. */
static inline uint64_t perm_add_mod(uint64_t x, uint64_t y, uint64_t m)
{
	x += y;
	return x >= m ? x - m : x;
}

/* (x - y) mod m for x, y < m. */
static inline uint64_t perm_sub_mod(uint64_t x, uint64_t y, uint64_t m)
{
	return x >= y ? x - y : x + (m - y);
}

/* Splits x < a * b into x / b and x % b. */
static inline void perm_split(const struct perm *p, uint64_t x, uint64_t *hi, uint64_t *lo)
{
	uint64_t q = (uint64_t)(((unsigned __int128)x * p->b_inv) >> 64);
	uint64_t r = x - q * p->b;

	if (r >= p->b) {
		r -= p->b;
		q++;
	}
	*hi = q;
	*lo = r;
}

/* One pass of the network over the domain. */
static inline uint64_t perm_encrypt(const struct perm *p, uint64_t x)
{
	uint64_t hi, lo;

	if (p->mixed) {
		perm_split(p, x, &hi, &lo);
		hi = perm_add_mod(hi, perm_hash_below(lo, p->key[0], p->a), p->a);
		lo = perm_add_mod(lo, perm_hash_below(hi, p->key[1], p->b), p->b);
		hi = perm_add_mod(hi, perm_hash_below(lo, p->key[2], p->a), p->a);
		lo = perm_add_mod(lo, perm_hash_below(hi, p->key[3], p->b), p->b);
		return hi * p->b + lo;
	}
	hi = x >> p->lo_bits;
	lo = x & p->lo_mask;
	hi ^= perm_hash(lo, p->key[0]) >> p->hi_shift;
	lo ^= perm_hash(hi, p->key[1]) >> p->lo_shift;
	hi ^= perm_hash(lo, p->key[2]) >> p->hi_shift;
	lo ^= perm_hash(hi, p->key[3]) >> p->lo_shift;
	return hi << p->lo_bits | lo;
}

/* Inverse of perm_encrypt(). */
static inline uint64_t perm_decrypt(const struct perm *p, uint64_t y)
{
	uint64_t hi, lo;

	if (p->mixed) {
		perm_split(p, y, &hi, &lo);
		lo = perm_sub_mod(lo, perm_hash_below(hi, p->key[3], p->b), p->b);
		hi = perm_sub_mod(hi, perm_hash_below(lo, p->key[2], p->a), p->a);
		lo = perm_sub_mod(lo, perm_hash_below(hi, p->key[1], p->b), p->b);
		hi = perm_sub_mod(hi, perm_hash_below(lo, p->key[0], p->a), p->a);
		return hi * p->b + lo;
	}
	hi = y >> p->lo_bits;
	lo = y & p->lo_mask;
	lo ^= perm_hash(hi, p->key[3]) >> p->lo_shift;
	hi ^= perm_hash(lo, p->key[2]) >> p->hi_shift;
	lo ^= perm_hash(hi, p->key[1]) >> p->lo_shift;
	hi ^= perm_hash(lo, p->key[0]) >> p->hi_shift;
	return hi << p->lo_bits | lo;
}

/* Returns the image of x (x < n) under the permutation; the result is < n. */
static inline uint64_t perm_apply(const struct perm *p, uint64_t x)
{
	do
		x = perm_encrypt(p, x);
	while (x >= p->n);
	return x;
}

/* Returns the x with perm_apply(p, x) == y (y < n). */
static inline uint64_t perm_invert(const struct perm *p, uint64_t y)
{
	do
		y = perm_decrypt(p, y);
	while (y >= p->n);
	return y;
}

/*
 * Full-coverage random order without a bitmap: each pass visits every block of [0, n) exactly
 * once in a pseudo-random order, and each pass uses a different order.
 *
 * A full-period linear congruential generator over the smallest power-of-two domain 2^w >= n
 * visits every w-bit state once per period; each state goes through a keyed bijection of the
 * w-bit domain (xorshift-multiply rounds) and values >= n are skipped.  Since the period holds
 * every value of [0, n) exactly once, a pass ends after n outputs.  It costs a multiply-add and
 * the mix per step and fewer than two steps per block (2^w < 2n): a fraction of the Feistel
 * permutation's cost, which only matters where random access to perm(x) is needed.
 */
struct cover {
	uint64_t n;
	uint64_t mask;		/* 2^w - 1 */
	uint64_t state;		/* the generator */
	uint64_t inc;		/* odd: which full-period sequence this pass walks */
	uint64_t k1, k2;	/* odd multipliers of the output mix */
	unsigned s1, s2;	/* xorshift amounts of the output mix */
	uint64_t left;		/* blocks of this pass still to come */
	uint64_t pass;		/* passes completed so far */
	uint64_t seed;
};

#define COVER_MUL 0x5851f42d4c957f2dULL	/* = 1 mod 4: full period mod any 2^w */

/* Starts pass 0 over [0, n).  Returns 0, or -EINVAL when n is 0 or above PERM_MAX_N. */
int cover_init(struct cover *c, uint64_t n, uint64_t seed);

/* Re-keys c for the next pass; called by cover_next() (out of line: once per pass). */
void cover_next_pass(struct cover *c);

/* One step of the generator, mixed: a value of [0, 2^w). */
static inline uint64_t cover_step(struct cover *c)
{
	uint64_t x;

	c->state = (c->state * COVER_MUL + c->inc) & c->mask;
	x = c->state;
	x ^= x >> c->s1;
	x = (x * c->k1) & c->mask;
	x ^= x >> c->s2;
	x = (x * c->k2) & c->mask;
	return x ^ (x >> c->s1);
}

/*
 * Returns the next block of the current pass.  When it was the last block of the pass, sets
 * *pass_done (when pass_done is not NULL; it is left alone otherwise) and the next call starts a
 * new pass in a different order.
 */
static inline uint64_t cover_next(struct cover *c, bool *pass_done)
{
	uint64_t block;

	do
		block = cover_step(c);
	while (block >= c->n);
	if (__builtin_expect(--c->left == 0, 0)) {
		cover_next_pass(c);
		if (pass_done)
			*pass_done = true;
	}
	return block;
}

#define COVER_BATCH 8

/*
 * Fills out[0..COVER_BATCH) with the next blocks of the pass, exactly as COVER_BATCH calls of
 * cover_next() would.  The skip of values >= n is a counter increment, not a branch, so a
 * batch costs no mispredictions however close n is to 2^w.
 */
static inline void cover_fill(struct cover *c, uint64_t *out)
{
	unsigned k = 0;

	if (c->left <= COVER_BATCH) {
		for (unsigned i = 0; i < COVER_BATCH; i++)
			out[i] = cover_next(c, NULL);
		return;
	}
	while (k < COVER_BATCH) {
		uint64_t y = cover_step(c);

		out[k] = y;
		k += y < c->n;
	}
	c->left -= COVER_BATCH;
}

#endif
