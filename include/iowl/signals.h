/* SPDX-License-Identifier: MIT */
/* SIGINT and SIGTERM: the one piece of process-wide state, which a run, a layout and a metrics linger look at. */
#ifndef IOWL_SIGNALS_H
#define IOWL_SIGNALS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Catches SIGINT and SIGTERM for a run: the first sets *stop (the workers poll it); a second,
 * later than the same stop, asks for the report at once; a third exits (128 + the signal).
 */
void run_signals_install(int *stop);

/* The run is over: a signal no longer touches its stop flag. */
void run_signals_release(void);

/*
 * The signal (SIGINT, SIGTERM) seen since the first run started, 0: none.  Between runs, where
 * iowl waits (vdbench's pause=), a signal ends the wait.
 */
int run_signal_seen(void);

/* When that signal came (clock_gettime_ns()), 0: none. */
uint64_t run_signal_ns(void);

/* True once a second stop came: the run reports without waiting for its workers. */
bool run_signal_again(void);

/*
 * Long loops (a layout) call run_busy() now and then: it calls what run_busy_set() gave, which
 * keeps the MPI ranks' heartbeat going (ranks.h); fn looks at its thread and time itself.
 */
void run_busy(void);
void run_busy_set(void (*fn)(void));

#endif
