/* SPDX-License-Identifier: MIT */
/* Shared by run.c (prepare, collect, exec), run_phase.c (one phase's workers) and run_report.c (the results into reports). */
#ifndef IOWL_RUN_INT_H
#define IOWL_RUN_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "iowl/ranks.h"
#include "iowl/run.h"

struct disk_sample;
struct disk_set;
struct job_kv;
struct job_result;
struct results;
struct run_result;
struct target_plan;

/* run.c */

/*
 * True when the results can no longer be written (a failed write, a pipe whose reader went
 * away): the run then ends.  Sets run->out_errno.
 */
bool run_output_gone(struct iowl_run *run);

/* What the ranks act on of the run (ranks.h): its stop, why it ended, its jobs, its intervals. */
struct ranks_run run_ranks(struct iowl_run *run);

/* Clone clone of job's plan as run_prepare() made it, or NULL (a later phase plans again). */
struct target_plan *run_plan(const struct iowl_run *run, const struct job *job, unsigned clone);

/* run_phase.c */

/*
 * Runs phase phase: creates its workers (numbered from *number on), lays out, starts them
 * together with the other ranks, waits, and gathers them into res.  *io_error is set when a
 * worker saw an IO error; marks (2 x disks->n samples, or NULL) get the devices at its start
 * and end.  Returns 0 or -errno with why set.
 */
int run_phase(struct iowl_run *run, unsigned phase, unsigned *number, struct results *res,
	      bool *io_error, struct disk_set *disks, struct disk_sample *marks,
	      struct iowl_err *why);

/* Says why the unit did no IO: its own setup failure (error), or why it was not run. */
int run_unit_why(struct job_result *u, int error, bool not_run, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* run_report.c */

/* Says what the plan of a job's first clone rounded (block sizes, stream ranges) on info. */
void run_report_notes(FILE *info, const struct job *job, const struct target_plan *plan);

/* A unit for every clone (or merged group) that no phase collected: not run, and why. */
int run_add_not_run(const struct iowl_run *run, struct results *res, const char *why);

/* Puts the units of stats=0 jobs last, out of the results' count; returns the count of the rest. */
unsigned run_units_shown(struct results *res);

/* The reporting groups of the run's units into r->groups.  Returns 0 or -ENOMEM. */
int run_build_groups(const struct iowl_run *run, struct run_result *r);

/* Options written in [global] sections, for the JSON "global options" (*n of them). */
struct job_kv *run_global_kv(const struct iowl_run *run, unsigned *n);

/* Prints r to f in the run's formats (terse, JSON, normal: fio's order).  Returns 0 or -errno. */
int run_print_reports(const struct iowl_run *run, FILE *f, struct run_result *r);

#endif
