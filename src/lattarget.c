// SPDX-License-Identifier: MIT
/* fio's latency limits: max_latency per direction, and latency_target's search for the deepest queue that keeps its latency. */
#include <errno.h>
#include <stdio.h>

#include "iowl/clock.h"
#include "iowl/job_opts.h"
#include "iowl/lattarget.h"
#include "iowl/value.h"

int lt_parse_percentile(double *out, const char *v, char *why)
{
	double p;

	if (val_parse_double(v, &p, why))
		return -EINVAL;
	if (!(p > 0 && p <= 100))
		return snprintf(why, VAL_WHY_LEN, "must be above 0 and at most 100"), -EINVAL;
	*out = p;
	return 0;
}

static int one_max_latency(const char *elem, unsigned dir, void *ctx, char *why)
{
	return val_parse_time_ns(elem, NSEC_PER_USEC, &((uint64_t *)ctx)[dir], why);
}

int lt_parse_max_latency(uint64_t max[DDIR_NR], const char *v, char *why)
{
	return val_parse_per_dir(v, one_max_latency, max, NULL, why);
}

static void new_window(struct lat_target *lt, uint64_t now, uint64_t ios)
{
	lt->window_start = now;
	lt->window_ios = ios;
	lt->failed = 0;
}

void lt_init(struct lat_target *lt, const struct job_opts *o, unsigned iodepth, uint64_t now,
	     uint64_t ios)
{
	*lt = (struct lat_target){
		.target_ns = o->latency_target,
		.window_ns = o->latency_window,
		.pct = o->latency_percentile,
		.run = o->latency_run,
		.max = iodepth,
		.qd = 1,
		.qd_low = 1,
		.qd_high = iodepth,
	};
	new_window(lt, now, ios);
}

/* A window, or at 100 % a single IO, over the target: halve towards the last good depth. */
static enum lt_action failed(struct lat_target *lt, uint64_t now, uint64_t ios)
{
	if (lt->qd == 1)
		return LT_DONE; /* nothing lower to try */
	lt->qd_high = lt->qd;
	if (lt->qd == lt->qd_low)
		lt->qd_low--;
	lt->qd = (lt->qd + lt->qd_low) / 2;
	lt->stable = 0;
	new_window(lt, now, ios);
	return LT_QUIESCE;
}

enum lt_action lt_io(struct lat_target *lt, uint64_t lat_ns, uint64_t now, uint64_t ios)
{
	if (lat_ns <= lt->target_ns)
		return LT_NONE;
	if (lt->pct < 100.0) {
		lt->failed++;
		return LT_NONE;
	}
	return failed(lt, now, ios) == LT_DONE ? LT_FATAL : LT_QUIESCE;
}

/* A window that kept the target: up (doubling until the first failure, then bisecting). */
static enum lt_action success(struct lat_target *lt, uint64_t now, uint64_t ios)
{
	unsigned qd = lt->qd;
	enum lt_action act = LT_NONE;

	lt->qd_low = lt->qd;
	/* one below the depth that failed, three times: try that one again (fio's heuristic) */
	if (lt->qd + 1 == lt->qd_high && ++lt->stable >= 3) {
		lt->qd_high++;
		lt->stable = 0;
	}
	if (lt->qd_high != lt->max)
		lt->qd = (lt->qd + lt->qd_high) / 2;
	else
		lt->qd *= 2;
	if (lt->qd > lt->max)
		lt->qd = lt->max;
	if (!lt->run && lt->qd == qd) {
		act = lt->end_run ? LT_DONE : LT_FINAL;
		lt->end_run = true;
	}
	new_window(lt, now, ios);
	return act;
}

enum lt_action lt_check(struct lat_target *lt, uint64_t now, uint64_t ios)
{
	uint64_t n = ios - lt->window_ios;
	double ok;

	if (now - lt->window_start < lt->window_ns)
		return LT_NONE;
	/* as fio: a window without IOs counts as failed */
	ok = n ? 100.0 * (double)(n - lt->failed) / (double)n : 0;
	if (ok >= lt->pct)
		return success(lt, now, ios);
	failed(lt, now, ios); /* at depth 1 it stays there */
	return LT_QUIESCE;
}
