/* SPDX-License-Identifier: MIT */
/* Pass/fail assertions on a run's results (--assert), for CI: parsed before the run, checked after it. */
#ifndef IOWL_ASSERT_H
#define IOWL_ASSERT_H

#include <stdbool.h>
#include <stdio.h>

#include "iowl/err.h"
#include "iowl/report.h"

enum assert_op { ASSERT_GE, ASSERT_LE, ASSERT_GT, ASSERT_LT, ASSERT_EQ, ASSERT_NE };

enum assert_metric {
	ASSERT_IOPS,		/* IOs per second */
	ASSERT_BW,		/* bytes per second */
	ASSERT_IO_BYTES,
	ASSERT_IOS,		/* completed IOs */
	ASSERT_LAT,		/* a latency figure, ns */
	ASSERT_ERRORS,		/* IO and verify errors of the unit */
};

enum assert_lat_stat { ASSERT_MIN, ASSERT_MAX, ASSERT_MEAN, ASSERT_PCT };

/* One parsed assertion: [unit:]dir.metric[.kind.stat] op value. */
struct assertion {
	char text[160];		/* as written, for messages */
	char unit[64];		/* job or group name it applies to, "" for every unit */
	int dir;		/* 0 read, 1 write, 2 trim, -1 all directions together */
	enum assert_metric metric;
	unsigned lat_kind;	/* 0 slat, 1 clat, 2 lat */
	enum assert_lat_stat lat_stat;
	double pct;		/* for ASSERT_PCT */
	enum assert_op op;
	double value;		/* in base units: IO/s, bytes/s, bytes, ns, counts */
};

/*
 * Parses text such as "read.iops>=50000", "read.clat.p99<=2ms", "write.bw>=200MiB/s",
 * "errors==0" or "hot:read.lat.mean<1ms" (only the unit named hot).  Returns 0 or -EINVAL
 * with err set to what was wrong and what would be right.
 */
int assert_parse(const char *text, struct assertion *a, struct iowl_err *err);

/*
 * Checks every assertion against every reported unit it applies to, printing one line on f for
 * each that fails (what was asked and what was measured).  Returns the number of failures;
 * an assertion naming a unit that does not exist counts as failed.
 */
unsigned assert_check(const struct assertion *a, unsigned n, const struct run_result *r, FILE *f);

#endif
