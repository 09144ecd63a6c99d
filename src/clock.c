// SPDX-License-Identifier: MIT
/* TSC calibration for the IO path's clock, with CLOCK_MONOTONIC as the reference and the fallback. */
#include <stdlib.h>
#include <string.h>

#include "iowl/clock.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

struct iowl_clock iowl_clock;

#if defined(__x86_64__)
/* CPUID 0x80000007 EDX bit 8: the TSC runs at a constant rate in every P-, C- and T-state. */
static bool tsc_invariant(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return false;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	return d & (1U << 8);
}

/* One reading of both clocks, taken as close together as the machine allows. */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t t0 = __rdtsc(), n = clock_gettime_ns(), t1 = __rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = n;
		}
	}
}

#define CALIBRATE_NS 20000000ULL /* the span of the calibration */

bool clock_init(void)
{
	const char *env = getenv("IOWL_CLOCK");

	memset(&iowl_clock, 0, sizeof(iowl_clock));
	if ((env && !strcmp(env, "gettime")) || !tsc_invariant())
		return false;
	pair(&iowl_clock.tsc0, &iowl_clock.ns0);
	iowl_clock.pending = true;
	return true;
}

bool clock_ready(void)
{
	uint64_t t1, n1, t0 = iowl_clock.tsc0, n0 = iowl_clock.ns0, now = clock_gettime_ns();

	if (!iowl_clock.pending)
		return iowl_clock.tsc;
	iowl_clock.pending = false;
	if (now - n0 < CALIBRATE_NS) /* what parsing and checking took counts */
		clock_nap(CALIBRATE_NS - (now - n0));
	pair(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return false;
	iowl_clock.mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
	iowl_clock.ghz = (double)(t1 - t0) / (double)(n1 - n0);
	iowl_clock.tsc0 = t1;
	iowl_clock.ns0 = n1;
	iowl_clock.tsc = iowl_clock.mult != 0;
	return iowl_clock.tsc;
}
#else
bool clock_init(void)
{
	memset(&iowl_clock, 0, sizeof(iowl_clock));
	return false;
}

bool clock_ready(void)
{
	return false;
}
#endif
