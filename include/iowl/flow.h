/* SPDX-License-Identifier: MIT */
/*
 * fio's flow control (flow, flow_id, flow_sleep): the jobs of a phase that share a flow_id keep
 * their IO counts in the ratio of their flow weights.  A job issues an IO only while its share of
 * the flow's count is not above its share of the flow's weight; each IO adds one to both counts.
 */
#ifndef IOWL_FLOW_H
#define IOWL_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#define FLOW_MAX_WEIGHT 1000 /* fio's limit on flow= */

struct flow {
	unsigned id;
	uint64_t count;	 /* IOs of the flow's jobs, plus one (fio's start); atomic */
	uint64_t weight; /* the flow weights of the jobs still in it; atomic */
};

/* Finds flow id in v[0..*n) or adds it (v has room for one more), and adds weight to it. */
struct flow *flow_join(struct flow *v, unsigned *n, unsigned id, unsigned weight);

/* True while a job with this weight and mine IOs of the flow must wait (fio's test). */
static inline bool flow_over(struct flow *f, uint64_t mine, unsigned weight)
{
	uint64_t all = __atomic_load_n(&f->count, __ATOMIC_RELAXED);
	uint64_t w = __atomic_load_n(&f->weight, __ATOMIC_RELAXED);

	/* mine / all > weight / w, without division */
	return (unsigned __int128)mine * w > (unsigned __int128)weight * all;
}

/* Counts one IO of the job. */
static inline void flow_count(struct flow *f, uint64_t *mine)
{
	__atomic_add_fetch(&f->count, 1, __ATOMIC_RELAXED);
	++*mine;
}

/* The job leaves the flow: its IOs and its weight no longer count. */
void flow_leave(struct flow *f, uint64_t mine, unsigned weight);

#endif
