// SPDX-License-Identifier: MIT
/* Seeding of the per-thread PRNG streams. */
#include <endian.h>
#include <string.h>

#include "iowl/pattern/rng.h"

void rng_init(struct rng *r, uint64_t seed, uint64_t stream)
{
	/*
	 * Mixing seed and stream before running splitmix64 keeps neighbouring streams (clone 1 and
	 * clone 2, offsets and sizes) from starting at neighbouring splitmix64 states, which would
	 * give overlapping, shifted xoshiro states.
	 */
	uint64_t x = rng_mix64(rng_mix64(seed + 0x9e3779b97f4a7c15ULL) ^ stream);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&x);
	/* four consecutive splitmix64 outputs are never all zero (rng_mix64 is a bijection) */
}

void rng_fill(void *p, size_t n, uint64_t *x)
{
	unsigned char *b = p;
	uint64_t v = *x, w;

	for (size_t i = 0; i < n; i += sizeof(w)) {
		v ^= v << 13;
		v ^= v >> 7;
		v ^= v << 17;
		w = htole64(v);
		memcpy(b + i, &w, n - i < sizeof(w) ? n - i : sizeof(w));
	}
	*x = v;
}
