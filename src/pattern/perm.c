// SPDX-License-Identifier: MIT
/* Keying and domain choice of the Feistel permutations, and pass changes of the coverage walk. */
#include <errno.h>
#include <math.h>

#include "iowl/pattern/perm.h"
#include "iowl/pattern/rng.h"

/* Smallest a with a * a >= n (n <= 2^63, so a <= 2^31.5 + 1). */
static uint64_t perm_ceil_sqrt(uint64_t n)
{
	uint64_t a = (uint64_t)sqrt((double)n);

	while (a > 0 && a * a >= n)
		a--;
	while (a * a < n)
		a++;
	return a;
}

int perm_init(struct perm *p, uint64_t n, uint64_t seed)
{
	uint64_t x = rng_mix64(seed ^ 0x7065726d5f6b6579ULL); /* "perm_key" */
	unsigned bits = 2, lo, i;

	if (n == 0 || n > PERM_MAX_N)
		return -EINVAL;
	while (bits < 63 && (1ULL << bits) < n)
		bits++;
	lo = bits / 2;
	p->n = n;
	p->lo_bits = lo;
	p->lo_mask = (1ULL << lo) - 1;
	p->lo_shift = 64 - lo;
	p->hi_shift = 64 - (bits - lo);
	/* a power of two that is more than 1/8 empty walks (and mispredicts) too often */
	p->mixed = (1ULL << bits) - n > (1ULL << bits) / 8;
	p->a = perm_ceil_sqrt(n);
	p->b = (n + p->a - 1) / p->a;
	p->b_inv = UINT64_MAX / p->b;
	for (i = 0; i < PERM_ROUNDS; i++)
		p->key[i] = rng_splitmix64(&x);
	return 0;
}

/* Keys pass number pass of c: a new increment and new mix multipliers, all odd. */
static void cover_key(struct cover *c)
{
	uint64_t x = rng_mix64(c->seed + 0x636f766572ULL) ^ rng_mix64(c->pass); /* "cover" */

	c->inc = (rng_splitmix64(&x) | 1) & c->mask;
	c->inc |= 1;
	c->k1 = rng_splitmix64(&x) | 1;
	c->k2 = rng_splitmix64(&x) | 1;
	c->left = c->n;
}

int cover_init(struct cover *c, uint64_t n, uint64_t seed)
{
	unsigned w = 0;

	if (!n || n > PERM_MAX_N)
		return -EINVAL;
	while (w < 64 && (1ULL << w) < n)
		w++;
	c->n = n;
	c->mask = w >= 64 ? UINT64_MAX : (1ULL << w) - 1;
	c->s1 = w / 2 ? w / 2 : 1;
	c->s2 = w / 3 + 1;
	c->pass = 0;
	c->seed = seed;
	c->state = rng_mix64(seed) & c->mask;
	cover_key(c);
	return 0;
}

void cover_next_pass(struct cover *c)
{
	c->pass++;
	cover_key(c);
}
