// SPDX-License-Identifier: MIT
/* The pace of a worker's IO: rate and rate_iops schedules, rate_min checks, max_latency and latency_target, a replayed log's delays. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "iowl/ddir.h"
#include "iowl/lattarget.h"
#include "worker_int.h"

#define RATE_SETTLE_NS 2000000000ULL /* fio's settling time before rate_min is checked */
#define RATE_POLL_NS 1000000ULL /* rate_min: how often a direction without IO yet is looked at */

/* True when direction d fell short of its minimum over the dt ns just ended: the job ends. */
static bool rate_short(struct worker *w, unsigned d, uint64_t dt)
{
	const struct job_opts *o = &w->job->o;
	const struct dir_stats *ds = &w->stats.dir[d];
	uint64_t done = o->rate_min[d] ? ds->bytes - w->rate.cycle_bytes[d] :
					 ds->ios - w->rate.cycle_ios[d];
	uint64_t got = (uint64_t)((unsigned __int128)done * NSEC_PER_SEC / dt);

	if (got >= (o->rate_min[d] ? o->rate_min[d] : o->rate_iops_min[d]))
		return false;
	w->rate.short_dir = d + 1;
	w->rate.short_got = got;
	w->rate.short_ns = dt;
	w->no_more = w->error_stop = true;
	w->rate.check_ns = UINT64_MAX;
	w->wlog_next = UINT64_MAX;
	return true;
}

/*
 * rate_min / rate_iops_min as fio checks them: nothing in ramp_time or the first RATE_SETTLE_NS
 * after it; then each direction that has done IO is measured over every rate_cycle, and the
 * first that falls short of its minimum ends the job with an error.
 */
void worker_rate_check(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	uint64_t next = UINT64_MAX;

	if (w->verifying) {
		w->rate.check_ns = UINT64_MAX;
		return;
	}
	if (w->ramp_end_ns || now - w->start_ns < RATE_SETTLE_NS) {
		w->rate.check_ns = (w->ramp_end_ns ? w->ramp_end_ns : w->start_ns) + RATE_SETTLE_NS;
		return;
	}
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *ds = &w->stats.dir[d];
		uint64_t dt = now - w->rate.cycle_ns[d];

		if (!o->rate_min[d] && !o->rate_iops_min[d])
			continue;
		if (!ds->ios) { /* measured from its first IO on */
			next = now + RATE_POLL_NS < next ? now + RATE_POLL_NS : next;
			continue;
		}
		if (w->rate.cycle_ns[d] && dt < o->rate_cycle) {
			next = w->rate.cycle_ns[d] + o->rate_cycle < next ?
				       w->rate.cycle_ns[d] + o->rate_cycle :
				       next;
			continue;
		}
		if (w->rate.cycle_ns[d] && rate_short(w, d, dt))
			return;
		w->rate.cycle_ns[d] = now;
		w->rate.cycle_ios[d] = ds->ios;
		w->rate.cycle_bytes[d] = ds->bytes;
		next = now + o->rate_cycle < next ? now + o->rate_cycle : next;
	}
	w->rate.check_ns = next;
}

/* The gap to the next IO of direction d under the job's rate: fixed, or exponential (poisson). */
static uint64_t rate_gap(struct worker *w, unsigned d, uint32_t len)
{
	const struct job_opts *o = &w->job->o;
	double mean = o->rate_iops[d] ? 1e9 / (double)o->rate_iops[d] :
					1e9 * (double)len / (double)o->rate[d];

	if (o->rate_process == RATE_POISSON) { /* exponential gaps with the same mean */
		double u = (double)((w->issued_ios * 0x9e3779b97f4a7c15ULL + w->number) >> 11) *
			   0x1.0p-53;

		return (uint64_t)(-log(1.0 - u) * mean);
	}
	return (uint64_t)mean;
}

/*
 * Waits until due (or the deadline, a stop or an error), reaping completions as they come.
 * Returns 0 with *now the clock after the wait, 1 when the IO is not to be issued, or -errno.
 */
static int wait_until(struct worker *w, uint64_t due, uint64_t *now)
{
	uint64_t end = due < w->deadline_ns ? due : w->deadline_ns, t = *now;
	int ret = 0;

	while (!ret && t < end && !stopping(w) && !w->error_stop) {
		uint64_t left = end - t;

		answer_snap(w);
		if (w->inflight) { /* a completion ends the wait as it comes */
			ret = worker_reap_wait(w, 1, left);
		} else { /* a nap to the due time (timer slack is 1 ns under a rate); a late
			  * wake-up delays this IO only: the schedule stays on its own clock */
			clock_nap(left < REAP_SLICE_NS ? left : REAP_SLICE_NS);
		}
		t = clock_ns();
	}
	*now = t;
	if (ret)
		return ret;
	return t >= due && !stopping(w) && !w->error_stop ? 0 : 1;
}

/*
 * Waits until the IO's turn in its direction's schedule, and remembers when that was meant to
 * be: latency measured from there shows a stalled device's backlog, which latency from
 * submission hides (coordinated omission).  IOs in flight are reaped as they complete during
 * the wait (fio drains them before it sleeps), so their latency ends when they do.  The wait
 * ends at the deadline, a stop or an error, and then the IO is not issued.  Returns 0 with *now
 * the clock after the wait, 1 when the IO is not to be issued, or -errno of the engine.
 */
static int rate_wait(struct worker *w, struct io_u *io, uint64_t *now)
{
	unsigned d = io->op;
	uint64_t due;

	if (d > DDIR_TRIM || (!w->job->o.rate[d] && !w->job->o.rate_iops[d]))
		return 0;
	due = w->rate.next[d];
	w->rate.next[d] = due + rate_gap(w, d, io->len);
	io->sched_ns = due;
	if (due <= *now)
		return 0;
	return wait_until(w, due, now);
}

/*
 * A replayed IO's delay, as fio's iolog_delay(): counted from the last issue; a wait that
 * overslept its delay takes the excess off the next one.
 */
static int replay_wait(struct worker *w, uint64_t *now)
{
	uint64_t delay = w->replay_delay_ns, since = *now - w->replay_last, t0 = *now;
	int ret;

	if (delay < w->replay_late) {
		w->replay_late = 0;
		return 0;
	}
	delay -= w->replay_late;
	if (delay <= since)
		return 0;
	ret = wait_until(w, t0 + delay - since, now);
	w->replay_late = *now - t0 > w->replay_delay_ns ? *now - t0 - w->replay_delay_ns : 0;
	return ret;
}

/* The waits before an IO: its turn under the job's rate, and a replayed IO's delay. */
int worker_pace(struct worker *w, struct io_u *io, uint64_t *now)
{
	int ret = w->rate.on && io->op <= DDIR_TRIM ? rate_wait(w, io, now) : 0;

	if (!ret && w->replay && w->replay_delay_ns)
		ret = replay_wait(w, now);
	return ret;
}

/* The error of a job that fell short of rate_min or rate_iops_min.  Returns -EIO. */
int worker_rate_report(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	unsigned d = w->rate.short_dir - 1;
	unsigned long long ms = (unsigned long long)(w->rate.short_ns / 1000000);

	if (o->rate_min[d])
		err_set(&w->err,
			"job '%s': %s bandwidth %llu bytes/s over the last %llu ms is below rate_min=%llu bytes/s",
			o->name, ddir_name(d), (unsigned long long)w->rate.short_got, ms,
			(unsigned long long)o->rate_min[d]);
	else
		err_set(&w->err,
			"job '%s': %s rate %llu IOPS over the last %llu ms is below rate_iops_min=%llu",
			o->name, ddir_name(d), (unsigned long long)w->rate.short_got, ms,
			(unsigned long long)o->rate_iops_min[d]);
	return -EIO;
}

/*
 * latency_target's change of depth waits for the IOs in flight (fio's quiesce).  Returns true
 * while it waits; once the queue is empty, the depth found starts its final window with new
 * statistics, as fio's reset_all_stats().
 */
bool worker_lt_quiesced(struct worker *w)
{
	uint64_t now;

	if (w->inflight)
		return true;
	w->lt_drain = false;
	if (w->lt_final) {
		w->lt_final = false;
		now = clock_ns();
		stats_reset(&w->stats);
		w->start_ns = now;
		memset(w->sample_ios, 0, sizeof(w->sample_ios));
		memset(w->sample_bytes, 0, sizeof(w->sample_bytes));
		w->sample_start_ns = now;
		w->next_sample_ns = now + SAMPLE_NS;
		w->lt->window_start = now;
		w->lt->window_ios = w->done_ios;
	}
	return false;
}

/* The latency of a completed IO against max_latency and latency_target (fio's checks). */
void worker_lat_limits(struct worker *w, const struct io_u *io, uint64_t lat, uint64_t now)
{
	uint64_t max = w->job->o.max_latency[io->op];
	enum lt_action a = LT_NONE;
	int l;

	if (max && lat > max) {
		if (!w->error_stop)
			iowl_warn("job '%s': latency of %llu us exceeds max_latency (%llu us)",
				  w->job->o.name, (unsigned long long)(lat / 1000),
				  (unsigned long long)(max / 1000));
		worker_record_error(w, io, ETIMEDOUT);
	}
	if (w->act.n && !w->ramp_end_ns && w->m_lat && (l = act_add(&w->act, lat, now)) >= 0) {
		if (!w->error_stop) /* fio: its per-IO hook fails the IO (error 1) */
			iowl_warn("job '%s': act: %.2f%% of hour %u's IOs over %u ms exceeds ACT's %.1f%%",
				  w->job->o.name,
				  100.0 * (double)w->act.slice[w->act.cur - 1].over[l] /
					  (double)w->act.slice[w->act.cur - 1].ios,
				  w->act.cur, act_limit_ms[l], act_permille[l] / 10.0);
		worker_record_error(w, io, EPERM);
	}
	if (!w->lt)
		return;
	a = lt_io(w->lt, lat, now, w->done_ios);
	if (a == LT_NONE)
		a = lt_check(w->lt, now, w->done_ios);
	w->qd = w->lt->qd;
	if (a == LT_FATAL) {
		if (!w->error_stop)
			iowl_warn("job '%s': latency of %llu us at depth 1 exceeds latency_target (%llu us)",
				  w->job->o.name, (unsigned long long)(lat / 1000),
				  (unsigned long long)(w->lt->target_ns / 1000));
		worker_record_error(w, io, ETIMEDOUT);
	} else if (a == LT_QUIESCE) {
		w->lt_drain = true;
	} else if (a == LT_FINAL) {
		w->lt_final = true;
	} else if (a == LT_DONE) {
		w->no_more = true;
	}
	w->stats.latency_depth = w->qd;
}

/* Arms the rate schedules and the rate_min checks at the start of the workload. */
void worker_rate_start(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		w->rate.next[d] = now;
		w->rate.on = w->rate.on || o->rate[d] || o->rate_iops[d];
		if (o->rate_min[d] || o->rate_iops_min[d])
			w->rate.check_ns = now + o->ramp_time + RATE_SETTLE_NS;
	}
}
