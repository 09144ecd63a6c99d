// SPDX-License-Identifier: MIT
/* Distinct blocks touched (include/iowl/cachefill.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/cachefill.h"
#include "iowl/job.h"
#include "iowl/target.h"

uint32_t cfill_unit(const struct job *job)
{
	uint32_t unit = UINT32_MAX;

	for (unsigned d = 0; d < DDIR_NR; d++)
		if (job_does_dir(job, d) && job->min_bs[d] < unit)
			unit = job->min_bs[d];
	return unit;
}

int cfill_init(struct cfill *f, const struct target_plan *plan, uint32_t unit, uint64_t exact_max)
{
	uint64_t next = 0;

	memset(f, 0, sizeof(*f));
	f->unit = unit ? unit : 1;
	f->shift = (f->unit & (f->unit - 1)) ? -1 : __builtin_ctz(f->unit);
	f->base = calloc(plan->nfiles ? plan->nfiles : 1, sizeof(*f->base));
	if (!f->base)
		return -ENOMEM;
	for (unsigned i = 0; i < plan->nfiles; i++) {
		/* a region's blocks lie from start / unit; one a block short still has its first */
		uint64_t first = plan->files[i].start / f->unit;
		uint64_t last =
			(plan->files[i].start + plan->files[i].size + f->unit - 1) / f->unit;

		f->base[i] = (int64_t)next - (int64_t)first;
		next += last > first ? last - first : 0;
	}
	f->blocks = next;
	if (f->blocks <= exact_max)
		f->bits = calloc((f->blocks + 63) / 64 + 1, sizeof(uint64_t));
	else
		f->hll = calloc(CFILL_HLL_M, 1);
	if (!f->bits && !f->hll) {
		cfill_release(f);
		return -ENOMEM;
	}
	return 0;
}

double cfill_hll_estimate(const uint8_t *r)
{
	double m = CFILL_HLL_M, sum = 0, e;
	unsigned zeros = 0;

	for (unsigned i = 0; i < CFILL_HLL_M; i++) {
		sum += ldexp(1.0, -r[i]);
		zeros += !r[i];
	}
	e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
	if (e <= 2.5 * m && zeros)
		e = m * log(m / zeros);
	return e;
}

void cfill_publish(const struct cfill *f, struct cfill_stats *s)
{
	double e;

	s->ios = f->ios;
	s->blocks = f->blocks;
	s->unit = f->unit;
	s->estimated = !f->bits;
	if (f->bits) {
		s->distinct = f->distinct;
		return;
	}
	e = cfill_hll_estimate(f->hll);
	s->distinct = e > (double)f->blocks ? f->blocks : (uint64_t)llround(e);
}

double cfill_expected(uint64_t n, uint64_t blocks)
{
	if (!blocks || !n)
		return 0;
	if (blocks == 1)
		return 1;
	return -expm1((double)n * log1p(-1.0 / (double)blocks));
}

void cfill_release(struct cfill *f)
{
	free(f->bits);
	free(f->hll);
	free(f->base);
	memset(f, 0, sizeof(*f));
}
