/* SPDX-License-Identifier: MIT */
/* A fast per-thread 64-bit PRNG (xoshiro256**) with reproducible, independent streams. */
#ifndef IOWL_PATTERN_RNG_H
#define IOWL_PATTERN_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Generator state.  One per thread and per stream (offsets, direction, block size, ...); never
 * shared between threads.  Seed it with rng_init(); an all-zero state is invalid.
 */
struct rng {
	uint64_t s[4];
};

/* Probability 1 for rng_chance(): thresholds are 53-bit fixed-point numbers. */
#define RNG_CHANCE_ONE (1ULL << 53)

/*
 * Seeds r from (seed, stream) through splitmix64, so that every stream of every job clone gets
 * its own reproducible sequence: the same pair always gives the same sequence and different
 * pairs give unrelated ones.  Pack the clone number and the stream kind with rng_stream_id().
 */
void rng_init(struct rng *r, uint64_t seed, uint64_t stream);

/* splitmix64's output function: a bijective 64-bit mixer (also used to derive keys). */
static inline uint64_t rng_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One step of splitmix64 on *x: advances it and returns the next output. */
static inline uint64_t rng_splitmix64(uint64_t *x)
{
	*x += 0x9e3779b97f4a7c15ULL;
	return rng_mix64(*x);
}

/*
 * Fills n bytes at p with xorshift64 (13, 7, 17) words from *x, little-endian, the last one cut
 * short, and leaves *x at the last word: cheap data that is not zeros and not one repeated
 * block, and that any CPU rebuilds from the same start.  *x must not be 0.
 */
void rng_fill(void *p, size_t n, uint64_t *x);

/* A stream id for rng_init() from a job clone number and a stream kind chosen by the caller. */
static inline uint64_t rng_stream_id(uint32_t clone, uint32_t kind)
{
	return (uint64_t)clone << 32 | kind;
}

/* Rotates x left by k bits (0 < k < 64). */
static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* Returns the next 64 uniformly distributed bits (xoshiro256**, Blackman and Vigna). */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return out;
}

/*
 * Returns a uniform integer in [0, n), without bias, by Lemire's nearly divisionless method:
 * one multiply per call, and a division only in the rare case that must reject.  n == 0
 * returns 0.
 */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (__builtin_expect(lo < n, 0)) {
		uint64_t t = -n % n;

		while (lo < t) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Returns a uniform double in [0, 1) with 53 random bits. */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * Converts a probability p in [0, 1] (clamped; NaN counts as 0) into a threshold for
 * rng_chance(), once at init.  Resolution is 2^-53.
 */
static inline uint64_t rng_chance_threshold(double p)
{
	if (!(p > 0.0))
		return 0;
	if (p >= 1.0)
		return RNG_CHANCE_ONE;
	return (uint64_t)(p * (double)RNG_CHANCE_ONE + 0.5);
}

/* Like rng_chance_threshold() for a percentage in [0, 100] (rwmixread=, percentage_random=). */
static inline uint64_t rng_percent_threshold(double pct)
{
	return rng_chance_threshold(pct / 100.0);
}

/* Returns true with the probability that threshold encodes: 0 never, RNG_CHANCE_ONE always. */
static inline bool rng_chance(struct rng *r, uint64_t threshold)
{
	return (rng_next(r) >> 11) < threshold;
}

#endif
