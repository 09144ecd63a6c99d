// SPDX-License-Identifier: MIT
/* flow=: a clone's waits for its share of its flow (flow.h), fio's flow_threshold_exceeded(). */
#include <sched.h>
#include <time.h>

#include "iowl/flow.h"
#include "worker_int.h"

/*
 * Waits while the clone is ahead of its share of the flow, then counts its next IO.  With
 * flow_sleep the IOs in flight complete first and the retries are that far apart, as fio's;
 * without, the retries follow at once (yielding the CPU, where fio spins), nothing reaped
 * meanwhile, as fio's.  Returns 0, 1 at the deadline or a stop (no_more set), or -errno.
 */
int worker_flow_wait(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	int ret = 0;

	while (flow_over(w->flow, w->flow_mine, o->flow)) {
		if (stopping(w) || clock_ns() >= w->deadline_ns)
			return w->no_more = true, 1;
		answer_snap(w);
		if (o->flow_sleep) {
			ret = worker_commit(w);
			while (!ret && w->inflight)
				ret = worker_reap(w, w->inflight);
			if (ret)
				return ret;
			clock_nap(o->flow_sleep);
		} else {
			sched_yield();
		}
		w->last_ns = 0;
	}
	flow_count(w->flow, &w->flow_mine);
	return 0;
}

/* The clone's IO is over: the flow's other jobs go on without it. */
void worker_flow_leave(struct worker *w)
{
	if (w->flow)
		flow_leave(w->flow, w->flow_mine, w->job->o.flow);
	w->flow = NULL;
}
