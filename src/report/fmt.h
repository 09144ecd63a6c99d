/* SPDX-License-Identifier: MIT */
/* Number formatting and derived figures shared by the text and JSON reports, by fio's rules. */
#ifndef IOWL_REPORT_FMT_H
#define IOWL_REPORT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/ddir.h"
#include "iowl/hist.h"
#include "iowl/job.h"
#include "iowl/lat.h"
#include "iowl/report.h"
#include "iowl/stats.h"

#define FMT_NUM_LEN	48	/* room for any fmt_num() result */
#define FMT_SIG_FIGS	4	/* fio's default sig_figs */
#define FMT_LAT_DIGITS	6	/* digits of min/max in the "clat (nsec): min=" lines */

/* What fmt_num() appends after the unit prefix. */
enum fmt_unit {
	FMT_UNIT_NONE,	   /* IOPS=2896k */
	FMT_UNIT_BYTE,	   /* io=11.1GiB */
	FMT_UNIT_BYTE_SEC, /* BW=11.1GiB/s */
	FMT_UNIT_BIT_SEC,  /* BW=88.8Gibit/s (unit_base=1) */
};

/*
 * Formats num as fio's num2str() with base 1: divides by 1000 (or 1024 when pow2) until at
 * most maxlen digits are left, then spends the digits still free, less one for the point, on
 * decimals.  With no room for two decimal places the remainder rounds the integer (half up);
 * otherwise the fraction is rounded to the free places and a fraction that rounds to 1
 * carries into the integer, so 46 KiB + 984 B prints "47.0KiB" and 99.96 KiB "100.0KiB".
 * Prefixes are k, M, G, T, P (Ki, Mi, ... with pow2).  Returns buf (len >= FMT_NUM_LEN).
 */
char *fmt_num(char *buf, size_t len, uint64_t num, unsigned maxlen, bool pow2, enum fmt_unit unit);

/* A unit for latencies printed in nanoseconds scaled down. */
struct fmt_scale {
	const char *unit;	/* "nsec", "usec" or "msec" */
	uint64_t div;		/* 1, 1000 or 1000000 */
	unsigned steps;		/* 0, 1 or 2 divisions by 1000 */
};

/*
 * Unit of a "clat (usec): min=, max=, avg=, stdev=" line, as fio's nsec_to_msec() /
 * nsec_to_usec(): msec when min > 2 ms, max > 99.999999 ms and stdev > 1 ms; else usec when
 * min > 2 us, max > 99.999 us and stdev > 1 us; else nsec.
 */
void fmt_lat_scale(uint64_t min, uint64_t max, double dev, struct fmt_scale *sc);

/*
 * Unit of a percentile block from the smallest and largest percentile shown, as fio: msec when
 * minv > 2 ms and maxv > 99.999999 ms, usec when minv > 2 us and maxv > 99.999 us, else nsec.
 */
void fmt_pct_scale(uint64_t minv, uint64_t maxv, struct fmt_scale *sc);

/* Divides v by 1000 steps times, rounding up each time (fio's percentile values). */
uint64_t fmt_ceil_scale(uint64_t v, unsigned steps);

/* Returns the number of decimal digits of v (1 for 0). */
unsigned fmt_digits(uint64_t v);

/*
 * Fills out (JOB_PCT_MAX entries) with the job's percentile list sorted ascending, or fio's
 * default list when the job has none.  Returns the number of entries.
 */
unsigned fmt_pct_list(const struct job *job, double *out);

/*
 * Returns the decimals to print percentiles with: the fewest (0..6) that show every value of
 * the list exactly, so the default list prints with 2 and 99.999 with 3 (fio counts the digits
 * the user typed, which is the same unless they typed trailing zeros).
 */
unsigned fmt_pct_precision(const double *pct, unsigned n);

/* Returns a runtime in milliseconds as fio records it: whole microseconds, rounded up to ms. */
uint64_t fmt_runtime_ms(uint64_t ns);

/* Returns count per second over ns, rounded down; 0 when ns is 0. */
uint64_t fmt_per_sec(uint64_t count, uint64_t ns);

/* The headline figures of one direction of a unit. */
struct fmt_dir {
	bool active;		/* did IO in this direction over a measured time */
	uint64_t runtime_ms;	/* 0 when not active */
	uint64_t bw;		/* bytes/s */
	double iops;
};

/* Computes the figures of direction d (0..2) of unit u from its bytes, IOs and runtime_ns. */
void fmt_dir_figures(const struct job_result *u, unsigned d, struct fmt_dir *out);

/*
 * Returns a unit's mean bandwidth (bw_kib: samples in KiB/s) as a percent of the group's
 * aggregate agg_bw (bytes/s), capped at 100; 100 when the aggregate is 1 KiB/s or less, 0 when
 * there are no samples (fio's bw_agg and "per=").
 */
double fmt_bw_agg(const struct lat_stat *bw_kib, uint64_t agg_bw);

/*
 * Converts fio's IO depth / submit / complete counters to percent of their sum; a bucket that
 * is not empty shows at least 0.1, as fio does.  All zero when the sum is 0.
 */
void fmt_dist(const uint64_t *map, double *out);

/*
 * Fills fio's fixed latency buckets (percent) from the completion-latency histograms of all
 * three directions merged; a unit with no clat histogram uses its total-latency ones, and one
 * with neither gets zeros.  A bucket that is not empty shows at least 0.01.  Returns 0 or
 * -ENOMEM.
 */
int fmt_lat_buckets(const struct worker_stats *st, double *ns, double *us, double *ms);

/*
 * Returns CPU time cpu_ns as a percent of the unit's run time.  Like fio, the run time of a
 * merged unit is the sum over its workers (estimated as runtime_ns times nworkers).
 */
double fmt_cpu_pct(uint64_t cpu_ns, const struct job_result *u);

/* Returns the runtime in ms that fio's "job_runtime" shows: truncated, summed over workers. */
uint64_t fmt_job_runtime_ms(const struct job_result *u);

/* Returns 1000 or 1024: a job's kb_base, 1024 when unset. */
unsigned fmt_kb_base(unsigned kb_base);

/* Returns the group result with id, or NULL. */
const struct group_result *fmt_group(const struct run_result *r, unsigned id);

/* Returns the IO depth the unit ran at, at least 1 (fio's latency_depth). */
unsigned fmt_iodepth(const struct job_result *u);

/* The figures of one worker-ramp step (text.c): IOPS, MB/s, mean and p99 clat in ns. */
void report_step(const struct step_stats *s, double *iops, double *mbps, double *mean_ns,
		 uint64_t *p99_ns);

#endif
