/* SPDX-License-Identifier: MIT */
/* The monotonic clock the IO path reads: nanoseconds from the vDSO, one read per event. */
#ifndef IOWL_CLOCK_H
#define IOWL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic nanoseconds (CLOCK_MONOTONIC through the vDSO: no system call). */
static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
