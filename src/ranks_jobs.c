// SPDX-License-Identifier: MIT
/* Which jobs this rank runs: --rank-jobs=RANKS[:JOB,...] and --sweep ranks=K (ranks.h). */
#include <stdlib.h>
#include <string.h>

#include "iowl/cluster.h"
#include "iowl/interval.h"
#include "iowl/job.h"
#include "iowl/ranks.h"
#include "ranks_int.h"

/* ranks_limit(): the ranks that run the jobs, 0: all */
static unsigned limit;

/* Parses a rank list (0-3,6) into set (size entries).  Returns 0 or -1. */
static int rank_list(const char *s, size_t len, bool *set, unsigned size, unsigned *beyond)
{
	const char *p = s, *end = s + len;

	if (!len)
		return -1;
	while (p < end) {
		char *e;
		unsigned long a = strtoul(p, &e, 10), b = a;

		if (e == p || *p == '-' || *p == '+')
			return -1;
		if (e < end && *e == '-') {
			const char *q = e + 1;

			b = strtoul(q, &e, 10);
			if (e == q || *q == '-' || *q == '+' || b < a)
				return -1;
		}
		if (e < end && *e != ',')
			return -1;
		if (e > end || b > 1000000)
			return -1;
		for (unsigned long r = a; r <= b; r++) {
			if (r < size)
				set[r] = true;
			else if (r + 1 > *beyond)
				*beyond = (unsigned)r + 1;
		}
		p = e < end ? e + 1 : e;
		if (e < end && p == end)
			return -1; /* a trailing comma */
	}
	return 0;
}

void ranks_limit(unsigned n)
{
	limit = n;
}

int ranks_filter(const struct ranks_run *rr, char *const *spec, unsigned nspec,
		 struct iowl_err *err)
{
	unsigned size = cluster_size(), me = cluster_rank();
	bool *named = calloc(rr->njobs ? rr->njobs : 1, sizeof(*named));
	bool *here = calloc(rr->njobs ? rr->njobs : 1, sizeof(*here));
	bool *set = calloc(size, sizeof(*set));
	int ret = 0;

	if (!named || !here || !set)
		ret = err_set(err, "out of memory");
	for (unsigned i = 0; !ret && i < nspec; i++) {
		const char *v = spec[i], *colon = strchr(v, ':');
		size_t rl = colon ? (size_t)(colon - v) : strlen(v);
		unsigned beyond = 0;

		memset(set, 0, size * sizeof(*set));
		if (rank_list(v, rl, set, size, &beyond)) {
			ret = err_set(err,
				      "--rank-jobs=%s: give ranks as a list of numbers and ranges before the jobs (--rank-jobs=0-3,6:jobA,jobB)",
				      v);
			break;
		}
		if (beyond) {
			ret = err_set(err,
				      "--rank-jobs=%s: rank %u is beyond this run's %u rank%s (0 to %u)",
				      v, beyond - 1, size, size == 1 ? "" : "s", size - 1);
			break;
		}
		if (!colon) { /* every job */
			for (unsigned j = 0; j < rr->njobs; j++) {
				named[j] = true;
				here[j] = here[j] || set[me];
			}
			continue;
		}
		for (const char *p = colon + 1; !ret;) {
			size_t n = strcspn(p, ",");
			bool found = false;

			for (unsigned j = 0; j < rr->njobs; j++) {
				if (strlen(rr->jobs[j].o.name) != n ||
				    memcmp(rr->jobs[j].o.name, p, n))
					continue;
				found = true;
				named[j] = true;
				here[j] = here[j] || set[me];
			}
			if (!found)
				ret = err_set(err, "--rank-jobs=%s: no job is named '%.*s'%s", v,
					      (int)n, p, n ? "" : " (write RANKS:JOB,JOB)");
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	for (unsigned j = 0; !ret && j < rr->njobs; j++)
		rr->jobs[j].off_rank = (named[j] && !here[j]) || (limit && me >= limit);
	free(named);
	free(here);
	free(set);
	return ret;
}
