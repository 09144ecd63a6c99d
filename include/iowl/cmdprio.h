/* SPDX-License-Identifier: MIT */
/*
 * fio's per-IO priorities (cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit) for
 * io_uring and libaio: the options as parsed, and the worker's per-IO draw of an IO's ioprio.
 */
#ifndef IOWL_CMDPRIO_H
#define IOWL_CMDPRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/ddir.h"
#include "iowl/engine.h"

#define CMDPRIO_SPLIT_MAX 64
#define CMDPRIO_CLASS_DEFAULT 0xffU /* an entry without its own class/level: cmdprio_class's */

struct cmdprio_entry {
	uint64_t bs;
	unsigned pct;	     /* 0..100 */
	unsigned cls, level; /* CMDPRIO_CLASS_DEFAULT: the direction's cmdprio_class and cmdprio */
};

/* As the job file gives them; index 0 reads, 1 writes (trims have none, as in fio). */
struct cmdprio_opts {
	unsigned pct[DDIR_NR];   /* cmdprio_percentage */
	unsigned cls[DDIR_NR];   /* cmdprio_class: 1 real time (the default), 2 best effort, 3 idle */
	unsigned level[DDIR_NR]; /* cmdprio: 0 (highest, the default) .. 7 */
	struct cmdprio_entry split[DDIR_NR][CMDPRIO_SPLIT_MAX];
	unsigned nsplit[DDIR_NR]; /* cmdprio_bssplit entries per direction */
};

/*
 * The option parsers (behind the option table's OPT_FUNC entries) into c; bssplit's sizes in
 * kb_base.  Return 0, or -EINVAL / -ERANGE with why set (VAL_WHY_LEN).
 */
int cmdprio_parse_pct(struct cmdprio_opts *c, const char *v, char *why);
int cmdprio_parse_class(struct cmdprio_opts *c, const char *v, char *why);
int cmdprio_parse_level(struct cmdprio_opts *c, const char *v, char *why);
int cmdprio_parse_bssplit(struct cmdprio_opts *c, unsigned kb_base, const char *v, char *why);

/* True when the options give some IOs a priority. */
bool cmdprio_active(const struct cmdprio_opts *c);

/* A worker's draw: resolved ioprio values and its own random state. */
struct cmdprio {
	uint64_t rng;
	uint16_t prio[2]; /* percentage mode: the direction's ioprio value */
	unsigned pct[2];
	const struct cmdprio_entry *split[2]; /* bssplit mode: NULL in percentage mode */
	unsigned nsplit[2];
	uint16_t split_prio[2][CMDPRIO_SPLIT_MAX];
};

void cmdprio_init(struct cmdprio *c, const struct cmdprio_opts *o, uint64_t seed);

/*
 * The priorities cmdprio may give direction d's IOs (0 reads, 1 writes), in the order of the
 * options, into out; returns how many (repeats included).
 */
unsigned cmdprio_values(const struct cmdprio *c, unsigned d, uint16_t out[CMDPRIO_SPLIT_MAX]);

/* fio's draw: the share of reads and writes (of a size, with bssplit) that get the priority. */
static inline uint16_t cmdprio_pick(struct cmdprio *c, const struct io_u *io)
{
	unsigned d = io->op, pct;
	uint16_t prio;
	uint64_t x;

	if (d > DDIR_WRITE)
		return 0;
	if (c->split[d]) {
		unsigned i;

		for (i = 0; i < c->nsplit[d] && c->split[d][i].bs != io->len; i++)
			;
		if (i == c->nsplit[d])
			return 0;
		pct = c->split[d][i].pct;
		prio = c->split_prio[d][i];
	} else {
		pct = c->pct[d];
		prio = c->prio[d];
	}
	if (!pct)
		return 0;
	/* xorshift64*: 0..99 from the top bits */
	x = c->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	c->rng = x;
	return (unsigned)(((x * 0x2545F4914F6CDD1DULL) >> 32) * 100 >> 32) < pct ? prio : 0;
}

#endif
