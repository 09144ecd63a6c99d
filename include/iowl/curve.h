/* SPDX-License-Identifier: MIT */
/* Rate curves (vdbench's iorate=curve): latency against throughput from a maximum-rate run down. */
#ifndef IOWL_CURVE_H
#define IOWL_CURVE_H

#include "iowl/err.h"
#include "iowl/run.h"

/*
 * Parses --curve's percentages of the maximum rate (NULL: vdbench's 10,50,70,80,90,100) into
 * o->curve.  Returns 0 or -EINVAL with err set.
 */
int curve_parse(const char *text, struct run_opts *o, struct iowl_err *err);

/*
 * Checks that the jobs can be run as a curve before any of it runs (also for --parse-only): no
 * job limits its own rate, and a point with rate_iops set builds.  Returns 0 or -errno with err
 * set.
 */
int curve_prepare(struct iowl_run *run, struct iowl_err *err);

/*
 * Runs the jobs at maximum rate, then at each percentage of the IOPS that run reached (as
 * rate_iops split over the clones and directions as the maximum run split them), and prints
 * throughput against latency from submission and from each IO's intended start, with the knee.
 * Returns the exit status: the worst of the runs.
 */
int curve_run(struct iowl_run *run);

#endif
