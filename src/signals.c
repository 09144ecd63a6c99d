// SPDX-License-Identifier: MIT
/* SIGINT and SIGTERM (include/iowl/signals.h). */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/signals.h"

/*
 * A signal handler can only reach the run through a static: the stop flag is set while a run
 * is in progress and cleared after.
 */
static int *signal_stop;
static volatile sig_atomic_t signal_seen;
static volatile sig_atomic_t signal_again;	/* a second stop: do not wait for the workers */
static volatile uint64_t signal_ns;		/* when the first signal came (CLOCK_MONOTONIC) */

/*
 * Signals within SIGNAL_SAME_NS of the first are the same stop: timeout(1) passes a ^C on to
 * its command and to the process group, which the terminal signalled already.
 */
#define SIGNAL_SAME_NS 250000000ULL

static void on_signal(int sig)
{
	uint64_t now = clock_gettime_ns();	/* async-signal-safe */

	if (signal_seen) {
		if (now - signal_ns < SIGNAL_SAME_NS)
			return;
		if (signal_again)	/* a third: leave at once, 130 or 143 as a shell reports it */
			_exit(128 + signal_seen);
		signal_again = 1;	/* a person pressing ^C again: report now */
		return;
	}
	signal_ns = now;
	signal_seen = sig;
	if (signal_stop)
		__atomic_store_n(signal_stop, 1, __ATOMIC_RELAXED);
}

int run_signal_seen(void)
{
	return signal_seen;
}

uint64_t run_signal_ns(void)
{
	return signal_seen ? signal_ns : 0;
}

bool run_signal_again(void)
{
	return signal_again;
}

void run_signals_install(int *stop)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	signal_stop = stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void run_signals_release(void)
{
	signal_stop = NULL;
}

static void (*busy_fn)(void);

void run_busy(void)
{
	if (busy_fn)
		busy_fn();
}

void run_busy_set(void (*fn)(void))
{
	busy_fn = fn;
}
