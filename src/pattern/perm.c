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

static uint64_t cover_key(uint64_t seed, uint64_t pass)
{
	return rng_mix64(seed + 0x636f766572ULL) ^ rng_mix64(pass); /* "cover" */
}

int cover_init(struct cover *c, uint64_t n, uint64_t seed)
{
	c->next = 0;
	c->pass = 0;
	c->seed = seed;
	return perm_init(&c->perm, n, cover_key(seed, 0));
}

void cover_next_pass(struct cover *c)
{
	c->next = 0;
	c->pass++;
	perm_init(&c->perm, c->perm.n, cover_key(c->seed, c->pass));
}
