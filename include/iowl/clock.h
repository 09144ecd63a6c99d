/* SPDX-License-Identifier: MIT */
/* The clock of the IO path: a calibrated invariant TSC where the CPU has one, CLOCK_MONOTONIC otherwise. */
#ifndef IOWL_CLOCK_H
#define IOWL_CLOCK_H

#include <limits.h>
#include <linux/futex.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
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
 * and clock_ready() fill it in main() before any thread starts, and it is only read afterwards.
 */
struct iowl_clock {
	bool tsc;		/* false: every read is a clock_gettime() */
	bool pending;		/* the TSC is to be used: calibrated by clock_ready() */
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
 * Starts the TSC's calibration when the CPU says it is invariant (constant rate, not stopped in
 * idle states) and IOWL_CLOCK is not "gettime": its first reading of both clocks.  Until
 * clock_ready(), clock_ns() reads CLOCK_MONOTONIC.  Returns true when the TSC is to be used.
 */
bool clock_init(void);

/*
 * Ends the calibration, 20 ms after clock_init() (sleeping what parsing the jobs left of it),
 * when a run is to start: --parse-only, --version and job files that do not parse do not wait.  Called
 * before any thread starts.  Returns true when the TSC is used.
 */
bool clock_ready(void);

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

/*
 * A futex on a 32-bit word the run shares with its workers (the start gate, the count of
 * workers done), private to the process.  futex_wait() sleeps while *word is expected, at most
 * ns nanoseconds: a wake, a signal or a changed word end it sooner, so callers look again.
 * futex_wake() wakes up to n of the threads waiting on word (FUTEX_WAKE_ALL: all).
 */
#define FUTEX_WAKE_ALL INT_MAX

static inline void futex_wait(unsigned *word, unsigned expected, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };

	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, &ts, NULL, 0);
}

static inline void futex_wake(unsigned *word, int n)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

#endif
