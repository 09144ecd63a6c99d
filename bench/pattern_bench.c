// SPDX-License-Identifier: MIT
/* Micro-benchmark of the access-pattern generators: nanoseconds per sample, one line each. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "iowl/pattern/alias.h"
#include "iowl/pattern/dist.h"
#include "iowl/pattern/perm.h"
#include "iowl/pattern/rng.h"

#define SAMPLES 100000000ULL
#define NBLOCKS (1ULL << 28) /* 1 TiB of 4 KiB blocks */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void report(const char *what, double t0, uint64_t sink)
{
	printf("%-32s %6.2f ns/sample  (sink %016" PRIx64 ")\n", what, (now_ns() - t0) / SAMPLES,
	       sink);
}

static void bench_dist(const char *spec, const char *label, int contiguous)
{
	struct dist *d = malloc(sizeof(*d));
	char why[DIST_WHY_LEN];
	struct dist_spec s;
	uint64_t i, sink = 0;
	struct rng r;
	double t0;

	if (!d || dist_spec_parse(spec, &s, why)) {
		fprintf(stderr, "pattern_bench: '%s': %s\n", spec, d ? why : "out of memory");
		exit(1);
	}
	s.contiguous = contiguous;
	if (dist_init(d, &s, NBLOCKS, 4096, 1, why)) {
		fprintf(stderr, "pattern_bench: '%s': %s\n", spec, why);
		exit(1);
	}
	rng_init(&r, 1, 0);
	t0 = now_ns();
	for (i = 0; i < SAMPLES; i++)
		sink += dist_next(d, &r);
	report(label, t0, sink);
	free(d);
}

static void bench_rng(void)
{
	uint64_t i, sink = 0;
	struct rng r;
	double t0;

	rng_init(&r, 1, 0);
	t0 = now_ns();
	for (i = 0; i < SAMPLES; i++)
		sink += rng_next(&r);
	report("rng_next", t0, sink);
}

static void bench_cover(void)
{
	uint64_t i, sink = 0;
	struct cover c;
	double t0;

	cover_init(&c, NBLOCKS + 12345, 1); /* not a power of two: cycle walking included */
	t0 = now_ns();
	for (i = 0; i < SAMPLES; i++)
		sink += cover_next(&c, NULL);
	report("cover (2^28 + 12345 blocks)", t0, sink);
}

static void bench_alias(void)
{
	static const double snia[12] = {2, 2, 27, 31, 5, 5, 1, 1, 2, 20, 2, 2};
	uint64_t i, sink = 0;
	struct alias a;
	struct rng r;
	double t0;

	alias_init(&a, snia, 12);
	rng_init(&r, 1, 0);
	t0 = now_ns();
	for (i = 0; i < SAMPLES; i++)
		sink += alias_pick(&a, &r);
	report("alias pick (12 entries)", t0, sink);
}

int main(void)
{
	bench_rng();
	bench_dist("random", "uniform (2^28 blocks)", 0);
	bench_cover();
	bench_dist("zipf:1.2", "zipf 1.2 (2^28, scattered)", 0);
	bench_dist("zipf:1.2", "zipf 1.2 (2^28, contiguous)", 1);
	bench_dist("zipf:0.99", "zipf 0.99 (2^28, scattered)", 0);
	bench_dist("pareto:0.8", "pareto 0.8 (2^28, scattered)", 0);
	bench_dist("normal:5", "normal 5 (2^28, scattered)", 0);
	bench_dist("zoned:60/10:30/20:10/70", "zoned 3 zones", 0);
	bench_dist("hotband", "hotband (1 TiB band)", 0);
	bench_alias();
	return 0;
}
