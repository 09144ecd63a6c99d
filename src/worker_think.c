// SPDX-License-Identifier: MIT
/* thinktime: the stalls between IOs, by count (thinktime_blocks) or by IO time (thinktime_iotime). */
#include <sys/prctl.h>
#include <time.h>

#include "worker_int.h"

#define THINK_NAP_NS 100000000ULL	/* longest single sleep of a thinktime stall */

/* Sleeps until end (or a stop), in naps short enough to answer interval snapshots. */
static uint64_t think_sleep(struct worker *w, uint64_t now, uint64_t end)
{
	while (now < end && !stopping(w)) {
		uint64_t left = end - now < THINK_NAP_NS ? end - now : THINK_NAP_NS;

		clock_nap(left);
		answer_snap(w);
		now = clock_ns();
	}
	return now;
}

/*
 * A thinktime stall, as fio's: the IOs in flight complete first, then the worker spins for
 * thinktime_spin and sleeps the rest of thinktime, neither past the deadline.  The stall is
 * in no IO's latency.  Returns 0 or -errno of the engine.
 */
int worker_think(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t count = think_count(w), now, end, spin_end, start;
	int ret = worker_commit(w);

	while (!ret && w->inflight)
		ret = worker_reap(w, w->inflight);
	if (ret)
		return ret;
	start = now = clock_ns();
	end = now + w->think.ns < w->deadline_ns ? now + w->think.ns : w->deadline_ns;
	spin_end = now + o->thinktime_spin < end ? now + o->thinktime_spin : end;
	while (now < spin_end && !stopping(w))
		now = clock_ns();
	w->stats.think_spin_ns += now - start;
	now = think_sleep(w, now, end);
	w->stats.think_stalls++;
	w->stats.think_ns += now - start;
	/* rate_ignore_thinktime: the schedule moves on by the stall, no catching up after it */
	for (unsigned d = 0; o->rate_ignore_thinktime && d < DDIR_NR; d++)
		w->rate.next[d] += now - start;
	w->think.last = count;
	if (w->think.io_at != UINT64_MAX)
		w->think.io_at = now + o->thinktime_iotime;
	w->last_done_ns = 0;
	w->last_ns = w->async ? now : 0;
	return 0;
}

/*
 * Arms thinktime at the start of the workload.  With thinktime_iotime and no thinktime_blocks of
 * its own, only the IO time calls for stalls (fio: the default of 1 would stall after every IO).
 */
void worker_think_start(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;

	w->think.ns = o->thinktime;
	w->think.blocks = o->thinktime_blocks;
	if (o->thinktime ||
	    w->rate.on) /* waits as long as asked: no 50 us of timer slack on each */
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	if (o->thinktime && o->thinktime_iotime) {
		w->think.io_at = now + o->thinktime_iotime;
		if (!job_opt_is_set(w->job, OPT_ID_thinktime_blocks))
			w->think.blocks = 0;
	}
}
