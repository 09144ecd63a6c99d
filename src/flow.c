// SPDX-License-Identifier: MIT
/* fio's flow control between the jobs of a phase: the flows' shared counts (flow.h). */
#include <stddef.h>

#include "iowl/flow.h"

struct flow *flow_join(struct flow *v, unsigned *n, unsigned id, unsigned weight)
{
	struct flow *f = NULL;

	for (unsigned i = 0; i < *n && !f; i++)
		if (v[i].id == id)
			f = &v[i];
	if (!f) {
		f = &v[(*n)++];
		f->id = id;
		f->count = 1; /* as fio's: the first IO of a job is never held */
		f->weight = 0;
	}
	f->weight += weight;
	return f;
}

void flow_leave(struct flow *f, uint64_t mine, unsigned weight)
{
	__atomic_sub_fetch(&f->count, mine, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&f->weight, weight, __ATOMIC_RELAXED);
}
