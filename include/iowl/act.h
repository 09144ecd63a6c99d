/* SPDX-License-Identifier: MIT */
/*
 * fio 3.33's act profile's latency table: every read and write of the run is counted per hour
 * of its worker's run by the highest of ACT's limits (1, 8, 64 ms) its latency exceeds (total
 * latency, from the IO's start to its completion, as fio's per-IO hook sees it); a worker whose
 * hour ends with a share at or over ACT's (5 %, 1 %, 0.1 %) stops with an error, as fio's does.
 * At its end each worker adds its hours into the run's table, which is printed with ACT's
 * verdict (PASSED unless a cell of an hour is at or over its share).  Per IO: a compare and an
 * increment, no clock read of its own, no allocation, no lock.
 */
#ifndef IOWL_ACT_H
#define IOWL_ACT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define ACT_NLIM 3
#define ACT_MAX_SLICES 8784 /* a year of hours */
#define ACT_SLICE_S 3600    /* a slice: an hour */

/* ACT's limits: over ms[i] milliseconds, at most permille[i] / 10 percent of the IOs. */
extern const unsigned act_limit_ms[ACT_NLIM], act_permille[ACT_NLIM];

/* One hour: its IOs, and those over each limit (each counted only under the highest). */
struct act_slice {
	uint64_t ios;
	uint64_t over[ACT_NLIM];
};

/* One worker's hours. */
struct act_count {
	struct act_slice *slice; /* n of them; NULL: the worker counts nothing */
	unsigned n, cur;	 /* the hour counted now; n: past the last */
	uint64_t len_ns;	 /* an hour */
	uint64_t end_ns;	 /* when the current one ends */
};

/* Gives c n slices of len_ns each (n 0: none).  Returns 0 or -ENOMEM. */
int act_count_init(struct act_count *c, unsigned n, uint64_t len_ns);

/* The first slice starts at now. */
void act_count_start(struct act_count *c, uint64_t now);

/* Closes the current slice at the IO that found it over; returns act_add()'s answer. */
int act_count_close(struct act_count *c, uint64_t now);

/*
 * Counts one IO of latency lat_ns completed at now (fio: microseconds over the limit, so
 * 1001 us and more count over 1 ms).  Returns -1, or when the IO closes its hour (the first to
 * complete an hour or more after the hour began: counted in it, as fio's) and that hour is at
 * or over a limit's share, the first such limit's index.
 */
static inline int act_add(struct act_count *c, uint64_t lat_ns, uint64_t now)
{
	struct act_slice *s;
	uint64_t us = lat_ns / 1000;

	if (c->cur >= c->n)
		return -1;
	s = &c->slice[c->cur];
	s->ios++;
	if (us > 1000)
		s->over[us > 64000 ? 2 : us > 8000]++;
	return now < c->end_ns ? -1 : act_count_close(c, now);
}

/* The first limit whose share slice s reaches (over * 1000 >= permille * ios), -1: none. */
int act_slice_fails(const struct act_slice *s);

/* Frees c's slices. */
void act_count_free(struct act_count *c);

/* The run's table: n hourly slices (0: no act counting), emptied. */
void act_table_reset(unsigned n);

/* Adds a worker's slices to the run's table (at its end; takes the table's lock). */
void act_table_add(const struct act_count *c);

/* The run's table, NULL when the run counts nothing. */
const struct act_table *act_table(void);

/* Prints the table and the verdict as fio 3.33's act does.  Returns 0 or -EIO. */
int act_print(FILE *f, const struct act_table *t);

/* The table as JSON: { slices: [{ slice, ios, over_1ms, ... }], verdict }; NULL: no memory. */
struct json_t *act_json(const struct act_table *t);

/* True when the table's verdict is PASSED. */
bool act_passed(const struct act_table *t);

#endif
