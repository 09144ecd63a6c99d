/* SPDX-License-Identifier: MIT */
/* The clock of the IO path: a calibrated invariant TSC where the CPU has one, CLOCK_MONOTONIC otherwise. */
#ifndef IOWL_CLOCK_H
#define IOWL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Nanoseconds in a second, millisecond and microsecond: iowl keeps every time in ns. */
#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

/*
 * Calibration of the time-stamp counter against CLOCK_MONOTONIC.  It is the one process-wide
 * setting outside struct iowl_run, because it describes the machine, not a run: clock_init()
 * fills it once in main() before any thread starts, and it is only read afterwards.
 */
struct iowl_clock {
	bool tsc;		/* false: every read is a clock_gettime() */
	uint64_t tsc0;		/* counter value at ns0 */
	uint64_t ns0;		/* CLOCK_MONOTONIC at calibration */
	uint64_t mult;		/* ns = ns0 + ((tsc - tsc0) * mult >> 32) */
	double ghz;		/* counter frequency, for the record */
};

extern struct iowl_clock iowl_clock;

/* fio's clocksource= (a job option; the run has one clock). */
enum clock_src {
	CLOCK_SRC_AUTO = 0, /* the TSC where it is invariant, else clock_gettime() */
	CLOCK_SRC_CPU,	    /* the TSC: an error where it is not invariant */
	CLOCK_SRC_GETTIME,  /* clock_gettime(CLOCK_MONOTONIC) (also for gettimeofday) */
};

/*
 * Calibrates the TSC when the CPU says it is invariant (constant rate, not stopped in idle
 * states) and IOWL_CLOCK is not "gettime"; about 20 ms.  Returns true when the TSC is used.
 */
bool clock_init(void);

static inline uint64_t clock_gettime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Monotonic nanoseconds: one rdtsc and a multiply, or a vDSO clock_gettime(). */
static inline uint64_t clock_ns(void)
{
#if defined(__x86_64__)
	if (__builtin_expect(iowl_clock.tsc, 1))
		return iowl_clock.ns0 +
		       (uint64_t)(((unsigned __int128)(__rdtsc() - iowl_clock.tsc0) * iowl_clock.mult) >> 32);
#endif
	return clock_gettime_ns();
}

/* Sleeps for ns nanoseconds (a signal may end it early: callers look at the clock again). */
static inline void clock_nap(uint64_t ns)
{
	nanosleep(&(struct timespec){ (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) },
		  NULL);
}

#endif
