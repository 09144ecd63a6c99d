/* SPDX-License-Identifier: MIT */
/* Steady-state detection with fio's ss= semantics: a rolling window of IOPS, bandwidth, latency. */
#ifndef IOWL_STEADY_H
#define IOWL_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest window steady_init() accepts: twelve days of 1 s samples. */
#define STEADY_MAX_SAMPLES	(1U << 20)

/* Buffer size for steady_format() and steady_format_criterion(), as fio's ss_buf. */
#define STEADY_FMT_LEN		64

/* The quantity a criterion watches. */
enum steady_metric {
	STEADY_IOPS,	/* IOs completed per second */
	STEADY_BW,	/* bytes per second */
	STEADY_LAT,	/* mean completion latency of the interval, ns */
	STEADY_METRIC_NR,
};

/*
 * A parsed ss= value.  limit is in the metric's unit (IOPS, bytes/s, ns; per sample for a slope)
 * or, with pct, in percent of the window's mean.
 */
struct steady_spec {
	enum steady_metric metric;
	bool slope;	/* least-squares slope instead of the largest deviation from the mean */
	bool pct;	/* limit is a percentage of the window's mean */
	double limit;
};

/*
 * Parses fio's "<criterion>:<limit>[%]": criterion one of iops, iops_slope, bw, bw_slope, lat,
 * lat_slope (lower case: fio matches them with strncmp), limit a non-negative decimal number
 * with no unit.  fio 3.33 knows only the iops and bw criteria; lat and lat_slope are fio's
 * 2025 additions.  Unlike fio, a bw limit takes no size suffix (10m) and a lat limit no time
 * suffix: both are plain numbers of bytes/s and ns.  Returns 0, or -EINVAL with a lowercase
 * message in err (errlen bytes, may be 0) saying what is wrong and what would be right;
 * out is written only on success.
 */
int steady_parse(const char *spec, struct steady_spec *out, char *err, size_t errlen);

/*
 * Formats spec as fio's JSON "ss" string, e.g. "iops_slope:0.100000%": the metric name,
 * "_slope", ':', the limit with "%f" after a cast to float (as fio does, so 0.1 prints
 * 0.100000 and 123456789 prints 123456792.000000), then '%' for a percentage.  Returns what
 * snprintf() returns; STEADY_FMT_LEN bytes always suffice.
 */
int steady_format(const struct steady_spec *spec, char *buf, size_t len);

/* The name fio gives a metric in the ss string: "iops", "bw" or "lat". */
const char *steady_metric_name(enum steady_metric m);

/*
 * Rolling window of the last n samples, one per ss_interval, of all three metrics (the report
 * prints every series, whichever one the criterion watches).  Fill with steady_init(), feed
 * with steady_add(), read the fields below and steady_samples(); release with steady_release().
 * The result fields are valid once evaluated is true.
 */
struct steady {
	struct steady_spec spec;
	unsigned n;		/* window length in samples, ss_dur / ss_interval */
	unsigned next;		/* ring slot the next sample goes to */
	uint64_t added;		/* samples recorded (stops counting once attained) */
	uint64_t *ring[STEADY_METRIC_NR];	/* n samples each, owned */
	bool evaluated;		/* the window has been full at least once */
	bool attained;		/* |criterion| < limit on some full window; sticky */
	double criterion;	/* what was compared with the limit, signed for a slope */
	double deviation;	/* largest |x_i - mean| of the watched metric, its unit */
	double slope;		/* least-squares slope of the watched metric, its unit per sample */
};

/*
 * Initialises st for spec (copied) and a window of n samples (2 <= n <= STEADY_MAX_SAMPLES).
 * Returns 0, -EINVAL for a bad n, or -ENOMEM; on failure nothing needs releasing.
 */
int steady_init(struct steady *st, const struct steady_spec *spec, unsigned n);

/* Frees the rings; st may be released twice, or after a failed init if zeroed first. */
void steady_release(struct steady *st);

/*
 * Records one interval's IOPS, bandwidth (bytes/s) and mean latency (ns) and, once the
 * window holds n samples, evaluates the criterion over the window as fio's steadystate.c
 * does: the deviation is max |x_i - mean| (x 100 / mean with '%'), the slope the least-squares
 * slope with x = 0..n-1 oldest first (x 100 / mean with '%'), and the criterion holds when
 * |criterion| < limit.  deviation and slope are both computed, whatever the criterion (fio's
 * JSON carries only the one its criterion uses and 0.0 for the other).  A percentage of a
 * zero mean (an all-zero window) is +infinity: never attained, as fio's NaN never is.
 * Everything is exact in 128-bit integers up to the final division.  Returns attained; once
 * attained, further samples are ignored so that the window stays the one that attained (fio
 * ends the job there).  O(n) per sample.
 */
bool steady_add(struct steady *st, uint64_t iops, uint64_t bw_bytes_per_s, uint64_t lat_mean_ns);

/*
 * Copies the window's samples of metric m into out[], oldest first, and returns how many
 * (min(added, n)).  fio prints n values always, zeros standing for samples not yet taken,
 * after the real ones; pad with zeros to st->n for that.  fio's keys are data.iops[],
 * data.bw[] and, for a lat criterion, data.lat_ns[].
 */
unsigned steady_samples(const struct steady *st, enum steady_metric m, uint64_t *out);

/* Returns the exact mean of the window's samples of metric m, 0 when there are none. */
double steady_mean(const struct steady *st, enum steady_metric m);

/*
 * Returns fio's integer window mean of metric m (data.iops_mean, bw_mean, lat_mean): the sum
 * of the samples divided by n, rounded down, samples not yet taken counting as zero.
 */
uint64_t steady_mean_fio(const struct steady *st, enum steady_metric m);

/*
 * Formats the criterion as fio's JSON "criterion" string: "%f" of the criterion cast to float,
 * then '%' for a percentage ("8.333333%").  Returns what snprintf() returns.
 */
int steady_format_criterion(const struct steady *st, char *buf, size_t len);

#endif
