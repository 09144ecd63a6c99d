/* SPDX-License-Identifier: MIT */
/*
 * fio's --idle-prof=system|percpu|calibrate: how idle the CPUs were during the run, measured as
 * fio's idletime.c does.  One thread per online CPU, pinned there at SCHED_IDLE priority (it
 * runs only when nothing else would), first times a unit of work (fio's: a page written byte by
 * byte, the fastest of 10 runs of 1000 units), then repeats units while the run lasts.  A CPU's
 * idleness is the units done times the unit's time over the time measured (at most 100 %); the
 * system's is the CPUs' mean.
 */
#ifndef IOWL_IDLEPROF_H
#define IOWL_IDLEPROF_H

#include <stdio.h>

#include "iowl/err.h"

struct json_t;

enum idleprof_mode { IDLEPROF_NONE, IDLEPROF_SYSTEM, IDLEPROF_PERCPU, IDLEPROF_CALIBRATE };

/* The figures for the report: per CPU idleness (0..1), the unit's mean and stddev (us). */
struct idleprof_result {
	enum idleprof_mode mode;
	unsigned ncpus;
	double *idle;		/* ncpus entries; -1 where the CPU could not be measured */
	double system;		/* the mean, 0..1 */
	double unit_mean, unit_stddev;
};

struct idleprof;

/* --idle-prof's value.  Returns the mode, or -EINVAL with err set. */
int idleprof_parse(const char *v, struct iowl_err *err);

/* Starts the threads and waits for their calibration.  Returns 0 or -errno with err set. */
int idleprof_start(struct idleprof **out, enum idleprof_mode mode, struct iowl_err *err);

/* The measured time starts now (the run's first IO). */
void idleprof_go(struct idleprof *ip);

/* Stops and joins the threads, and fills res (free it with idleprof_result_free()). */
void idleprof_stop(struct idleprof *ip, struct idleprof_result *res);

void idleprof_result_free(struct idleprof_result *res);

/* fio's "CPU idleness:" block of the normal output. */
void idleprof_text(FILE *f, const struct idleprof_result *res);

/* fio's "cpu_idleness" object: system, cpu-N (percpu mode), unit_mean, unit_stddev. */
struct json_t *idleprof_json(const struct idleprof_result *res);

#endif
