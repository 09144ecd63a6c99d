/* SPDX-License-Identifier: MIT */
/* The status line on stderr: elapsed, ETA, current IOPS and bandwidth, refreshed every second. */
#ifndef IOWL_PROGRESS_H
#define IOWL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/ddir.h"
#include "iowl/job.h"
#include "iowl/worker.h"

/* --eta: when the status line is shown. */
enum eta_mode {
	ETA_AUTO = 0,
	ETA_ALWAYS,
	ETA_NEVER,
};

struct progress {
	bool on;
	bool printed;
	uint64_t next_ns;
	uint64_t last_ns;
	uint64_t last_ios[DDIR_NR], last_bytes[DDIR_NR];
	uint64_t planned_ns;		/* longest startdelay + ramp + runtime, 0: unknown */
	uint64_t interval_ns;		/* --eta-interval (default 1 s) */
	uint64_t newline_ns, newline_at; /* --eta-newline: a new line this often; 0: never */
};

/*
 * True when eta_mode asks for progress on stderr: always, or (auto) when stderr is a terminal.
 * The status line and a sweep's or curve's "point i/n" lines follow it, so that a successful
 * run under a script writes nothing to stderr.
 */
bool progress_wanted(unsigned eta_mode);

/*
 * Turns the line on for eta (enum eta_mode; auto: only when stderr is a terminal), refreshed
 * every eta_interval (0: a second) and starting a new line every eta_newline (0: never).
 */
void progress_init(struct progress *p, unsigned eta, uint64_t eta_interval, uint64_t eta_newline,
		   const struct job *jobs, unsigned njobs);

/* Prints the line when a second has passed since the last one. */
void progress_update(struct progress *p, const struct worker *const *w, unsigned n,
		     uint64_t start_ns);

/* Ends the line so the results start on a fresh one. */
void progress_end(struct progress *p);

#endif
